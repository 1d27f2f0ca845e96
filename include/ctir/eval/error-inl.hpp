// Definitions of <ctir/eval/error.hpp>.
#pragma once

#include <ctir/eval/error.hpp>

#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::eval {

CTIR_INLINE EvalError::EvalError(const ObjectRef& node, const std::string& message, Span span)
    : NodeError(node, message), span_(std::move(span)) {}

namespace detail {

/// At most `limit` characters of `text`, with `...` when cut.
CTIR_INLINE std::string truncated(std::string text, std::size_t limit = 80) {
  if (text.size() > limit) {
    text.resize(limit);
    text += "...";
  }
  return text;
}

CTIR_INLINE std::string var_str(const VarNode* var) {
  return var == nullptr ? std::string("?") : "%" + var->name;
}

CTIR_INLINE std::string indices_str(const std::vector<PrimExpr>& indices) {
  std::string out;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    out += (k == 0 ? "" : ", ") + truncated(prim_expr_str(indices[k]), 40);
  }
  return out;
}

CTIR_INLINE std::string describe(const Object* node) {
  if (node == nullptr) {
    return "the inputs";
  }
  if (instance_of<VarNode>(*node)) {
    return "`" + var_str(static_cast<const VarNode*>(node)) + "`";
  }
  if (instance_of<PrimExprNode>(*node)) {
    return "`" + truncated(prim_expr_str(ref_of(static_cast<const PrimExprNode*>(node)))) + "`";
  }
  switch (node->dynamic_type_index()) {
  case CallNode::type_index: {
    const auto& call = static_cast<const CallNode&>(*node);
    if (const auto* op = call.op.as<OpNode>()) {
      return "the call of operator '" + op->name + "'";
    }
    if (const auto* global = call.op.as<GlobalVarNode>()) {
      return "the call of @" + global->name;
    }
    return "a call of a closure";
  }
  case CallDpsNode::type_index: {
    const auto& call = static_cast<const CallDpsNode&>(*node);
    return "call_dps @" + (call.func.defined() ? call.func->name : std::string("?"));
  }
  case TupleNode::type_index:
    return "a tuple";
  case TupleGetItemNode::type_index:
    return "the projection ." + std::to_string(static_cast<const TupleGetItemNode&>(*node).index);
  case LetNode::type_index:
    return "let " + var_str(static_cast<const LetNode&>(*node).var.get());
  case IfNode::type_index:
    return "an if expression";
  case ConstantNode::type_index:
    return "a constant";
  case FunctionNode::type_index:
    return "a closure";
  case GlobalVarNode::type_index:
    return "@" + static_cast<const GlobalVarNode&>(*node).name;
  case OpNode::type_index:
    return "operator '" + static_cast<const OpNode&>(*node).name + "'";
  case TensorStoreNode::type_index: {
    const auto& store = static_cast<const TensorStoreNode&>(*node);
    return "`" + var_str(store.dest.get()) + "[" + indices_str(store.indices) +
           "] = " + truncated(prim_expr_str(store.value), 40) + "`";
  }
  case ForNode::type_index: {
    const auto& loop = static_cast<const ForNode&>(*node);
    return "`for " + var_str(loop.var.get()) + " in " + std::string(ctir::to_string(loop.kind)) +
           "(" + truncated(prim_expr_str(loop.begin), 30) + ", " +
           truncated(prim_expr_str(loop.end), 30) + ")`";
  }
  case BindNode::type_index: {
    const auto& bind = static_cast<const BindNode&>(*node);
    return "`let " + var_str(bind.var.get()) + " = " + truncated(prim_expr_str(bind.value), 40) +
           "`";
  }
  case IfThenElseNode::type_index:
    return "`if (" + truncated(prim_expr_str(static_cast<const IfThenElseNode&>(*node).cond), 40) +
           ")`";
  case AllocateNode::type_index: {
    const auto& alloc = static_cast<const AllocateNode&>(*node);
    return "`alloc " + var_str(alloc.buffer.get()) + ": " +
           (alloc.buffer.defined() ? type_str(alloc.buffer->ty) : std::string("?")) + "`";
  }
  case SeqStmtNode::type_index:
    return "a block";
  default:
    return "a " + std::string(node->dynamic_type_key()) + " node";
  }
}

/// The source span of an expression or statement, if it has one.
CTIR_INLINE Span span_of(const Object* node) {
  if (node == nullptr) {
    return {};
  }
  if (instance_of<ExprNode>(*node)) {
    return static_cast<const ExprNode*>(node)->span;
  }
  if (instance_of<StmtNode>(*node)) {
    return static_cast<const StmtNode*>(node)->span;
  }
  return {};
}

CTIR_INLINE EvalError make_error(const Object* node, std::string_view what,
                                 std::string_view function) {
  Span span = span_of(node);
  std::string message = span.defined() ? span.str() + ": error: " : "ctir: eval error: ";
  message += what;
  if (node != nullptr) {
    message += " in " + describe(node);
  }
  if (!function.empty()) {
    message += " (in @" + std::string(function) + ")";
  }
  return EvalError(node == nullptr ? ObjectRef() : ref_of(node), message, std::move(span));
}

} // namespace detail
} // namespace ctir::eval
