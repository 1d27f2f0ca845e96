// Definitions of <ctir/passes/eliminate_common_subexpr.hpp>.
#pragma once

#include <ctir/passes/eliminate_common_subexpr.hpp>

#include <ctir/core/detail/flat_map.hpp>
#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/hooks/value_traits.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/passes/detail/graph_utils.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>
#include <ctir/traverse/walk.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// The blocks of one graph-level function for EliminateCommonSubexpr, and the block each
/// computation belongs to.
///
/// The blocks are the function's body, each let's body, each branch of an if and each
/// closure's body. A computation belongs to the innermost block that contains all its uses
/// (their lowest common ancestor): a node shared by both branches of an if belongs to the
/// block around the if. What a computation may reuse depends on its block only, so its
/// one rewrite is valid at each of its uses. Blocks are found top-down over the DAG (every
/// user before what it uses), without recursion.
class CseBlocks {
public:
  explicit CseBlocks(const Function& f) {
    blocks_.push_back({none, 0, 0});
    // A dataflow graph without lets, ifs or closures (what frontends and the text
    // format's dataflow names produce) is one block: nothing to place, no table per node.
    nested_ = walk(f->body, on<LetNode, IfNode, FunctionNode>(
                                [](const Expr&) -> WalkResult<bool> { return interrupt(true); }))
                  .has_value();
    if (!nested_) {
      number();
      return;
    }
    std::vector<Expr> order;
    walk(f, excluding<PrimExpr>([&](const Expr& e) {
           if (is_composite(e)) {
             order.push_back(e);
           }
         }));
    *block_of_.try_emplace(f.get()).first = 0;
    std::vector<Expr> kids; // one buffer for every node's operands
    for (std::size_t k = order.size(); k-- > 0;) {
      const Expr& node = order[k];
      const std::size_t block = block_of_.at(node.get());
      kids.clear();
      append_operands(node, kids);
      for (std::size_t i = 0; i < kids.size(); ++i) {
        std::size_t use = block;
        if (node.is<FunctionNode>()) {
          use = add_block(block, true);
        } else if ((node.is<LetNode>() && i == 1) || (node.is<IfNode>() && i > 0)) {
          use = add_block(block, false);
        }
        if (node.is<LetNode>() && i == 1) {
          *let_body_.try_emplace(node.get()).first = use;
        }
        if (!kids[i].defined() || !is_composite(kids[i])) {
          continue;
        }
        auto [kid_block, first] = block_of_.try_emplace(kids[i].get());
        *kid_block = first ? use : common_ancestor(blocks_, *kid_block, use);
      }
    }
    number();
  }

  /// Whether the function has blocks besides its body (a let, an if or a closure).
  bool nested() const noexcept { return nested_; }
  /// The block of a composite node of the function.
  std::size_t block_of(const Object* node) const { return nested_ ? block_of_.at(node) : 0; }
  /// The block of a let's body.
  std::size_t let_body(const Object* let) const { return let_body_.at(let); }
  /// How many closures (the function counts) enclose a block.
  std::size_t function_depth(std::size_t block) const { return blocks_[block].function_depth; }
  /// Whether block `inner` is `outer` or nested in it.
  bool within(std::size_t inner, std::size_t outer) const {
    return blocks_[outer].first <= blocks_[inner].first &&
           blocks_[inner].first <= blocks_[outer].last;
  }

private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  struct Block {
    std::size_t parent;
    std::size_t depth;
    std::size_t function_depth;
    /// Pre-order numbers of the block and of the last block nested in it.
    std::size_t first = 0;
    std::size_t last = 0;
  };

  std::vector<Block> blocks_;
  bool nested_ = false;
  ctir::detail::PointerMap<std::size_t> block_of_;
  ctir::detail::PointerMap<std::size_t> let_body_;

  std::size_t add_block(std::size_t parent, bool closure) {
    const Block& outer = blocks_[parent];
    blocks_.push_back({parent, outer.depth + 1, outer.function_depth + (closure ? 1 : 0)});
    return blocks_.size() - 1;
  }

