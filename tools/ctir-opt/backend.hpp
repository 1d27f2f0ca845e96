// ctir-opt --backend compiled: runs a function of the module as native code.
#pragma once

#include <ctir/eval/value.hpp>
#include <ctir/ir/module.hpp>

#include <string>
#include <vector>

namespace ctir_opt {

/// Compiles `mod` with ctir::build and calls its function `name` on `inputs`; the
/// outputs are those the interpreter would return. Throws ctir::codegen::BuildError
/// (no compiler, a failing compile), CodegenError, or eval::EvalError from the call.
std::vector<ctir::eval::Value> run_compiled(const ctir::IRModule& mod, const std::string& name,
                                            std::vector<ctir::eval::Value> inputs);

} // namespace ctir_opt
