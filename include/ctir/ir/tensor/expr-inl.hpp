// Definitions of <ctir/ir/tensor/expr.hpp>.
#pragma once

#include <ctir/ir/tensor/expr.hpp>

#include <utility>

namespace ctir {

CTIR_INLINE Ref<PrimExprNode> PrimExprNode::ref_methods::from_literal(int value) {
  return IntImm::make(value);
}
CTIR_INLINE Ref<PrimExprNode> PrimExprNode::ref_methods::from_literal(long value) {
  return IntImm::make(value, DataType::int64());
}
CTIR_INLINE Ref<PrimExprNode> PrimExprNode::ref_methods::from_literal(long long value) {
  return IntImm::make(value, DataType::int64());
}
CTIR_INLINE Ref<PrimExprNode> PrimExprNode::ref_methods::from_literal(float value) {
  return FloatImm::make(static_cast<double>(value));
}
CTIR_INLINE Ref<PrimExprNode> PrimExprNode::ref_methods::from_literal(double value) {
  return FloatImm::make(value, DataType::float64());
}
CTIR_INLINE Ref<PrimExprNode> PrimExprNode::ref_methods::from_literal(bool value) {
  return IntImm::make(value ? 1 : 0, DataType::boolean());
}

CTIR_INLINE Ref<IntImmNode> IntImmNode::ref_methods::make(std::int64_t value, DataType dtype) {
  auto node = make_object<IntImmNode>();
  node->dtype = dtype;
  node->value = value;
  return std::move(node).publish();
}

CTIR_INLINE Ref<FloatImmNode> FloatImmNode::ref_methods::make(double value, DataType dtype) {
  auto node = make_object<FloatImmNode>();
  node->dtype = dtype;
  node->value = value;
  return std::move(node).publish();
}

template <BinaryOp Op>
Ref<BinaryNode<Op>> BinaryNode<Op>::ref_methods::make(PrimExpr a, PrimExpr b) {
  auto node = make_object<BinaryNode>();
  node->a = std::move(a);
  node->b = std::move(b);
  return std::move(node).publish();
}

CTIR_INLINE Ref<NotNode> NotNode::ref_methods::make(PrimExpr a) {
  auto node = make_object<NotNode>();
  node->a = std::move(a);
  return std::move(node).publish();
}

CTIR_INLINE Ref<NegNode> NegNode::ref_methods::make(PrimExpr a) {
  auto node = make_object<NegNode>();
  node->a = std::move(a);
  return std::move(node).publish();
}

CTIR_INLINE Ref<SelectNode> SelectNode::ref_methods::make(PrimExpr cond, PrimExpr true_value,
                                                          PrimExpr false_value) {
  auto node = make_object<SelectNode>();
  node->cond = std::move(cond);
  node->true_value = std::move(true_value);
  node->false_value = std::move(false_value);
  return std::move(node).publish();
}

CTIR_INLINE Ref<CastNode> CastNode::ref_methods::make(DataType dtype, PrimExpr value) {
  auto node = make_object<CastNode>();
  node->dtype = dtype;
  node->value = std::move(value);
  return std::move(node).publish();
}

CTIR_INLINE Ref<TensorLoadNode> TensorLoadNode::ref_methods::make(Var source,
                                                                  std::vector<PrimExpr> indices) {
  auto node = make_object<TensorLoadNode>();
  node->source = std::move(source);
  node->indices = std::move(indices);
  return std::move(node).publish();
}

#ifndef CTIR_HEADER_ONLY
template Ref<AddNode> BinaryNode<BinaryOp::add>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<SubNode> BinaryNode<BinaryOp::sub>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<MulNode> BinaryNode<BinaryOp::mul>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<DivNode> BinaryNode<BinaryOp::div>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<ModNode> BinaryNode<BinaryOp::mod>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<MinNode> BinaryNode<BinaryOp::min>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<MaxNode> BinaryNode<BinaryOp::max>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<EQNode> BinaryNode<BinaryOp::eq>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<NENode> BinaryNode<BinaryOp::ne>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<LTNode> BinaryNode<BinaryOp::lt>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<LENode> BinaryNode<BinaryOp::le>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<GTNode> BinaryNode<BinaryOp::gt>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<GENode> BinaryNode<BinaryOp::ge>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<AndNode> BinaryNode<BinaryOp::logical_and>::ref_methods::make(PrimExpr, PrimExpr);
template Ref<OrNode> BinaryNode<BinaryOp::logical_or>::ref_methods::make(PrimExpr, PrimExpr);
#endif

} // namespace ctir