  /// Numbers the blocks in pre-order, so that nesting is a range test.
  void number() {
    std::vector<std::size_t> start(blocks_.size() + 1, 0);
    for (std::size_t b = 1; b < blocks_.size(); ++b) {
      ++start[blocks_[b].parent + 1];
    }
    for (std::size_t b = 1; b < start.size(); ++b) {
      start[b] += start[b - 1];
    }
    std::vector<std::size_t> children(blocks_.size());
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t b = 1; b < blocks_.size(); ++b) {
      children[fill[blocks_[b].parent]++] = b;
    }
    std::size_t next = 0;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{0, start[0]}};
    blocks_[0].first = next++;
    while (!stack.empty()) {
      auto& [block, child] = stack.back();
      if (child < start[block + 1]) {
        const std::size_t inner = children[child++];
        blocks_[inner].first = next++;
        stack.emplace_back(inner, start[inner]);
        continue;
      }
      blocks_[block].last = next - 1;
      stack.pop_back();
    }
  }
};

/// The rewriting state of EliminateCommonSubexpr for one function.
///
/// One post-order map rewrites every node once (a shared node's rewrite is shared by its
/// uses). Available computations live in one table by structural hash; an entry may
/// replace a later computation when the entry's block encloses that computation's block.
/// A let's value is mapped before its body: the callback producing the value's result
/// makes the let's variable available in the body (or an alias of an earlier variable).
class CommonSubexprEliminator {
public:
  explicit CommonSubexprEliminator(const Function& f) : blocks_(f) {
    if (!blocks_.nested()) {
      return; // no lets
    }
    walk(f, [this](const Let& let) {
      if (let->value.defined()) {
        value_vars_.insert(let->value.get(), LetValue{let->var, blocks_.let_body(let.get())});
      }
    });
  }

  Function run(const Function& f) {
    // Types are not entered: no let-bound variable is used in one, and a typed closure's
    // type holds the types of all the closures it returns.
    return map(f, not_into<Type>(callbacks(
                      with_def_region_kind([this](const Var& var, DefRegionKind kind) -> Expr {
                        if (kind == DefRegionKind::none) {
                          if (const Expr* alias = aliases_.find(var.get())) {
                            return *alias;
                          }
                        }
                        return var;
                      }),
                      [this](const Mapped<Let>& let) -> Expr {
                        const Expr out = aliases_.contains(let.original()->var.get())
                                             ? let[&LetNode::body]
                                             : Expr(let.node());
                        return settle(*let.original(), out);
                      },
                      [this](const Mapped<Call>& call) -> Expr {
                        return settle(*call.original(), share(*call.original(), call.node()));
                      },
                      [this](const Mapped<CallDps>& call) -> Expr {
                        return settle(*call.original(), share(*call.original(), call.node()));
                      },
                      [this](const Mapped<Tuple>& tuple) -> Expr {
                        // Hashed now, from the operands' hashes, so that hashing never recurses
                        // deeply.
                        static_cast<void>(hash_of(tuple.node()));
                        return tuple.node();
                      },
                      [this](const Mapped<TupleGetItem>& item) -> Expr {
                        static_cast<void>(hash_of(item.node()));
                        return item.node();
                      })));
  }

private:
  static constexpr std::size_t no_entry = static_cast<std::size_t>(-1);
  /// A computation available from some block on, and what to use instead of recomputing it.
  struct Available {
    Expr computation;
    Expr replacement;
    std::size_t block;
    bool is_var;
    std::size_t previous = no_entry;
  };
  /// The variable of a let and the block of its body.
  struct LetValue {
    Var var;
    std::size_t body;
  };

  CseBlocks blocks_;
  /// The values of the function's lets (input nodes) and the lets' variables.
  ctir::detail::PointerMultiMap<LetValue> value_vars_;
  /// Available computations in the order they were met; `previous` chains the entries
  /// of one hash, newest first, from `newest_` (one flat vector, no vector per hash).
  std::vector<Available> available_;
  ctir::detail::FlatMap<std::uint64_t, std::size_t> newest_;
  /// Let variables dropped because their value was computed already, to the variable
  /// that holds it.
  ctir::detail::PointerMap<Expr> aliases_;
  /// Structural hashes of rewritten nodes (kept alive), computed from their operands'.
  ctir::detail::PointerMap<std::pair<ObjectRef, std::uint64_t>> hashes_;

