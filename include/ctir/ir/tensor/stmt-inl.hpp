// Definitions of <ctir/ir/tensor/stmt.hpp>.
#pragma once

#include <ctir/ir/tensor/stmt.hpp>

#include <utility>

namespace ctir {

CTIR_INLINE SeqStmt as_block(Stmt body) {
  if (const auto* seq = body.as<SeqStmtNode>()) {
    return ref_of(seq);
  }
  std::vector<Stmt> items;
  if (body.defined()) {
    items.push_back(std::move(body));
  }
  return Ref<SeqStmtNode>::make(std::move(items));
}

CTIR_INLINE Ref<SeqStmtNode> SeqStmtNode::ref_methods::make(std::vector<Stmt> seq) {
  auto node = make_object<SeqStmtNode>();
  node->seq = std::move(seq);
  return std::move(node).publish();
}

CTIR_INLINE Ref<ForNode> ForNode::ref_methods::make(Var var, PrimExpr begin, PrimExpr end,
                                                    Stmt body, ForKind kind) {
  auto node = make_object<ForNode>();
  node->var = std::move(var);
  node->begin = std::move(begin);
  node->end = std::move(end);
  node->body = as_block(std::move(body));
  node->kind = kind;
  return std::move(node).publish();
}

CTIR_INLINE Ref<TensorStoreNode>
TensorStoreNode::ref_methods::make(Var dest, std::vector<PrimExpr> indices, PrimExpr value) {
  auto node = make_object<TensorStoreNode>();
  node->dest = std::move(dest);
  node->indices = std::move(indices);
  node->value = std::move(value);
  return std::move(node).publish();
}

CTIR_INLINE Ref<BindNode> BindNode::ref_methods::make(Var var, PrimExpr value) {
  auto node = make_object<BindNode>();
  node->var = std::move(var);
  node->value = std::move(value);
  return std::move(node).publish();
}

CTIR_INLINE Ref<IfThenElseNode> IfThenElseNode::ref_methods::make(PrimExpr cond, Stmt then_case,
                                                                  Stmt else_case) {
  auto node = make_object<IfThenElseNode>();
  node->cond = std::move(cond);
  node->then_case = as_block(std::move(then_case));
  if (else_case.defined()) {
    node->else_case = as_block(std::move(else_case));
  }
  return std::move(node).publish();
}

CTIR_INLINE Ref<AllocateNode> AllocateNode::ref_methods::make(Var buffer) {
  auto node = make_object<AllocateNode>();
  node->buffer = std::move(buffer);
  return std::move(node).publish();
}

} // namespace ctir
