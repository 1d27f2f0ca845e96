// Definitions of <ctir/passes/dead_code_elimination.hpp>.
#pragma once

#include <ctir/passes/dead_code_elimination.hpp>

#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

namespace ctir::passes {

namespace detail {

/// Whether `var` is used in `expr`.
CTIR_INLINE bool mentions(const Expr& expr, const Var& var) {
  const auto found = walk(expr, [&](const Var& v) -> WalkResult<bool> {
    if (v.same_as(var)) {
      return interrupt(true);
    }
    return advance;
  });
  return found.has_value();
}

} // namespace detail

CTIR_INLINE Function eliminate_dead_code(const Function& f) {
  return map(f, [](const Let& let) -> Expr {
    return detail::mentions(let->body, let->var) ? Expr(let) : let->body;
  });
}

CTIR_INLINE Function DeadCodeElimination::transform_function(Function f, const IRModule&,
                                                             const PassContext&) const {
  return eliminate_dead_code(f);
}

} // namespace ctir::passes
