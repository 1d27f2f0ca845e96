// Definitions of <ctir/pass/run.hpp>.
#pragma once

#include <ctir/pass/run.hpp>

namespace ctir::detail {

CTIR_INLINE IRModule run_instrumented_erased(const PassInfo& info, IRModule&& mod,
                                             const PassContext& ctx, bool& ran,
                                             function_ref<IRModule(IRModule&&)> rewrite) {
  return run_instrumented_with(info, std::move(mod), ctx, ran, rewrite);
}

} // namespace ctir::detail
