// Definitions of <ctir/passes/eliminate_common_subexpr.hpp>.
#pragma once

#include <ctir/passes/eliminate_common_subexpr.hpp>

#include <ctir/hooks/value_traits.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/passes/detail/graph_rewriter.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// Nested scopes as a tree, with ancestor and common-ancestor queries in O(log depth)
/// (skew-binary jump pointers), so that a chain of 100,000 lets costs no quadratic walk.
class ScopeTree {
public:
  ScopeTree() { nodes_.push_back({0, 0, 0, 0}); } // the root scope

  /// A new scope inside `parent`; a closure's body is the scope of a function.
  std::int32_t add(std::int32_t parent, bool is_function) {
    const Node& p = at(parent);
    const Node& j = at(p.jump);
    const auto id = static_cast<std::int32_t>(nodes_.size());
    const std::int32_t jump = p.depth - j.depth == j.depth - at(j.jump).depth ? j.jump : parent;
    nodes_.push_back({parent, jump, p.depth + 1, is_function ? id : p.function});
    return id;
  }

  /// The innermost closure body (or the root) that `scope` is in.
  std::int32_t function_of(std::int32_t scope) const { return at(scope).function; }

  /// Whether `outer` is `inner` or encloses it.
  bool encloses(std::int32_t outer, std::int32_t inner) const {
    return at(outer).depth <= at(inner).depth && ancestor(inner, at(outer).depth) == outer;
  }

  /// The innermost scope enclosing both.
  std::int32_t common(std::int32_t a, std::int32_t b) const {
    if (at(a).depth > at(b).depth) {
      a = ancestor(a, at(b).depth);
    } else {
      b = ancestor(b, at(a).depth);
    }
    while (a != b) {
      // Scopes of equal depth have jump pointers of equal depth.
      if (at(a).jump != at(b).jump) {
        a = at(a).jump;
        b = at(b).jump;
      } else {
        a = at(a).parent;
        b = at(b).parent;
      }
    }
    return a;
  }

private:
  struct Node {
    std::int32_t parent;
    std::int32_t jump;
    std::int32_t depth;
    std::int32_t function;
  };
  std::vector<Node> nodes_;

  const Node& at(std::int32_t id) const { return nodes_[static_cast<std::size_t>(id)]; }

  /// The scope at `depth` enclosing `scope` (depth at most its own).
  std::int32_t ancestor(std::int32_t scope, std::int32_t depth) const {
    while (at(scope).depth > depth) {
      scope = at(at(scope).jump).depth >= depth ? at(scope).jump : at(scope).parent;
    }
    return scope;
  }
};

/// The rewriting state of EliminateCommonSubexpr for one function.
///
/// Available computations live in one table with an undo log: a scope (a let's body, an
/// if's branch, a closure's body) records where its log starts and undoes its entries
/// when it ends, so lookups stay O(1) however deep scopes nest.
///
/// A node used in several places is one definition, which the printer binds in the
/// innermost scope enclosing all its uses (its home), so it is rewritten once and may
/// use only what is available at its home: met first deep in one branch of an if, it
/// must not become that branch's let variable (undefined in the other branch), and
/// rewriting it once per scope would copy the lets inside it, one variable bound at
/// several sites. Homes are computed before rewriting, on a tree of scopes.
class CommonSubexprEliminator : public GraphRewriter<CommonSubexprEliminator> {
public:
  explicit CommonSubexprEliminator(const Expr& root) { place(root); }

  Expr leaf(const Expr& e) {
    if (const auto* var = e.as<VarNode>()) {
      if (auto it = aliases_.find(var); it != aliases_.end()) {
        return it->second;
      }
    }
    return e;
  }

  void enter(const Expr& node, std::size_t index, const std::vector<Expr>& done) {
    if (const auto* let = node.as<LetNode>(); let != nullptr && index == 1) {
      open_scope(node, index);
      const Expr& value = done[0];
      if (is_candidate(let->value) && value.is<VarNode>()) {
        // The value became an earlier binding's variable: the body uses that one.
        aliases_.emplace(let->var.get(), value);
      } else if (is_candidate(value)) {
        // Later equal computations in the body reuse the variable rather than the node.
        add_available(value, let->var, true);
      }
    } else if (opens_scope(node, index)) {
      open_scope(node, index);
    }
  }

  void leave(const Expr& node, std::size_t index) {
    if (opens_scope(node, index)) {
      close_scope();
    }
  }

