// Definitions of the print engine (<ctir/text/detail/print_engine-inl.hpp>).
// The tensor level and types: scalar expressions by precedence, statements.
#pragma once

#include <ctir/text/detail/print_engine.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/text/detail/print_literal.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// Precedence of unary `-` and `!`: above every binary operator.
inline constexpr int unary_precedence = 12;
/// Precedence of literals, variables, loads and call-like forms: never parenthesized.
inline constexpr int atom_precedence = 100;

/// A binary node seen through its operator.
struct BinaryView {
  std::string_view symbol;
  int precedence = 0; ///< 0: printed as a call, `min(a, b)`
  const PrimExprNode* a = nullptr;
  const PrimExprNode* b = nullptr;
};

template <BinaryOp... Ops>
bool view_binary_of(const Object& node, BinaryView& view) {
  const std::uint32_t index = node.dynamic_type_index();
  return ((index == BinaryNode<Ops>::type_index
               ? (view = {BinaryNode<Ops>::symbol, BinaryNode<Ops>::precedence,
                          static_cast<const BinaryNode<Ops>&>(node).a.get(),
                          static_cast<const BinaryNode<Ops>&>(node).b.get()},
                  true)
               : false) ||
          ...);
}

/// Whether `node` is one of the binary nodes; fills `view` if so.
CTIR_INLINE bool view_binary(const Object& node, BinaryView& view) {
  using enum BinaryOp;
  return view_binary_of<add, sub, mul, div, mod, min, max, eq, ne, lt, le, gt, ge, logical_and,
                        logical_or>(node, view);
}

/// The precedence an operand prints with.
CTIR_INLINE int precedence_of(const Object& node) {
  switch (node.dynamic_type_index()) {
  case NegNode::type_index:
  case NotNode::type_index:
    return unary_precedence;
  default:
    break;
  }
  BinaryView view;
  if (view_binary(node, view) && view.precedence != 0) {
    return view.precedence;
  }
  return atom_precedence;
}

CTIR_INLINE void Printer::type(const Object& node) {
  const std::size_t begin = out_.size();
  switch (node.dynamic_type_index()) {
  case PrimTypeNode::type_index:
    emit_dtype(static_cast<const PrimTypeNode&>(node).dtype, &node);
    record(&node, begin);
    return;
  case TensorTypeNode::type_index: {
    const auto& tensor = static_cast<const TensorTypeNode&>(node);
    out_ += "Tensor[(";
    push(Step::end_range, &node, 0, begin);
    push_text("]");
    push(Step::dtype, &node, pack(tensor.dtype));
    push_text("), ");
    for (std::size_t i = tensor.shape.size(); i-- > 0;) {
      if (!tensor.shape[i].defined()) {
        throw_null_field(node, "shape[" + std::to_string(i) + "]");
      }
      push(Step::prim_expr, tensor.shape[i].get(), 0, 0, prim_fixed);
      if (i > 0) {
        push_text(", ");
      }
    }
    return;
  }
  case TupleTypeNode::type_index:
    out_ += "Tuple[";
    push(Step::end_range, &node, 0, begin);
    push_text("]");
    push_list(Step::type, static_cast<const TupleTypeNode&>(node).fields, node, "fields");
    return;
  case FuncTypeNode::type_index: {
    const auto& func = static_cast<const FuncTypeNode&>(node);
    out_ += "fn (";
    push(Step::end_range, &node, 0, begin);
    if (func.ret.defined()) {
      push(Step::type, func.ret.get());
      push_text(" -> ");
    }
    push_text(")");
    push_list(Step::type, func.params, node, "params");
    return;
  }
  default:
    throw NodeError(ref_of(&node), "ctir: the text format has no syntax for the type " +
                                       std::string(node.dynamic_type_key()));
  }
}

CTIR_INLINE void Printer::push_operand(const Object& owner, const Object* operand,
                                       std::string_view field, bool parens, std::size_t depth) {
  if (operand == nullptr) {
    throw_null_field(owner, std::string(field));
  }
  push(Step::prim_expr, operand, parens ? 1U : 0U, parens ? depth + 1 : depth);
}

[[gnu::noinline]] CTIR_INLINE bool Printer::emit_temp_use(const Object& node) {
  const std::uint32_t* temp = prim_temps_.find(&node);
  if (temp == nullptr) {
    return false;
  }
  const std::size_t at = out_.size();
  out_ += '%';
  out_ += std::to_string(*temp - 1);
  record(&node, at);
  return true;
}

CTIR_INLINE void Printer::binary_rest(const Object& node, std::size_t begin, std::size_t depth,
                                      std::uint8_t flags) {
  BinaryView view;
  view_binary(node, view);
  out_ += ' ';
  out_ += view.symbol;
  out_ += ' ';
  push(Step::end_range, &node, 0, begin);
  push_operand(node, view.b, "b", precedence_of(*view.b) <= view.precedence && !is_temp(*view.b),
               depth);
  stack_.back().flag = flags;
}

