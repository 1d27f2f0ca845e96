// ctir::compiled: the standard passes and their registration by name.
#include <ctir/passes/register-inl.hpp>
