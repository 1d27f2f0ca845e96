// ctir::compiled: the structural hooks (value traits, node types described at run time).
#include <ctir/hooks/runtime_type-inl.hpp>
#include <ctir/hooks/value_traits-inl.hpp>
