// Definitions of <ctir/passes/infer_type.hpp>.
#pragma once

#include <ctir/passes/infer_type.hpp>

#include <ctir/passes/detail/type_inference.hpp>

namespace ctir::passes {

CTIR_INLINE Function infer_type(const Function& f, const IRModule& mod) {
  return detail::ModuleTypeInference(mod).infer(f);
}

CTIR_INLINE IRModule InferType::transform_module(IRModule mod, const PassContext&) const {
  return detail::ModuleTypeInference(mod).run();
}

} // namespace ctir::passes
