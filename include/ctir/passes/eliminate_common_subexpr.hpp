// EliminateCommonSubexpr: computes structurally equal calls once where the first dominates.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/infer_type.hpp>

namespace ctir::passes {

/// `f` with its common subexpressions eliminated (see EliminateCommonSubexpr); `f` itself
/// when there are none.
Function eliminate_common_subexpr(const Function& f);

/// Computes structurally equal calls once.
///
/// A call (of an operator, a global or a closure) or call_dps that is structurally equal
/// to one computed earlier, where the earlier one is certain to have run (before it in
/// the same or an enclosing block: earlier operands, a let's value for its body, an if's
/// condition for its branches; never one branch for the other), reuses it:
/// - when the earlier call is a let's value, the later one becomes the let's variable,
///   and a later `let %b = <equal call>` goes entirely, `%b` replaced by the first
///   variable;
/// - otherwise the later call becomes the earlier call node itself, a shared dataflow
///   node that is evaluated once (printed `%N = ...` and used twice).
/// A closure body reuses variables of the enclosing function (it captures them) but not
/// its unbound calls, which a closure would evaluate again anyway.
/// A node with several uses (a DAG's shared node) is rewritten once, for all of them: it
/// reuses only what is available in the block that encloses all its uses, so a node both
/// branches of an if share never takes a variable one branch binds.
///
/// Every graph-level computation is pure in ctir, so sharing changes no result. Operands
/// are rewritten first, so equal nested calls collapse in one run and the pass is
/// idempotent; types are kept.
struct EliminateCommonSubexpr : pass_interface<EliminateCommonSubexpr> {
  using required_passes = pass_list<InferType>;
  static constexpr PassInfo info() {
    return {.name = "EliminateCommonSubexpr",
            .opt_level = 3,
            .required = {"InferType"},
            .description = "computes structurally equal calls once"};
  }
  Function transform_function(Function f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/eliminate_common_subexpr-inl.hpp>
#endif
