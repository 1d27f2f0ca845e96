// ctir-opt --emit c: the C of the module's tensor-level functions.
#pragma once

#include <ctir/ir/module.hpp>

#include <string>

namespace ctir_opt {

/// The C translation unit the native backend compiles for `mod` (with bounds checks).
/// Throws ctir::codegen::CodegenError for a construct C cannot express.
std::string emit_c_text(const ctir::IRModule& mod);

} // namespace ctir_opt
