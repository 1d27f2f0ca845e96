// ctir::compiled: register_standard_passes, the standard passes by name.
#include <ctir/passes/register-inl.hpp>
