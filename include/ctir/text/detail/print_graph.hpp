// Where the printer binds graph-level temporaries: use counts, scopes and binding order.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/text/detail/print_map.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

/// What a graph-level expression is, for printing.
enum class GraphKind : std::uint8_t {
  atom,     ///< printed in place at every use: variables, globals, literals, constants, `%t.0.1`
  call,     ///< `op(args)`, `@f(args)`, `%f(args)`
  tuple,    ///< `(a, b)`
  get_item, ///< `%0.1`: a projection of something that is not (a projection of) a variable
  let,      ///< `let %v = value; body`
  if_,      ///< `if (c) { ... } else { ... }`
  function, ///< a closure `fn (...) { ... }`
  call_dps, ///< `call_dps @f(args) -> T`
};

/// How a parent uses a child expression.
enum class UseKind : std::uint8_t {
  operand,   ///< an operand of a call, tuple, projection or if condition
  let_value, ///< the value of a let: printed inline when used only there
  let_body,  ///< the rest of the let's block
  then_body, ///< the result of an if's first branch (a block of its own)
  else_body, ///< the result of an if's second branch (a block of its own)
  fn_body,   ///< the result of a closure's body (a block of its own)
  root,      ///< the result of the printed function or expression
};

/// How a non-atomic expression is printed.
enum class GraphMode : std::uint8_t {
  temp,         ///< bound once as `%N = ...;`, referred to as `%N`
  inline_,      ///< printed where its only use is (a let's value or a block's result)
  unrolled_let, ///< a let that continues its block: `let %v = ...;` then its body
};

/// Marks an atom where a plan index is expected: atoms are not planned.
inline constexpr std::uint32_t atom_index = 0xFFFFFFFFU;

/// One use of a child expression by a planned node, in printing order.
struct GraphEdge {
  const Object* node;
  std::uint32_t index; ///< the child's plan index, or atom_index
  UseKind use;
};

/// What the printer knows about one non-atomic expression of the printed function.
struct GraphNodeInfo {
  const Object* node = nullptr;
  std::uint32_t uses = 0;
  std::uint32_t pending = 0;
  /// The node's uses of its children: edges [edge_begin, edge_end) of the plan.
  std::uint32_t edge_begin = 0;
  std::uint32_t edge_end = 0;
  UseKind first_use = UseKind::operand;
  GraphKind kind = GraphKind::call;
  GraphMode mode = GraphMode::temp;
  bool scheduled = false;
  /// The block the expression is printed in (for a temporary: the innermost block
  /// enclosing every use).
  std::int32_t home = -1;
  /// The block its let value and body (let), first branch (if) or body (closure) are
  /// printed in; an if's second branch is `inner + 1`.
  std::int32_t inner = -1;
  /// The temporary's number, assigned when its binding is printed.
  std::int64_t temp_number = -1;
};

/// One line of a block: a temporary's binding, a `let`, or the block's result.
struct GraphItem {
  enum class Kind : std::uint8_t { temp, let, result };
  Kind kind;
  const Object* node;
  std::uint32_t index; ///< plan index of the node (atom_index for an atomic result)
  /// Where a let item starts in the output (its range ends with the block's result).
  std::size_t begin = 0;
};

/// A `{ ... }` scope: a function body, an if branch, a closure body or a block-valued let.
struct GraphBlock {
  std::int32_t parent = -1;
  std::uint32_t depth = 0;
  std::vector<GraphItem> items;
};

/// The variable at the bottom of a chain of projections (`%t.0.1` projects `%t`), or
/// null if the chain does not end in a variable. A projection of an atomic expression
/// is atomic, and the only atomic expressions that project are variables.
const VarNode* projected_var(const Object& node);

/// The kind of a graph-level expression; throws NodeError for a node the text format
/// cannot show as a graph-level expression.
GraphKind graph_kind(const Object& node);

/// Throws a NodeError naming the null field `field` of `node`.
[[noreturn]] void throw_null_field(const Object& node, const std::string& field);

