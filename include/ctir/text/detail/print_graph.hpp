// Where the printer binds graph-level temporaries: use counts, scopes and binding order.
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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
  operand,   ///< a field that is not a block: an operand of a call, tuple, projection, if
  let_value, ///< the value of a let: printed inline when used only there
  let_body,  ///< the rest of the let's block
  block,     ///< the result of a block field (an if's branch, a closure's body): its own block
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
  /// For UseKind::block: which of the node's block fields, in field order (an if's else
  /// branch is block 1). 16 bits, as field indices are: an edge takes 16 bytes, and a
  /// printed function has about two per expression.
  std::uint16_t block = 0;
};
static_assert(sizeof(GraphEdge) <= 16);

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
  /// The block its let value and body (let), or its first block field (an if's first
  /// branch, a closure's body) is printed in; block field k is `inner + k`.
  std::int32_t inner = -1;
  /// The temporary's number in its function, assigned when its binding is printed.
  std::int32_t temp_number = -1;
};
static_assert(sizeof(GraphNodeInfo) <= 40);

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

/// What the graph plan does with one field of a node type.
struct GraphField {
  enum class Role : std::uint8_t {
    child, ///< an expression child: an edge of the plan
    name,  ///< printed by its node's syntax as a name (a variable it defines, a global):
           ///< only checked to be set
  };
  std::uint32_t field; ///< index in TypeInfo::fields
  Role role;
};

/// The fields of a node type the graph plan reads, from its field table: expression fields
/// that are not ignored, in order. A def_simple field (`let`'s variable) and a field that can
/// only hold a global (`call_dps`'s callee) are names; patterns (parameters), types and
/// plain values belong to the node's syntax and are not read.
std::vector<GraphField> graph_fields_of(const TypeInfo& type);

/// Calls f(child, use_kind, block) for the expression children of a non-atomic node, in
/// field order; `fields` is graph_fields_of(node.type_info()). Block fields (FieldInfo::
/// is_block) are numbered in order; a let's other two children are its value and body.
/// Throws NodeError for a null child or name.
template <class F>
void for_each_graph_child(const Object& node, GraphKind kind, const std::vector<GraphField>& fields,
                          F&& f) {
  const std::span<const FieldInfo> infos = node.type_info().fields;
  std::uint32_t blocks = 0;
  std::uint32_t operands = 0;
  for (const GraphField& entry : fields) {
    const FieldInfo& field = infos[entry.field];
    UseKind use = UseKind::operand;
    if (field.is_block()) {
      use = UseKind::block;
    } else if (kind == GraphKind::let && entry.role == GraphField::Role::child) {
      use = operands++ == 0 ? UseKind::let_value : UseKind::let_body;
    }
    const auto child = [&](const Object* value, std::size_t index) {
      if (value == nullptr) {
        throw_null_field(node, index == static_cast<std::size_t>(-1)
                                   ? std::string(field.name)
                                   : std::string(field.name) + '[' + std::to_string(index) + ']');
      }
      if (entry.role == GraphField::Role::child) {
        f(value, use, blocks);
      }
    };
    if (field.kind == FieldKind::node) {
      child(field.get(node, field), static_cast<std::size_t>(-1));
    } else {
      const std::size_t size = field.size(node, field);
      for (std::size_t i = 0; i < size; ++i) {
        child(field.at(node, field, i), i);
      }
    }
    blocks += use == UseKind::block ? 1U : 0U;
  }
}

/// The number of block fields of a node type (the blocks a node of it opens).
std::uint32_t graph_block_count(const TypeInfo& type, const std::vector<GraphField>& fields);

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
  /// Plans the printing of `root` as the result of block 0; `kind_of` says how each
  /// expression prints (graph_kind: the text format's syntax).
  void build(const Object& root, GraphKind (*kind_of)(const Object&) = &graph_kind);

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

  /// What the plan reads of a node type: its graph fields and its number of blocks.
  struct GraphType {
    const TypeInfo* type;
    std::vector<GraphField> fields;
    std::uint32_t blocks;
  };
  /// The graph fields of `type`, computed once per type and build.
  const GraphType& type_of(const TypeInfo& type);

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

  GraphKind (*kind_of_)(const Object&) = &graph_kind;
  /// Node address -> plan index + 1, used only while counting uses.
  PointerMap<std::uint32_t> index_;
  std::vector<GraphNodeInfo> nodes_;
  std::vector<GraphEdge> edges_;
  std::vector<GraphBlock> blocks_;
  /// The node types met (a printed function has a handful: a scan finds them).
  std::vector<GraphType> types_;
};

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/print_graph-inl.hpp>
#endif