  Expr post(const Expr& original, Expr rebuilt) {
    if (const auto* let = original.as<LetNode>()) {
      return aliases_.contains(let->var.get()) ? rebuilt.as<LetNode>()->body : rebuilt;
    }
    if (is_candidate(rebuilt)) {
      const std::uint64_t hash = hash_of(rebuilt);
      const std::int32_t home = home_of(original.get());
      if (auto it = available_.find(hash); it != available_.end()) {
        for (std::size_t k = it->second.size(); k-- > 0;) {
          const Available& entry = it->second[k];
          // A node computed in an enclosing function is computed again in each call of
          // this closure; a variable is captured.
          const bool usable = (entry.is_var || scopes_tree_.function_of(entry.scope) ==
                                                   scopes_tree_.function_of(home)) &&
                              scopes_tree_.encloses(entry.scope, home);
          if (usable && same_computation(entry.computation, rebuilt)) {
            return entry.replacement;
          }
        }
      }
      add_available(rebuilt, rebuilt, false, home);
    }
    if (is_hashed_incrementally(rebuilt)) {
      static_cast<void>(hash_of(rebuilt));
    }
    return rebuilt;
  }

private:
  /// A computation available at this point, and what to use instead of recomputing it.
  struct Available {
    Expr computation;
    Expr replacement;
    /// The scope it is available in (for a node: its home).
    std::int32_t scope;
    bool is_var;
  };
  /// One undoable change: an available computation under `hash`.
  struct LogEntry {
    std::uint64_t hash;
  };

  /// Scopes and the home of every node of the input, from `place`.
  ScopeTree scopes_tree_;
  std::unordered_map<const Object*, std::int32_t> home_;
  /// The first scope a node opens (a let's body, an if's first branch, a closure's body);
  /// an if's second branch is the next one.
  std::unordered_map<const Object*, std::int32_t> first_scope_;
  /// The scopes open now, innermost last (the root scope first).
  std::vector<std::int32_t> open_ids_{0};
  /// Available computations by structural hash, the innermost last.
  std::unordered_map<std::uint64_t, std::vector<Available>> available_;
  /// Let variables dropped because their value was computed already, to the variable
  /// that holds it.
  std::unordered_map<const VarNode*, Expr> aliases_;
  /// Structural hashes of rewritten nodes (kept alive), computed from their operands'.
  std::unordered_map<const Object*, std::pair<ObjectRef, std::uint64_t>> hashes_;
  std::vector<LogEntry> log_;
  std::vector<std::size_t> scopes_;

  /// Whether operand `index` of `node` is rewritten in a scope of its own.
  static bool opens_scope(const Expr& node, std::size_t index) {
    return (node.is<LetNode>() && index == 1) || (node.is<IfNode>() && index > 0) ||
           node.is<FunctionNode>();
  }
  /// The scope operand `index` of `node` is in, when it opens one.
  std::int32_t scope_of(const Expr& node, std::size_t index) const {
    const std::int32_t first = first_scope_.at(node.get());
    return node.is<IfNode>() ? first + static_cast<std::int32_t>(index) - 1 : first;
  }
  std::int32_t home_of(const Object* node) const {
    auto it = home_.find(node);
    return it == home_.end() ? open_ids_.back() : it->second;
  }

  /// Computes the home of every node under `root`: the innermost scope enclosing all its
  /// uses. Parents are placed before their operands (reverse post-order of the DAG).
  void place(const Expr& root) {
    if (!is_composite(root)) {
      return;
    }
    // Post-order of the DAG (operands before the nodes using them) with each node's
    // operands; a node is entered in home_ (as -1, not placed) when first discovered.
    struct Visit {
      Expr node;
      std::vector<Expr> kids;
      std::size_t next = 0;
    };
    std::vector<Visit> order;
    std::vector<Visit> stack;
    home_.emplace(root.get(), -1);
    stack.push_back({root, operands(root)});
    while (!stack.empty()) {
      Visit& top = stack.back();
      if (top.next == top.kids.size()) {
        order.push_back(std::move(top));
        stack.pop_back();
        continue;
      }
      const Expr& kid = top.kids[top.next++];
      if (is_composite(kid) && home_.emplace(kid.get(), -1).second) {
        stack.push_back({kid, operands(kid)});
      }
    }
    home_[root.get()] = 0;
    for (std::size_t k = order.size(); k-- > 0;) {
      const Expr& node = order[k].node;
      const std::vector<Expr>& kids = order[k].kids;
      const std::int32_t home = home_.at(node.get());
      for (std::size_t index = 0; index < kids.size(); ++index) {
        std::int32_t use = home;
        if (opens_scope(node, index)) {
          const auto [it, added] = first_scope_.emplace(node.get(), 0);
          if (added) {
            it->second = scopes_tree_.add(home, node.is<FunctionNode>());
            if (node.is<IfNode>()) {
              static_cast<void>(scopes_tree_.add(home, false)); // the second branch
            }
          }
          use = scope_of(node, index);
        }
        if (!is_composite(kids[index])) {
          continue;
        }
        std::int32_t& kid_home = home_.at(kids[index].get());
        kid_home = kid_home < 0 ? use : scopes_tree_.common(kid_home, use);
      }
    }
  }

