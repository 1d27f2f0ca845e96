// SimplifyExpr: algebraic identities of graph-level operator calls.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

namespace ctir::passes {

/// `f` with the algebraic identities of SimplifyExpr applied; global calls resolve in `mod`.
Function simplify_expr(const Function& f, const IRModule& mod = {});

/// Applies algebraic identities to graph-level operator calls.
///
/// - `add(x, 0)`, `add(0, x)`, `subtract(x, 0)`, `multiply(x, 1)`, `multiply(1, x)` and
///   `divide(x, 1)` become `x` when the zero or one (a literal, or a constant filled with
///   it) has x's dtype and broadcasting it against x leaves x's shape unchanged (so
///   `add(x, zeros of a larger shape)` stays). For floats `x + 0` turns a -0 element of
///   x into +0; the rewrite keeps -0, which compares equal.
/// - `negative(negative(x))` becomes `x`.
/// - `reshape(reshape(x, a), b)` becomes `reshape(x, b)`; a reshape to x's own (static)
///   shape becomes `x`.
/// - `transpose(transpose(x, a), b)` becomes one transpose with the composed axes, or `x`
///   when they compose to the identity.
///
/// The rules that need x's type take it from type inference; on a function inference
/// rejects, only the others apply. Calls are rewritten innermost first, so chains collapse
/// in one run.
struct SimplifyExpr : pass_interface<SimplifyExpr> {
  static constexpr PassInfo info() {
    return {.name = "SimplifyExpr",
            .opt_level = 0,
            .invalidates = {"InferType"},
            .description = "algebraic identities of graph-level operator calls"};
  }
  Function transform_function(Function f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/simplify_expr-inl.hpp>
#endif
