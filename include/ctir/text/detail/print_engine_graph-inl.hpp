// Definitions of the print engine (<ctir/text/detail/print_engine-inl.hpp>).
// Graph-level expressions: blocks of bindings, atoms, calls and closures.
#pragma once

#include <ctir/text/detail/print_engine.hpp>

#include <ctir/core/error.hpp>
#include <ctir/text/detail/print_literal.hpp>

#include <string>
#include <vector>

namespace ctir::detail {

CTIR_INLINE void Printer::graph_root(const Object& node) {
  plan_.build(node);
  push(Step::graph_block, nullptr, 0, 0);
  run();
}

CTIR_INLINE void Printer::graph_item(std::int32_t block, std::size_t i, bool first_of_bare_block) {
  std::vector<GraphItem>& items = plan_.block(block).items;
  if (i >= items.size()) {
    return;
  }
  if (i + 1 < items.size()) {
    push(Step::graph_items, nullptr, static_cast<std::uint32_t>(block), i + 1);
  }
  if (!first_of_bare_block) {
    newline();
  }
  GraphItem& item = items[i];
  switch (item.kind) {
  case GraphItem::Kind::temp: {
    GraphNodeInfo& info = plan_.info(item.index);
    info.temp_number = static_cast<std::int32_t>(temps_++);
    out_ += '%';
    out_ += std::to_string(info.temp_number);
    out_ += " = ";
    push_text(";");
    push(Step::graph_inline, item.node, item.index);
    break;
  }
  case GraphItem::Kind::let: {
    const auto& let = static_cast<const LetNode&>(*item.node);
    const GraphEdge& value = plan_.edges_begin(item.index)[0];
    item.begin = out_.size();
    out_ += "let ";
    emit_def(let.var.get());
    push_text(";");
    push(Step::graph_expr, value.node, value.index);
    push_text(" = ");
    if (let.var->ty.defined()) {
      out_ += ": ";
      push(Step::type, let.var->ty.get());
    }
    break;
  }
  case GraphItem::Kind::result:
    push(Step::graph_lets, nullptr, static_cast<std::uint32_t>(block));
    push(Step::graph_expr, item.node, item.index);
    break;
  }
}

CTIR_INLINE void Printer::graph_expr(const Object& node, std::uint32_t index) {
  if (index == atom_index) {
    atom(node);
    return;
  }
  const GraphNodeInfo& info = plan_.info(index);
  if (info.mode != GraphMode::temp) {
    graph_inline(node, index);
    return;
  }
  if (info.temp_number < 0) {
    throw Error("ctir: internal printer error: a temporary is used before its binding");
  }
  const std::size_t begin = out_.size();
  out_ += '%';
  out_ += std::to_string(info.temp_number);
  record(&node, begin);
}

CTIR_INLINE void Printer::push_edges(const GraphEdge* first, const GraphEdge* last) {
  for (const GraphEdge* edge = last; edge != first;) {
    --edge;
    push(Step::graph_expr, edge->node, edge->index);
    if (edge != first) {
      push_text(", ");
    }
  }
}

CTIR_INLINE void Printer::atom(const Object& node) {
  const std::size_t begin = out_.size();
  if (instance_of<PrimExprNode>(node)) {
    prim_expr(node, false, 0, prim_fixed);
    return;
  }
  switch (node.dynamic_type_index()) {
  case GlobalVarNode::type_index:
    emit_global(&static_cast<const GlobalVarNode&>(node));
    return;
  case OpNode::type_index: {
    const std::string& name = static_cast<const OpNode&>(node).name;
    if (!is_dotted_name(name) || is_reserved_word(name)) {
      throw NodeError(ref_of(&node), "ctir: cannot print the operator name '" + name +
                                         "': operator names are [A-Za-z_][A-Za-z0-9_.]* and "
                                         "not a keyword of the format");
    }
    out_ += name;
    record(&node, begin);
    return;
  }
  case ConstantNode::type_index: {
    const TensorData& data = static_cast<const ConstantNode&>(node).data;
    if (!is_printable_dtype(data.dtype())) {
      throw NodeError(ref_of(&node), "ctir: the text format has no name for the dtype " +
                                         data.dtype().str() + " (of a Constant)");
    }
    out_ += "const(";
    append_tensor_elements(out_, data);
    if (data.size() == 0 && data.ndim() > 0) {
      // `[]` says neither the shape nor the dtype: the type says both.
      out_ += ", Tensor[(";
      for (std::size_t d = 0; d < data.ndim(); ++d) {
        out_ += d == 0 ? "" : ", ";
        out_ += std::to_string(data.shape()[d]);
      }
      out_ += "), ";
      out_ += data.dtype().str();
      out_ += ']';
    }
    out_ += ')';
    record(&node, begin);
    return;
  }
  case TupleGetItemNode::type_index: {
    // `%t.0.1`: the variable, then the indices from the innermost projection out, each
    // projection's range ending after its own index. A loop: chains may be deep.
    std::vector<const TupleGetItemNode*> chain;
    for (const Object* current = &node;
         current->dynamic_type_index() == TupleGetItemNode::type_index;
         current = static_cast<const TupleGetItemNode*>(current)->tuple.get()) {
      chain.push_back(static_cast<const TupleGetItemNode*>(current));
      check_index(*chain.back());
    }
    emit_var(projected_var(node));
    for (std::size_t k = chain.size(); k-- > 0;) {
      out_ += '.';
      out_ += std::to_string(chain[k]->index);
      record(chain[k], begin);
    }
    return;
  }
  default:
    throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                       std::string(node.dynamic_type_key()));
  }
}

