// DeadCodeElimination: drops let bindings of graph-level functions whose variable is unused.
#pragma once

#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

namespace ctir::passes {

namespace detail {

/// Whether `var` is used in `expr`.
inline bool mentions(const Expr& expr, const Var& var) {
  const auto found = walk(expr, [&](const Var& v) -> WalkResult<bool> {
    if (v.same_as(var)) {
      return interrupt(true);
    }
    return advance;
  });
  return found.has_value();
}

} // namespace detail

/// `f` without its dead let bindings (see DeadCodeElimination); `f` itself when it has none.
inline Function eliminate_dead_code(const Function& f) {
  return map(f, [](const Let& let) -> Expr {
    return detail::mentions(let->body, let->var) ? Expr(let) : let->body;
  });
}

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
  Function transform_function(Function f, const IRModule&, const PassContext&) const {
    return eliminate_dead_code(f);
  }
};


} // namespace ctir::passes
