// Definitions of <ctir/ir/builder.hpp>.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>

namespace ctir {

namespace detail {

CTIR_INLINE std::optional<DataType> known_dtype_of_node(const PrimExprNode* node) {
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
      return std::nullopt; // not yet typed (a free variable of parse_prim_expr), or a tuple
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
    // The arithmetic nodes directly, for speed: the default below finds them too.
    case AddNode::type_index:
      node = static_cast<const AddNode*>(node)->a.get();
      continue;
    case SubNode::type_index:
      node = static_cast<const SubNode*>(node)->a.get();
      continue;
    case MulNode::type_index:
      node = static_cast<const MulNode*>(node)->a.get();
      continue;
    case DivNode::type_index:
      node = static_cast<const DivNode*>(node)->a.get();
      continue;
    case ModNode::type_index:
      node = static_cast<const ModNode*>(node)->a.get();
      continue;
    case MinNode::type_index:
      node = static_cast<const MinNode*>(node)->a.get();
      continue;
    case MaxNode::type_index:
      node = static_cast<const MaxNode*>(node)->a.get();
      continue;
    default: {
      // Run-time node types with an `a` field: the left operand.
      const PrimExprNode* next = nullptr;
      for (const FieldInfo& field : node->type_info().fields) {
        if (field.name == "a" && field.kind == FieldKind::node) {
          next = static_cast<const PrimExprNode*>(field.get(*node, field));
          break;
        }
      }
      if (next == nullptr) {
        return std::nullopt;
      }
      node = next;
    }
    }
  }
  return std::nullopt;
}

CTIR_INLINE DataType dtype_of_node(const PrimExprNode* node) {
  return known_dtype_of_node(node).value_or(DataType::int32());
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
