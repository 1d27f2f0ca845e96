// ctir-opt --backend compiled: runs a function of the module as native code.
#include "backend.hpp"

#include <ctir/codegen/module.hpp>

#include <utility>

namespace ctir_opt {

std::vector<ctir::eval::Value> run_compiled(const ctir::IRModule& mod, const std::string& name,
                                            std::vector<ctir::eval::Value> inputs) {
  const ctir::codegen::NativeModule native = ctir::build(mod);
  return native.get_function(name)(std::move(inputs));
}

} // namespace ctir_opt
