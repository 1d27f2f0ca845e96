// The passes ctir-opt can run: every pass the library defines, registered by name when the
// program starts (ctir-opt holds no pass of its own).
#include "passes.hpp"

#include <ctir/passes/register.hpp>

namespace ctir_opt {

void register_passes() { ctir::passes::register_standard_passes(); }

} // namespace ctir_opt
