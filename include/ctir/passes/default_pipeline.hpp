// DefaultPipeline: the standard passes in the order an optimising compiler runs them.
#pragma once

#include <ctir/pass/info.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/passes/flatten_buffer.hpp>
#include <ctir/passes/fold_constant.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/remove_no_op.hpp>
#include <ctir/passes/remove_unused_functions.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/passes/simplify_expr.hpp>
#include <ctir/passes/unroll_loop.hpp>

namespace ctir::passes {

/// The standard pipeline as a static sequential named "DefaultPipeline".
///
/// Every standard pass is in it; the context's opt_level chooses which run (each pass has
/// TVM's level), so `-O0` only types, simplifies and flattens, and `-O3` adds constant
/// folding, unrolling and common subexpression elimination. Graph-level passes come first:
/// InferType, SimplifyExpr, FoldConstant, EliminateCommonSubexpr, DeadCodeElimination
/// (after the two that leave bindings unused), RemoveUnusedFunctions, then InferType again
/// so the result is typed. Tensor-level passes follow: Simplify, UnrollLoop, Simplify
/// (unrolled bodies have constant indices to fold), RemoveNoOp, FlattenBuffer. Passes that
/// need typed IR get it through their requirements, re-established after a pass that
/// invalidates it.
///
/// Lowering (LegalizeOps) is not in it: a user chooses when graph operators become loops.
constexpr auto default_pipeline() {
  return sequential(PassInfo{.name = "DefaultPipeline",
                             .opt_level = 0,
                             .description = "the standard passes; opt_level selects which run"},
                    InferType{}, SimplifyExpr{}, FoldConstant{}, EliminateCommonSubexpr{},
                    DeadCodeElimination{}, RemoveUnusedFunctions{}, InferType{}, Simplify{},
                    UnrollLoop{}, Simplify{}, RemoveNoOp{}, FlattenBuffer{});
}

} // namespace ctir::passes
