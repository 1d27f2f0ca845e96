// Definitions of <ctir/passes/register.hpp>.
#pragma once

#include <ctir/passes/register.hpp>

#include <ctir/pass/print_ir_pass.hpp>
#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/passes/default_pipeline.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/passes/flatten_buffer.hpp>
#include <ctir/passes/fold_constant.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/legalize_ops.hpp>
#include <ctir/passes/remove_no_op.hpp>
#include <ctir/passes/remove_unused_functions.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/passes/simplify_expr.hpp>
#include <ctir/passes/to_a_normal_form.hpp>
#include <ctir/passes/unroll_loop.hpp>
#include <ctir/runtime/pass/erased.hpp>

namespace ctir::passes {

namespace detail {
template <class P>
void register_unless_taken(PassRegistry& registry) {
  if (!registry.contains(P{}.info().name)) {
    registry.add<P>();
  }
}
template <class... Ps>
void register_static_passes(PassRegistry& registry) {
  (register_unless_taken<Ps>(registry), ...);
}
} // namespace detail

CTIR_INLINE void register_standard_passes(PassRegistry& registry) {
  unroll_max_extent_option();
  unroll_strict_option();
  entry_functions_option();
  detail::register_static_passes<PrintIR, InferType, SimplifyExpr, FoldConstant,
                                 EliminateCommonSubexpr, DeadCodeElimination, ToANormalForm,
                                 RemoveUnusedFunctions, LegalizeOps, Simplify, UnrollLoop,
                                 RemoveNoOp, FlattenBuffer>(registry);
  if (!registry.contains("DefaultPipeline")) {
    registry.add(Pass(default_pipeline()));
  }
}

} // namespace ctir::passes
