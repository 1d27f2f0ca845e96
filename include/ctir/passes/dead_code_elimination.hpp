// DeadCodeElimination: drops let bindings of graph-level functions whose variable is unused.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

namespace ctir::passes {

/// `f` without its dead let bindings (see DeadCodeElimination); `f` itself when it has none.
Function eliminate_dead_code(const Function& f);

/// Removes `let %v = e; body` where `body` does not use `%v`, leaving `body`.
///
/// Every graph-level expression is pure in ctir (operators compute values, call_dps
/// writes only the output it allocates), so an unused binding can go whatever its value;
/// removing it may only remove a run-time error the value would have raised. Bindings are
/// removed innermost first, so a chain of bindings only used by dead ones goes entirely.
struct DeadCodeElimination : pass_interface<DeadCodeElimination> {
  static constexpr PassInfo info() {
    return {.name = "DeadCodeElimination",
            .opt_level = 1,
            .description = "drops let bindings whose variable is unused"};
  }
  Function transform_function(Function f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/dead_code_elimination-inl.hpp>
#endif