/// Calls f(child, use_kind) for the expression children of a non-atomic node, in
/// printing order.
template <class F>
void for_each_graph_child(const Object& node, GraphKind kind, F&& f) {
  auto child = [&](const auto& ref, UseKind use, std::string_view field,
                   std::size_t index = static_cast<std::size_t>(-1)) {
    if (!ref.defined()) {
      throw_null_field(node, index == static_cast<std::size_t>(-1)
                                 ? std::string(field)
                                 : std::string(field) + '[' + std::to_string(index) + ']');
    }
    f(static_cast<const Object*>(ref.get()), use);
  };
  switch (kind) {
  case GraphKind::call: {
    const auto& call = static_cast<const CallNode&>(node);
    child(call.op, UseKind::operand, "op");
    for (std::size_t i = 0; i < call.args.size(); ++i) {
      child(call.args[i], UseKind::operand, "args", i);
    }
    break;
  }
  case GraphKind::tuple: {
    const auto& fields = static_cast<const TupleNode&>(node).fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      child(fields[i], UseKind::operand, "fields", i);
    }
    break;
  }
  case GraphKind::get_item:
    child(static_cast<const TupleGetItemNode&>(node).tuple, UseKind::operand, "tuple");
    break;
  case GraphKind::let: {
    const auto& let = static_cast<const LetNode&>(node);
    if (!let.var.defined()) {
      throw_null_field(node, "var");
    }
    child(let.value, UseKind::let_value, "value");
    child(let.body, UseKind::let_body, "body");
    break;
  }
  case GraphKind::if_: {
    const auto& branch = static_cast<const IfNode&>(node);
    child(branch.cond, UseKind::operand, "cond");
    child(branch.then_branch, UseKind::then_body, "then_branch");
    child(branch.else_branch, UseKind::else_body, "else_branch");
    break;
  }
  case GraphKind::function:
    child(static_cast<const FunctionNode&>(node).body, UseKind::fn_body, "body");
    break;
  case GraphKind::call_dps: {
    const auto& call = static_cast<const CallDpsNode&>(node);
    if (!call.func.defined()) {
      throw_null_field(node, "func");
    }
    for (std::size_t i = 0; i < call.args.size(); ++i) {
      child(call.args[i], UseKind::operand, "args", i);
    }
    break;
  }
  case GraphKind::atom:
    break;
  }
}

/// The printing plan of one graph-level function (or expression): which expressions
/// are temporaries, which block each is bound in, and the order of every block's lines.
///
/// Canonical form: a non-atomic expression is printed inline when its only use is a
/// let's value or a block's result, and is otherwise a temporary, bound once in the
/// innermost block that encloses all its uses, before the first line of that block
/// that uses it (dependencies first). Built in three iterative passes, each linear in
/// the number of distinct expressions: count uses (the only pass that looks nodes up
/// by address; it numbers them and records their edges), place nodes in blocks
/// (parents before children), then order each block's lines in printing order.
class GraphPlan {
public:
  /// Plans the printing of `root` as the result of block 0.
  void build(const Object& root);

  GraphNodeInfo& info(std::uint32_t index) { return nodes_[index]; }
  /// The children of node `index`, in printing order.
  const GraphEdge* edges_begin(std::uint32_t index) const {
    return edges_.data() + nodes_[index].edge_begin;
  }
  std::size_t edge_count(std::uint32_t index) const {
    return nodes_[index].edge_end - nodes_[index].edge_begin;
  }
  GraphBlock& block(std::int32_t id) { return blocks_[static_cast<std::size_t>(id)]; }

private:
  std::uint32_t add_node(const Object* node, GraphKind kind, UseKind use);

  /// Pass 1: every distinct non-atomic expression (numbered in discovery order, the
  /// root first), its edges, its number of uses and the kind of its first use.
  void count_uses(const Object& root);

  std::int32_t new_block(std::int32_t parent);

  std::int32_t common_block(std::int32_t a, std::int32_t b) const;

  /// Pass 2: the home block of every expression, parents before children (a node is
  /// placed when its last use has been placed), and the blocks each node opens.
  void place();

  /// Pass 3: the lines of every block, in printing order (a depth-first walk of the
  /// printed text that appends a line to its block when the line is complete, so a
  /// temporary's binding lands before the line that first uses it).
  void order(const Object& root);

  /// Node address -> plan index + 1, used only while counting uses.
  PointerMap<std::uint32_t> index_;
  std::vector<GraphNodeInfo> nodes_;
  std::vector<GraphEdge> edges_;
  std::vector<GraphBlock> blocks_;
};

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/print_graph-inl.hpp>
#endif
