// Definitions of <ctir/passes/dead_code_elimination.hpp>.
#pragma once

#include <ctir/passes/dead_code_elimination.hpp>

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <vector>

namespace ctir::passes {

namespace detail {

/// The let-bound variables that a function's result depends on.
///
/// Liveness is reachability from the function's body: a let's value is reached only once
/// something reached uses its variable, so a binding used only by dead bindings is dead
/// too, as when bindings are removed innermost first. Each node is reached once, however
/// many uses lead to it, and the work is a list of roots rather than recursion: one pass,
/// linear in the distinct nodes (asking each let whether its body mentions the variable
/// walks the rest of a chain of lets per binding, quadratic in its length).
class LiveLets {
public:
  explicit LiveLets(const Function& f) {
    expr_roots_.push_back(f->body);
    while (!expr_roots_.empty() || !type_roots_.empty()) {
      if (!expr_roots_.empty()) {
        const Expr root = std::move(expr_roots_.back());
        expr_roots_.pop_back();
        reach(root);
      } else {
        const Type root = std::move(type_roots_.back());
        type_roots_.pop_back();
        reach(root);
      }
    }
  }

  bool live(const Var& var) const { return live_.contains(var.get()); }

private:
  ctir::detail::PointerMap<bool> live_;
  /// The values of lets whose variable is not used yet.
  ctir::detail::PointerMap<Expr> waiting_;
  /// Shared nodes reached already (each walk below meets a shared node once; this keeps
  /// it so across walks).
  ctir::detail::PointerMap<bool> reached_;
  std::vector<Expr> expr_roots_;
  std::vector<Type> type_roots_;

  bool first_reach(const Object& node) {
    return node.use_count() <= 1 || reached_.try_emplace(&node).second;
  }

  template <class Root>
  void reach(const Root& root) {
    walk(root,
         callbacks(
             [this](const Let& let) -> WalkResult<> {
               if (!first_reach(*let)) {
                 return skip;
               }
               // The value waits for the variable's first use; the body is reached now. A
               // type of the variable may use variables too.
               if (live_.contains(let->var.get())) {
                 expr_roots_.push_back(let->value);
               } else if (let->value.defined()) {
                 waiting_.try_emplace(let->var.get(), let->value);
               }
               // Many lets share one type object; its variables are reached once.
               if (let->var->ty.defined() && first_reach(*let->var->ty)) {
                 type_roots_.push_back(let->var->ty);
               }
               expr_roots_.push_back(let->body);
               return skip;
             },
             with_def_region_kind([this](const Var& var, DefRegionKind kind) {
               if (kind == DefRegionKind::none && live_.try_emplace(var.get()).second) {
                 if (const Expr* value = waiting_.find(var.get())) {
                   expr_roots_.push_back(*value);
                 }
               }
             }),
             [this](const Expr& e) -> WalkResult<> { return first_reach(*e) ? advance : skip; }),
         pre_order);
  }
};

} // namespace detail

CTIR_INLINE Function eliminate_dead_code(const Function& f) {
  // Many graph-level functions bind no variable (dataflow names are not lets): then there
  // is nothing to remove, and a walk that stops at the first let says so.
  const bool has_let =
      walk(f, [](const Let&) -> WalkResult<bool> { return interrupt(true); }).has_value();
  if (!has_let) {
    return f;
  }
  const detail::LiveLets live(f);
  return map(f,
             [&](const Let& let) -> Expr { return live.live(let->var) ? Expr(let) : let->body; });
}

CTIR_INLINE Function DeadCodeElimination::transform_function(Function f, const IRModule&,
                                                             const PassContext&) const {
  return eliminate_dead_code(f);
}

} // namespace ctir::passes
