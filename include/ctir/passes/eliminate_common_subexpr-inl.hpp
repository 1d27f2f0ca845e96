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
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// The rewriting state of EliminateCommonSubexpr for one function.
///
/// Available computations live in one table with an undo log: a scope (a let's body, an
/// if's branch, a closure's body) records where its log starts and undoes its entries
/// when it ends, so lookups stay O(1) however deep scopes nest.
class CommonSubexprEliminator : public GraphRewriter<CommonSubexprEliminator> {
public:
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
      open_scope();
      const Expr& value = done[0];
      if (is_candidate(let->value) && value.is<VarNode>()) {
        // The value became an earlier binding's variable: the body uses that one.
        aliases_.emplace(let->var.get(), value);
      } else if (is_candidate(value)) {
        // Later equal computations in the body reuse the variable rather than the node.
        add_available(value, let->var, true);
      }
    } else if ((node.is<IfNode>() && index > 0) || node.is<FunctionNode>()) {
      open_scope();
      if (node.is<FunctionNode>()) {
        ++function_depth_;
      }
    }
  }

  void leave(const Expr& node, std::size_t index) {
    if ((node.is<LetNode>() && index == 1) || (node.is<IfNode>() && index > 0) ||
        node.is<FunctionNode>()) {
      close_scope();
      if (node.is<FunctionNode>()) {
        --function_depth_;
      }
    }
  }

  Expr post(const Expr& original, Expr rebuilt) {
    if (const auto* let = original.as<LetNode>()) {
      return aliases_.contains(let->var.get()) ? rebuilt.as<LetNode>()->body : rebuilt;
    }
    if (is_candidate(rebuilt)) {
      const std::uint64_t hash = hash_of(rebuilt);
      if (auto it = available_.find(hash); it != available_.end()) {
        for (std::size_t k = it->second.size(); k-- > 0;) {
          const Available& entry = it->second[k];
          // A node computed in an enclosing function is computed again in each call of
          // this closure; a variable is captured.
          const bool usable = entry.is_var || entry.function_depth == function_depth_;
          if (usable && same_computation(entry.computation, rebuilt)) {
            return entry.replacement;
          }
        }
      }
      add_available(rebuilt, rebuilt, false);
    }
    if (is_hashed_incrementally(rebuilt)) {
      static_cast<void>(hash_of(rebuilt));
    }
    return rebuilt;
  }

  const Expr* find_memo(const Object* node) const {
    auto it = memo_.find(node);
    return it == memo_.end() ? nullptr : &it->second;
  }
  void store_memo(const Object* node, Expr out) {
    if (memo_.emplace(node, std::move(out)).second) {
      log_.push_back({node, 0, false});
    }
  }

private:
  /// A computation available at this point, and what to use instead of recomputing it.
  struct Available {
    Expr computation;
    Expr replacement;
    std::size_t function_depth;
    bool is_var;
  };
  /// One undoable change: a memo entry, or an available computation under `hash`.
  struct LogEntry {
    const Object* memo_key;
    std::uint64_t hash;
    bool available;
  };

  /// Input nodes to what they became, in the scopes still open (a node shared by the two
  /// branches of an if is rewritten in each).
  std::unordered_map<const Object*, Expr> memo_;
  /// Available computations by structural hash, the innermost last.
  std::unordered_map<std::uint64_t, std::vector<Available>> available_;
  /// Let variables dropped because their value was computed already, to the variable
  /// that holds it.
  std::unordered_map<const VarNode*, Expr> aliases_;
  /// Structural hashes of rewritten nodes (kept alive), computed from their operands'.
  std::unordered_map<const Object*, std::pair<ObjectRef, std::uint64_t>> hashes_;
  std::vector<LogEntry> log_;
  std::vector<std::size_t> scopes_;
  std::size_t function_depth_ = 0;

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

  void open_scope() { scopes_.push_back(log_.size()); }
  void close_scope() {
    const std::size_t start = scopes_.back();
    scopes_.pop_back();
    while (log_.size() > start) {
      const LogEntry entry = log_.back();
      log_.pop_back();
      if (!entry.available) {
        memo_.erase(entry.memo_key);
        continue;
      }
      auto it = available_.find(entry.hash);
      it->second.pop_back();
      if (it->second.empty()) {
        available_.erase(it);
      }
    }
  }

  void add_available(const Expr& computation, const Expr& replacement, bool is_var) {
    const std::uint64_t hash = hash_of(computation);
    available_[hash].push_back({computation, replacement, function_depth_, is_var});
    log_.push_back({nullptr, hash, true});
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
    } else {
      hash = structural_hash(e);
    }
    hashes_.emplace(e.get(), std::make_pair(ObjectRef(e), hash));
    return hash;
  }
};

} // namespace detail

CTIR_INLINE Function eliminate_common_subexpr(const Function& f) {
  return downcast<FunctionNode>(detail::CommonSubexprEliminator().rewrite(f));
}

CTIR_INLINE Function EliminateCommonSubexpr::transform_function(Function f, const IRModule&,
                                                                const PassContext&) const {
  return eliminate_common_subexpr(f);
}

} // namespace ctir::passes