  /// Calls and call_dps: the computations this pass shares.
  static bool is_candidate(const Expr& e) { return e.is<CallNode>() || e.is<CallDpsNode>(); }
  static bool is_hashed_incrementally(const Expr& e) {
    return e.is<CallNode>() || e.is<CallDpsNode>() || e.is<TupleNode>() || e.is<TupleGetItemNode>();
  }

  /// Whether operands are equal: the same node, or structurally equal.
  static bool same_operand(const ObjectRef& a, const ObjectRef& b) {
    return a.same_as(b) || (a.defined() && b.defined() && structural_equal(a, b));
  }
  static bool same_operands(const std::vector<Expr>& a, const std::vector<Expr>& b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_operand(a[i], b[i])) {
        return false;
      }
    }
    return true;
  }

  /// Whether two calls compute the same value: the same callee, attributes (output type)
  /// and operands. Operands are compared one by one, the same node first: operands that
  /// are already shared cost O(1), where structural_equal on the whole calls would walk
  /// the shared operands again (quadratic on chains).
  static bool same_computation(const Expr& a, const Expr& b) {
    if (const auto* x = a.as<CallNode>()) {
      const auto* y = b.as<CallNode>();
      return y != nullptr && x->attrs == y->attrs && same_operand(x->op, y->op) &&
             same_operands(x->args, y->args);
    }
    const auto* x = a.as<CallDpsNode>();
    const auto* y = b.as<CallDpsNode>();
    return x != nullptr && y != nullptr && same_operand(x->func, y->func) &&
           same_operand(x->out_type, y->out_type) && same_operands(x->args, y->args);
  }

  void open_scope(const Expr& node, std::size_t index) {
    scopes_.push_back(log_.size());
    open_ids_.push_back(scope_of(node, index));
  }
  void close_scope() {
    const std::size_t start = scopes_.back();
    scopes_.pop_back();
    open_ids_.pop_back();
    while (log_.size() > start) {
      const LogEntry entry = log_.back();
      log_.pop_back();
      auto it = available_.find(entry.hash);
      it->second.pop_back();
      if (it->second.empty()) {
        available_.erase(it);
      }
    }
  }

  /// Makes `computation` available from scope `scope` on (the innermost open scope by
  /// default), until the innermost open scope closes.
  void add_available(const Expr& computation, const Expr& replacement, bool is_var,
                     std::int32_t scope = -1) {
    const std::uint64_t hash = hash_of(computation);
    available_[hash].push_back(
        {computation, replacement, scope < 0 ? open_ids_.back() : scope, is_var});
    log_.push_back({hash});
  }

  /// A hash that structurally equal nodes share. Calls, tuples and projections combine
  /// their operands' cached hashes, so a chain of nested calls is hashed in linear time
  /// (a StructuralKey would rehash each call's whole subtree); other nodes use
  /// structural_hash. Candidates are confirmed with same_computation.
  std::uint64_t hash_of(const Expr& e) {
    if (!e.defined()) {
      return 0;
    }
    if (auto it = hashes_.find(e.get()); it != hashes_.end()) {
      return it->second.second;
    }
    std::uint64_t hash = e->dynamic_type_index();
    if (const auto* call = e.as<CallNode>()) {
      hash = hash_combine(hash, hash_of(call->op));
      for (const Expr& arg : call->args) {
        hash = hash_combine(hash, hash_of(arg));
      }
    } else if (const auto* dps = e.as<CallDpsNode>()) {
      hash = hash_combine(hash, hash_of(dps->func));
      for (const Expr& arg : dps->args) {
        hash = hash_combine(hash, hash_of(arg));
      }
    } else if (const auto* tuple = e.as<TupleNode>()) {
      for (const Expr& field : tuple->fields) {
        hash = hash_combine(hash, hash_of(field));
      }
    } else if (const auto* item = e.as<TupleGetItemNode>()) {
      hash = hash_combine(hash_of(item->tuple), static_cast<std::uint64_t>(item->index));
    } else if (e.is<VarNode>()) {
      // A variable equals only itself (same_operand), and the structural hash of a free
      // variable is the same for all of them: calls on a chain of lets would all collide.
      hash = hash_combine(hash, static_cast<std::uint64_t>(std::hash<const Object*>{}(e.get())));
    } else {
      hash = structural_hash(e);
    }
    hashes_.emplace(e.get(), std::make_pair(ObjectRef(e), hash));
    return hash;
  }
};

} // namespace detail

CTIR_INLINE Function eliminate_common_subexpr(const Function& f) {
  return downcast<FunctionNode>(detail::CommonSubexprEliminator(f).rewrite(f));
}

CTIR_INLINE Function EliminateCommonSubexpr::transform_function(Function f, const IRModule&,
                                                                const PassContext&) const {
  return eliminate_common_subexpr(f);
}

} // namespace ctir::passes
