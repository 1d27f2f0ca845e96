// GraphRewriter: an iterative post-order rewriter of graph-level expressions with scope hooks.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/passes/detail/graph_utils.hpp>

#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::passes::detail {

/// `e`, whose operands (as `operands` lists them) are `old`, with them replaced by `kids`;
/// `e` itself when every operand is the same object.
Expr with_operands(const Expr& e, const std::vector<Expr>& old, std::vector<Expr>&& kids);

/// Rewrites a graph-level expression bottom-up with an explicit stack, so chains of lets
/// and calls 100,000 deep need no deep native stack.
///
/// `Derived` may define (the defaults do nothing):
/// - `Expr leaf(const Expr& e)`: the replacement of a leaf (a variable, a literal, ...);
/// - `Expr post(const Expr& original, Expr rebuilt)`: the replacement of a composite node,
///   given the node rebuilt around its rewritten operands;
/// - `void enter(const Expr& node, std::size_t index, const std::vector<Expr>& done)` and
///   `void leave(const Expr& node, std::size_t index)`: called before and after operand
///   `index` of `node` is rewritten (`done` holds the rewritten operands before it), to
///   open and close scopes;
/// - `const Expr* find_memo(const Object*)` and `void store_memo(const Object*, Expr)`:
///   what was made of a node already rewritten (by default one table for the whole run,
///   so a shared node is rewritten once and stays shared).
template <class Derived>
class GraphRewriter {
public:
  /// `root` rewritten.
  Expr rewrite(const Expr& root) {
    if (!root.defined()) {
      return root;
    }
    if (const Expr* known = self().find_memo(root.get())) {
      return *known;
    }
    if (!is_composite(root)) {
      Expr out = self().leaf(root);
      self().store_memo(root.get(), out);
      return out;
    }
    std::vector<Frame> stack;
    stack.push_back(Frame{root, operands(root), {}});
    while (true) {
      Frame& top = stack.back();
      const std::size_t index = top.done.size();
      if (index < top.kids.size()) {
        self().enter(top.node, index, top.done);
        const Expr kid = top.kids[index];
        if (!kid.defined()) {
          top.done.push_back(kid); // left for type inference to report
        } else if (const Expr* known = self().find_memo(kid.get())) {
          top.done.push_back(*known);
        } else if (!is_composite(kid)) {
          Expr out = self().leaf(kid);
          self().store_memo(kid.get(), out);
          top.done.push_back(std::move(out));
        } else {
          stack.push_back(Frame{kid, operands(kid), {}});
          continue;
        }
        self().leave(top.node, index);
        continue;
      }
      const Expr node = top.node;
      Expr rebuilt = with_operands(node, top.kids, std::move(top.done));
      Expr out = self().post(node, std::move(rebuilt));
      stack.pop_back();
      self().store_memo(node.get(), out);
      if (stack.empty()) {
        return out;
      }
      stack.back().done.push_back(std::move(out));
      self().leave(stack.back().node, stack.back().done.size() - 1);
    }
  }

  Expr leaf(const Expr& e) { return e; }
  Expr post(const Expr&, Expr rebuilt) { return rebuilt; }
  void enter(const Expr&, std::size_t, const std::vector<Expr>&) {}
  void leave(const Expr&, std::size_t) {}
  const Expr* find_memo(const Object* node) const {
    auto it = memo_.find(node);
    return it == memo_.end() ? nullptr : &it->second;
  }
  void store_memo(const Object* node, Expr out) { memo_.emplace(node, std::move(out)); }

private:
  struct Frame {
    Expr node;
    std::vector<Expr> kids;
    std::vector<Expr> done;
  };

  Derived& self() noexcept { return static_cast<Derived&>(*this); }

  /// Input nodes (kept alive by the input) to what they became.
  std::unordered_map<const Object*, Expr> memo_;
};

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/graph_rewriter-inl.hpp>
#endif
