// Definitions of <ctir/ir/graph/expr.hpp>.
#pragma once

#include <ctir/ir/graph/expr.hpp>

#include <utility>

namespace ctir {

CTIR_INLINE Ref<OpNode> OpNode::ref_methods::make(std::string name) {
  auto node = make_object<OpNode>();
  node->name = std::move(name);
  return std::move(node).publish();
}

CTIR_INLINE Ref<ConstantNode> ConstantNode::ref_methods::make(TensorData data) {
  auto node = make_object<ConstantNode>();
  node->data = std::move(data);
  return std::move(node).publish();
}

CTIR_INLINE Ref<CallNode> CallNode::ref_methods::make(Expr op, std::vector<Expr> args,
                                                      Attrs attrs) {
  auto node = make_object<CallNode>();
  node->op = std::move(op);
  node->args = std::move(args);
  node->attrs = std::move(attrs);
  return std::move(node).publish();
}

CTIR_INLINE Ref<TupleNode> TupleNode::ref_methods::make(std::vector<Expr> fields) {
  auto node = make_object<TupleNode>();
  node->fields = std::move(fields);
  return std::move(node).publish();
}

CTIR_INLINE Ref<TupleGetItemNode> TupleGetItemNode::ref_methods::make(Expr tuple,
                                                                      std::int64_t index) {
  auto node = make_object<TupleGetItemNode>();
  node->tuple = std::move(tuple);
  node->index = index;
  return std::move(node).publish();
}

CTIR_INLINE Ref<LetNode> LetNode::ref_methods::make(Var var, Expr value, Expr body) {
  auto node = make_object<LetNode>();
  node->var = std::move(var);
  node->value = std::move(value);
  node->body = std::move(body);
  return std::move(node).publish();
}

CTIR_INLINE Ref<IfNode> IfNode::ref_methods::make(Expr cond, Expr then_branch, Expr else_branch) {
  auto node = make_object<IfNode>();
  node->cond = std::move(cond);
  node->then_branch = std::move(then_branch);
  node->else_branch = std::move(else_branch);
  return std::move(node).publish();
}

CTIR_INLINE Ref<FunctionNode> FunctionNode::ref_methods::make(std::vector<Var> params, Expr body,
                                                              Type ret_type, Attrs attrs,
                                                              std::string name) {
  auto node = make_object<FunctionNode>();
  node->name = std::move(name);
  node->attrs = std::move(attrs);
  node->params = std::move(params);
  node->body = std::move(body);
  node->ret_type = std::move(ret_type);
  return std::move(node).publish();
}

CTIR_INLINE Ref<CallDpsNode> CallDpsNode::ref_methods::make(GlobalVar func, std::vector<Expr> args,
                                                            Type out_type) {
  auto node = make_object<CallDpsNode>();
  node->func = std::move(func);
  node->args = std::move(args);
  node->out_type = std::move(out_type);
  return std::move(node).publish();
}

} // namespace ctir
