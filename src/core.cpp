// ctir::compiled: the object model and the hooks (the type registry, errors, name helpers).
#include <ctir/core/detail/names-inl.hpp>
#include <ctir/core/error-inl.hpp>
#include <ctir/core/type_registry-inl.hpp>