  /// The rewrite of candidate `original` (`rebuilt`: with its operands rewritten): an
  /// earlier equal computation usable in its block, else itself, made available.
  Expr share(const ExprNode& original, const Expr& rebuilt) {
    const std::size_t block = blocks_.block_of(&original);
    const std::uint64_t hash = hash_of(rebuilt);
    if (const std::size_t* newest = newest_.find(table_key(hash))) {
      for (std::size_t k = *newest; k != no_entry; k = available_[k].previous) {
        const Available& entry = available_[k];
        // A node computed in an enclosing function is computed again in each call of
        // this closure; a variable is captured.
        const bool usable =
            blocks_.within(block, entry.block) &&
            (entry.is_var || blocks_.function_depth(entry.block) == blocks_.function_depth(block));
        if (usable && same_computation(entry.computation, rebuilt)) {
          return entry.replacement;
        }
      }
    }
    make_available({rebuilt, rebuilt, block, false}, hash);
    return rebuilt;
  }

  /// The key of `hash` in newest_, where 0 marks an empty slot: a hash of 0 shares the key
  /// of 1 (entries are confirmed with same_computation).
  static std::uint64_t table_key(std::uint64_t hash) noexcept { return hash == 0 ? 1 : hash; }

  /// Makes `entry` the newest available computation of its hash.
  void make_available(Available entry, std::uint64_t hash) {
    if (std::size_t* newest = newest_.find(table_key(hash))) {
      entry.previous = *newest;
      *newest = available_.size();
    } else {
      entry.previous = no_entry;
      newest_.insert_new(table_key(hash), available_.size());
    }
    available_.push_back(std::move(entry));
  }

  /// `out`, the result of input node `original`; when that node is a let's value, the
  /// let's variable becomes an alias of the variable the value became, or stands for the
  /// computation in the let's body.
  Expr settle(const ExprNode& original, Expr out) {
    value_vars_.for_each(&original, [&](const LetValue& let) {
      if (is_candidate(original) && out.is<VarNode>()) {
        aliases_.try_emplace(let.var.get(), out);
      } else if (is_candidate(*out)) {
        make_available({out, let.var, let.body, true}, hash_of(out));
      }
    });
    return out;
  }

  /// Calls and call_dps: the computations this pass shares.
  static bool is_candidate(const Object& e) {
    return e.dynamic_type_index() == CallNode::type_index ||
           e.dynamic_type_index() == CallDpsNode::type_index;
  }

  /// Whether operands are equal: the same node, or structurally equal. Each call has an
  /// operator node of its own, whose only compared field is its name: compared here
  /// without the structural engine.
  static bool same_operand(const ObjectRef& a, const ObjectRef& b) {
    if (a.same_as(b)) {
      return true;
    }
    if (!a.defined() || !b.defined()) {
      return false;
    }
    const auto* op_a = a.as<OpNode>();
    const auto* op_b = b.as<OpNode>();
    if (op_a != nullptr || op_b != nullptr) {
      return op_a != nullptr && op_b != nullptr && op_a->name == op_b->name;
    }
    return structural_equal(a, b);
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

  /// A hash that structurally equal nodes share. Calls, tuples and projections combine
  /// their operands' cached hashes, so a chain of nested calls is hashed in linear time
  /// (a StructuralKey would rehash each call's whole subtree); other nodes use
  /// structural_hash. Candidates are confirmed with same_computation.
  std::uint64_t hash_of(const Expr& e) {
    if (!e.defined()) {
      return 0;
    }
    if (const auto* op = e.as<OpNode>()) {
      // One operator node per call: hashed by name (as equality compares them, above),
      // not entered in the table.
      return hash_combine(OpNode::type_index, hash_bytes(op->name));
    }
    if (const auto* known = hashes_.find(e.get())) {
      return known->second;
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
    *hashes_.try_emplace(e.get()).first = std::make_pair(ObjectRef(e), hash);
    return hash;
  }
};

} // namespace detail

CTIR_INLINE Function eliminate_common_subexpr(const Function& f) {
  return detail::CommonSubexprEliminator(f).run(f);
}

CTIR_INLINE Function EliminateCommonSubexpr::transform_function(Function f, const IRModule&,
                                                                const PassContext&) const {
  return eliminate_common_subexpr(f);
}

} // namespace ctir::passes
