// Definitions of <ctir/ir/type.hpp>.
#pragma once

#include <ctir/ir/type.hpp>

#include <utility>

namespace ctir {

CTIR_INLINE Ref<PrimTypeNode> PrimTypeNode::ref_methods::make(DataType dtype) {
  auto node = make_object<PrimTypeNode>();
  node->dtype = dtype;
  return std::move(node).publish();
}

CTIR_INLINE Ref<TensorTypeNode> TensorTypeNode::ref_methods::make(std::vector<PrimExpr> shape,
                                                                  DataType dtype) {
  auto node = make_object<TensorTypeNode>();
  node->shape = std::move(shape);
  node->dtype = dtype;
  return std::move(node).publish();
}

CTIR_INLINE Ref<TupleTypeNode> TupleTypeNode::ref_methods::make(std::vector<Type> fields) {
  auto node = make_object<TupleTypeNode>();
  node->fields = std::move(fields);
  return std::move(node).publish();
}

CTIR_INLINE Ref<FuncTypeNode> FuncTypeNode::ref_methods::make(std::vector<Type> params, Type ret) {
  auto node = make_object<FuncTypeNode>();
  node->params = std::move(params);
  node->ret = std::move(ret);
  return std::move(node).publish();
}

} // namespace ctir