CTIR_INLINE void Printer::prim_expr(const Object& node, bool parens, std::size_t depth,
                                    std::uint8_t flags) {
  if (depth > max_printed_expr_depth && (flags & prim_fixed) == 0 && stmt_.node != nullptr &&
      !stmt_.planned) {
    restart_with_temps();
    return;
  }
  if (prim_temps_.size() != 0 && (flags & prim_define) == 0 && emit_temp_use(node)) {
    return;
  }
  // Below a type, no operand is ever bound; elsewhere the depth counts from here.
  const std::uint8_t inner = flags & prim_fixed;
  if (parens) {
    out_ += '(';
    push_text(")");
  }
  const std::size_t begin = out_.size();
  switch (node.dynamic_type_index()) {
  case VarNode::type_index:
    emit_var(&static_cast<const VarNode&>(node));
    return;
  case IntImmNode::type_index: {
    const auto& imm = static_cast<const IntImmNode&>(node);
    if (imm.dtype.is_float() || !append_int_literal(out_, imm.value, imm.dtype)) {
      throw NodeError(ref_of(&node), "ctir: cannot print an IntImm of dtype " + imm.dtype.str());
    }
    record(&node, begin);
    return;
  }
  case FloatImmNode::type_index: {
    const auto& imm = static_cast<const FloatImmNode&>(node);
    if (!append_float_literal(out_, imm.value, imm.dtype)) {
      throw NodeError(ref_of(&node), "ctir: cannot print a FloatImm of dtype " + imm.dtype.str());
    }
    record(&node, begin);
    return;
  }
  case NegNode::type_index:
  case NotNode::type_index: {
    const bool neg = node.dynamic_type_index() == NegNode::type_index;
    const PrimExprNode* a =
        neg ? static_cast<const NegNode&>(node).a.get() : static_cast<const NotNode&>(node).a.get();
    // A run of prefixes prints as one (`- -%a`, `!!%p`), never as nested parentheses: the
    // parser reads a run in a loop, so it costs no nesting however long it is. A space
    // keeps `- 3` and `- -3` apart from the literals -3 and --3.
    const bool literal = a != nullptr && (a->dynamic_type_index() == FloatImmNode::type_index ||
                                          (a->dynamic_type_index() == IntImmNode::type_index &&
                                           !static_cast<const IntImmNode*>(a)->dtype.is_bool()));
    out_ += neg ? '-' : '!';
    if (neg && (literal || (a != nullptr && a->dynamic_type_index() == NegNode::type_index))) {
      out_ += ' ';
    }
    push(Step::end_range, &node, 0, begin);
    push_operand(node, a, "a", a != nullptr && precedence_of(*a) < unary_precedence && !is_temp(*a),
                 depth);
    stack_.back().flag = inner;
    return;
  }
  case SelectNode::type_index: {
    const auto& select = static_cast<const SelectNode&>(node);
    out_ += "select(";
    push(Step::end_range, &node, 0, begin);
    push_text(")");
    push_operand(node, select.false_value.get(), "false_value", false, depth + 1);
    stack_.back().flag = inner;
    push_text(", ");
    push_operand(node, select.true_value.get(), "true_value", false, depth + 1);
    stack_.back().flag = inner;
    push_text(", ");
    push_operand(node, select.cond.get(), "cond", false, depth + 1);
    stack_.back().flag = inner;
    return;
  }
  case CastNode::type_index: {
    const auto& cast = static_cast<const CastNode&>(node);
    out_ += "cast<";
    emit_dtype(cast.dtype, &node);
    out_ += ">(";
    push(Step::end_range, &node, 0, begin);
    push_text(")");
    push_operand(node, cast.value.get(), "value", false, depth + 1);
    stack_.back().flag = inner;
    return;
  }
  case TensorLoadNode::type_index: {
    const auto& load = static_cast<const TensorLoadNode&>(node);
    if (!load.source.defined()) {
      throw_null_field(node, "source");
    }
    emit_var(load.source.get());
    out_ += '[';
    push(Step::end_range, &node, 0, begin);
    push_text("]");
    push_list(Step::prim_expr, load.indices, node, "indices", depth + 1, inner);
    return;
  }
  default:
    break;
  }
  BinaryView view;
  if (!view_binary(node, view)) {
    throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                       std::string(node.dynamic_type_key()));
  }
  if (view.b == nullptr) {
    throw_null_field(node, "b");
  }
  if (view.precedence == 0) {
    out_ += view.symbol;
    out_ += '(';
    push(Step::end_range, &node, 0, begin);
    push_text(")");
    push_operand(node, view.b, "b", false, depth + 1);
    stack_.back().flag = inner;
    push_text(", ");
    push_operand(node, view.a, "a", false, depth + 1);
    stack_.back().flag = inner;
    return;
  }
  // Left associative: an operand of equal precedence needs parentheses only on the right.
  push(Step::binary_rest, &node, static_cast<std::uint32_t>(depth), begin, inner);
  push_operand(node, view.a, "a",
               view.a != nullptr && precedence_of(*view.a) < view.precedence && !is_temp(*view.a),
               depth);
  stack_.back().flag = inner;
}

