// ctir::compiled: the object model and the hooks (the type registry).
#include <ctir/core/type_registry-inl.hpp>
