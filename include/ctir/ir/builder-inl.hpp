// Definitions of <ctir/ir/builder.hpp>.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>

namespace ctir {

namespace detail {

CTIR_INLINE DataType dtype_of_node(const PrimExprNode* node) {
  while (node != nullptr) {
    switch (node->dynamic_type_index()) {
    case IntImmNode::type_index:
      return static_cast<const IntImmNode*>(node)->dtype;
    case FloatImmNode::type_index:
      return static_cast<const FloatImmNode*>(node)->dtype;
    case VarNode::type_index: {
      const Type& ty = static_cast<const VarNode*>(node)->ty;
      if (const auto* prim = ty.as<PrimTypeNode>()) {
        return prim->dtype;
      }
      if (const auto* tensor = ty.as<TensorTypeNode>()) {
        return tensor->dtype;
      }
      return DataType::int32();
    }
    case CastNode::type_index:
      return static_cast<const CastNode*>(node)->dtype;
    case EQNode::type_index:
    case NENode::type_index:
    case LTNode::type_index:
    case LENode::type_index:
    case GTNode::type_index:
    case GENode::type_index:
    case AndNode::type_index:
    case OrNode::type_index:
    case NotNode::type_index:
      return DataType::boolean();
    case TensorLoadNode::type_index:
      node = static_cast<const TensorLoadNode*>(node)->source.get();
      continue;
    case NegNode::type_index:
      node = static_cast<const NegNode*>(node)->a.get();
      continue;
    case SelectNode::type_index:
      node = static_cast<const SelectNode*>(node)->true_value.get();
      continue;
    default: {
      // The arithmetic binary nodes (and run-time types with an `a` field): the left operand.
      const PrimExprNode* next = nullptr;
      for (const FieldInfo& field : node->type_info().fields) {
        if (field.name == "a" && field.kind == FieldKind::node) {
          next = static_cast<const PrimExprNode*>(field.get(*node, field));
          break;
        }
      }
      if (next == nullptr) {
        return DataType::int32();
      }
      node = next;
    }
    }
  }
  return DataType::int32();
}

} // namespace detail

CTIR_INLINE DataType dtype_of(const PrimExpr& expr) {
  if (!expr.defined()) {
    throw Error("ctir: dtype_of a null expression");
  }
  return detail::dtype_of_node(expr.get());
}

CTIR_INLINE PrimExpr make_const(DataType dtype, double value) {
  if (dtype.is_float()) {
    return Ref<FloatImmNode>::make(value, dtype);
  }
  if (dtype.is_bool()) {
    return Ref<IntImmNode>::make(value != 0 ? 1 : 0, dtype);
  }
  if (!(value > -9.2233720368547758e18 && value < 9.2233720368547758e18)) {
    throw Error("ctir: make_const: " + shortest_float(value) + " does not fit " + dtype.str());
  }
  return Ref<IntImmNode>::make(static_cast<std::int64_t>(value), dtype);
}

CTIR_INLINE PrimExpr logical_not(PrimExpr a) { return Ref<NotNode>::make(std::move(a)); }

CTIR_INLINE PrimExpr select(PrimExpr c, PrimExpr t, PrimExpr f) {
  return Ref<SelectNode>::make(std::move(c), std::move(t), std::move(f));
}

CTIR_INLINE PrimExpr cast(DataType dtype, PrimExpr value) {
  return Ref<CastNode>::make(dtype, std::move(value));
}

CTIR_INLINE PrimExpr load(Var source, std::vector<PrimExpr> indices) {
  return Ref<TensorLoadNode>::make(std::move(source), std::move(indices));
}

CTIR_INLINE Call call(std::string op, std::vector<Expr> args, Attrs attrs) {
  return Ref<CallNode>::make(Ref<OpNode>::make(std::move(op)), std::move(args), std::move(attrs));
}

CTIR_INLINE TensorType tensor_type(std::vector<std::int64_t> shape, DataType dtype) {
  std::vector<PrimExpr> dims;
  dims.reserve(shape.size());
  for (std::int64_t d : shape) {
    dims.push_back(Ref<IntImmNode>::make(d));
  }
  return Ref<TensorTypeNode>::make(std::move(dims), dtype);
}

} // namespace ctir