CTIR_INLINE void Printer::restart_with_temps() {
  out_.resize(stmt_.text);
  if (record_) {
    records_.resize(stmt_.records);
  }
  stack_.resize(stmt_.stack);
  stmt_.planned = true;
  plan_prim_temps(*stmt_.node);
  // Each temporary on a line of its own before the statement, inner ones first.
  push(Step::stmt, stmt_.node, 0, 0, 1);
  for (std::size_t k = temp_order_.size(); k-- > 0;) {
    push(Step::newline);
    push(Step::prim_temp, temp_order_[k], *prim_temps_.find(temp_order_[k]) - 1);
  }
}

CTIR_INLINE void Printer::plan_prim_temps(const Object& stmt) {
  std::vector<const Object*> roots;
  switch (stmt.dynamic_type_index()) {
  case ForNode::type_index:
    roots = {static_cast<const ForNode&>(stmt).begin.get(),
             static_cast<const ForNode&>(stmt).end.get()};
    break;
  case TensorStoreNode::type_index:
    for (const PrimExpr& index : static_cast<const TensorStoreNode&>(stmt).indices) {
      roots.push_back(index.get());
    }
    roots.push_back(static_cast<const TensorStoreNode&>(stmt).value.get());
    break;
  case BindNode::type_index:
    roots = {static_cast<const BindNode&>(stmt).value.get()};
    break;
  case IfThenElseNode::type_index:
    roots = {static_cast<const IfThenElseNode&>(stmt).cond.get()};
    break;
  default:
    break;
  }
  prim_temps_.clear();
  temp_order_.clear();
  // The nesting each node adds in the text below it, as the printer writes it, computed
  // after its operands (a post-order walk on an explicit stack); a node reaching the
  // limit becomes a temporary, which nests nothing where it is used.
  PointerMap<std::size_t> depth;
  struct Item {
    const Object* node;
    bool expanded;
  };
  std::vector<Item> work;
  for (const Object* root : roots) {
    if (root != nullptr) {
      work.push_back({root, false});
    }
  }
  std::vector<std::pair<const Object*, std::size_t>> operands; // operand, extra nesting
  const auto operands_of = [&](const Object& node) {
    operands.clear();
    const auto add = [&](const Object* operand, bool nested) {
      if (operand != nullptr) {
        operands.emplace_back(operand, nested ? 1 : 0);
      }
    };
    switch (node.dynamic_type_index()) {
    case NegNode::type_index:
    case NotNode::type_index: {
      const PrimExprNode* a = node.dynamic_type_index() == NegNode::type_index
                                  ? static_cast<const NegNode&>(node).a.get()
                                  : static_cast<const NotNode&>(node).a.get();
      add(a, a != nullptr && precedence_of(*a) < unary_precedence && !is_temp(*a));
      return;
    }
    case SelectNode::type_index: {
      const auto& select = static_cast<const SelectNode&>(node);
      add(select.cond.get(), true);
      add(select.true_value.get(), true);
      add(select.false_value.get(), true);
      return;
    }
    case CastNode::type_index:
      add(static_cast<const CastNode&>(node).value.get(), true);
      return;
    case TensorLoadNode::type_index:
      for (const PrimExpr& index : static_cast<const TensorLoadNode&>(node).indices) {
        add(index.get(), true);
      }
      return;
    default:
      break;
    }
    BinaryView view;
    if (view_binary(node, view)) {
      const bool call = view.precedence == 0;
      add(view.a, call || (view.a != nullptr && precedence_of(*view.a) < view.precedence &&
                           !is_temp(*view.a)));
      add(view.b, call || (view.b != nullptr && precedence_of(*view.b) <= view.precedence &&
                           !is_temp(*view.b)));
    }
  };
  while (!work.empty()) {
    const Item item = work.back();
    if (depth.contains(item.node)) {
      work.pop_back();
      continue;
    }
    operands_of(*item.node);
    if (!item.expanded) {
      work.back().expanded = true;
      for (const auto& [operand, nested] : operands) {
        if (!depth.contains(operand)) {
          work.push_back({operand, false});
        }
      }
      continue;
    }
    work.pop_back();
    std::size_t own = 0;
    for (const auto& [operand, nested] : operands) {
      own = std::max(own, *depth.find(operand) + nested);
    }
    if (own >= max_printed_expr_depth) {
      temp_order_.push_back(item.node);
      *prim_temps_.try_emplace(item.node).first = static_cast<std::uint32_t>(++temps_);
      own = 0;
    }
    *depth.try_emplace(item.node).first = own;
  }
}