CTIR_INLINE void Printer::check_index(const TupleGetItemNode& item) {
  if (item.index < 0) {
    throw NodeError(ref_of(&item), "ctir: cannot print a TupleGetItem with the negative index " +
                                       std::to_string(item.index));
  }
}

CTIR_INLINE void Printer::graph_inline(const Object& node, std::uint32_t index) {
  const GraphNodeInfo& info = plan_.info(index);
  const GraphEdge* edges = plan_.edges_begin(index);
  const GraphEdge* edges_end = edges + plan_.edge_count(index);
  const std::size_t begin = out_.size();
  push(Step::end_range, &node, 0, begin);
  switch (info.kind) {
  case GraphKind::call: {
    const GraphEdge& callee = edges[0];
    const std::uint32_t callee_type = callee.node->dynamic_type_index();
    const bool direct =
        callee_type == OpNode::type_index || callee_type == GlobalVarNode::type_index;
    const bool callable = direct || callee_type == VarNode::type_index ||
                          callee_type == TupleGetItemNode::type_index || callee.index != atom_index;
    if (!callable) {
      throw NodeError(ref_of(&node), "ctir: cannot print a call of a " +
                                         std::string(callee.node->dynamic_type_key()) +
                                         ": a callee is an operator, a global, a variable or "
                                         "an expression bound to a temporary");
    }
    push_text(")");
    push(Step::call_attrs, &node);
    push_edges(edges + 1, edges_end);
    if (direct) {
      atom(*callee.node);
      out_ += '(';
    } else {
      push_text("(");
      push(Step::graph_expr, callee.node, callee.index);
    }
    return;
  }
  case GraphKind::tuple:
    out_ += '(';
    push_text(edges_end - edges == 1 ? ",)" : ")");
    push_edges(edges, edges_end);
    return;
  case GraphKind::get_item: {
    const auto& item = static_cast<const TupleGetItemNode&>(node);
    check_index(item);
    push(Step::index, nullptr, 0, static_cast<std::size_t>(item.index));
    push(Step::graph_expr, edges[0].node, edges[0].index);
    return;
  }
  case GraphKind::let:
    push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner), 1);
    return;
  case GraphKind::if_:
    out_ += "if (";
    push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner + 1), 1);
    push_text(" else ");
    push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner), 1);
    push_text(") ");
    push(Step::graph_expr, edges[0].node, edges[0].index);
    return;
  case GraphKind::function:
    out_ += "fn (";
    push(Step::graph_block, nullptr, static_cast<std::uint32_t>(info.inner), 1);
    push_text(" ");
    push(Step::fn_attrs, &node);
    push_signature_rest(static_cast<const FunctionNode&>(node));
    return;
  case GraphKind::call_dps: {
    const auto& call = static_cast<const CallDpsNode&>(node);
    if (!call.out_type.defined()) {
      throw_null_field(node, "out_type");
    }
    out_ += "call_dps ";
    emit_global(call.func.get());
    out_ += '(';
    push(Step::type, call.out_type.get());
    push_text(") -> ");
    push_edges(edges, edges_end);
    return;
  }
  case GraphKind::atom:
    break;
  }
}

} // namespace ctir::detail
