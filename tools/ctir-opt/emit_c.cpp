// ctir-opt --emit c: the C of the module's tensor-level functions.
#include "emit_c.hpp"

#include <ctir/codegen/c_codegen.hpp>

namespace ctir_opt {

std::string emit_c_text(const ctir::IRModule& mod) { return ctir::codegen::emit_c(mod); }

} // namespace ctir_opt