CTIR_INLINE void Printer::seq_block(const SeqStmtNode& seq) {
  const std::size_t begin = out_.size();
  out_ += '{';
  ++indent_;
  push(Step::close_block, &seq, 0, begin);
  if (!seq.seq.empty()) {
    push(Step::seq_next, &seq, 0, 0);
  }
}

CTIR_INLINE void Printer::stmt(const Object& node, bool planned) {
  if (!planned) {
    stmt_ = StmtStart{&node, out_.size(), records_.size(), stack_.size(), false};
    if (prim_temps_.size() != 0) {
      prim_temps_.clear();
    }
  }
  const std::size_t begin = out_.size();
  switch (node.dynamic_type_index()) {
  case SeqStmtNode::type_index:
    // A block inside a block: `{ ... }` on its own.
    seq_block(static_cast<const SeqStmtNode&>(node));
    return;
  case ForNode::type_index: {
    const auto& loop = static_cast<const ForNode&>(node);
    if (!loop.var.defined()) {
      throw_null_field(node, "var");
    }
    if (!loop.body.defined()) {
      throw_null_field(node, "body");
    }
    const std::string_view kind = to_string(loop.kind);
    if (kind == "?") {
      throw NodeError(ref_of(&node), "ctir: cannot print a For of unknown kind");
    }
    out_ += "for ";
    emit_def_again(loop.var.get(), planned);
    out_ += " in ";
    out_ += kind;
    out_ += '(';
    push(Step::end_range, &node, 0, begin);
    push(Step::seq_block, loop.body.get());
    push_text(") ");
    push_operand(node, loop.end.get(), "end", false, 1);
    push_text(", ");
    push_operand(node, loop.begin.get(), "begin", false, 1);
    return;
  }
  case TensorStoreNode::type_index: {
    const auto& store = static_cast<const TensorStoreNode&>(node);
    if (!store.dest.defined()) {
      throw_null_field(node, "dest");
    }
    emit_var(store.dest.get());
    out_ += '[';
    push(Step::end_range, &node, 0, begin);
    push_text(";");
    push_operand(node, store.value.get(), "value", false, 1);
    push_text("] = ");
    push_list(Step::prim_expr, store.indices, node, "indices", 1);
    return;
  }
  case BindNode::type_index: {
    const auto& bind = static_cast<const BindNode&>(node);
    if (!bind.var.defined()) {
      throw_null_field(node, "var");
    }
    out_ += "let ";
    emit_def_again(bind.var.get(), planned);
    // Annotated only when the type is not the one the value gives it.
    const Type& ty = bind.var->ty;
    const bool annotate =
        ty.defined() &&
        !(ty.is<PrimTypeNode>() && ty.as<PrimTypeNode>()->dtype == dtype_of_node(bind.value.get()));
    push(Step::end_range, &node, 0, begin);
    push_text(";");
    push_operand(node, bind.value.get(), "value", false, 1);
    push_text(" = ");
    if (annotate) {
      out_ += ": ";
      push(Step::type, ty.get());
    }
    return;
  }
  case IfThenElseNode::type_index: {
    const auto& branch = static_cast<const IfThenElseNode&>(node);
    if (!branch.then_case.defined()) {
      throw_null_field(node, "then_case");
    }
    out_ += "if (";
    push(Step::end_range, &node, 0, begin);
    if (branch.else_case.defined()) {
      push(Step::seq_block, branch.else_case.get());
      push_text(" else ");
    }
    push(Step::seq_block, branch.then_case.get());
    push_text(") ");
    push_operand(node, branch.cond.get(), "cond", false, 1);
    return;
  }
  case AllocateNode::type_index: {
    const auto& alloc = static_cast<const AllocateNode&>(node);
    if (!alloc.buffer.defined()) {
      throw_null_field(node, "buffer");
    }
    if (!alloc.buffer->ty.defined()) {
      throw NodeError(ref_of(&node), "ctir: cannot print an Allocate whose buffer has no type");
    }
    out_ += "alloc ";
    emit_def(alloc.buffer.get());
    out_ += ": ";
    push(Step::end_range, &node, 0, begin);
    push_text(";");
    push(Step::type, alloc.buffer->ty.get());
    return;
  }
  default:
    throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                       std::string(node.dynamic_type_key()));
  }
}

} // namespace ctir::detail
