// Conveniences for writing IR in C++: arithmetic operators, literals, call helpers.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ctir {

namespace detail {

/// The dtype rules of ctir::dtype_of on a raw node (int32 for null), followed in a loop
/// so that a deep expression costs no stack; shared by the printer and the parser.
inline DataType dtype_of_node(const PrimExprNode* node) {
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

/// The scalar dtype of a tensor-level expression (tensor-typed variables give their
/// element dtype). Follows left operands in a loop, so deep expressions are fine.
inline DataType dtype_of(const PrimExpr& expr) {
  if (!expr.defined()) {
    throw Error("ctir: dtype_of a null expression");
  }
  return detail::dtype_of_node(expr.get());
}

/// A literal of the given dtype: IntImm for integers and bool, FloatImm for floats.
inline PrimExpr make_const(DataType dtype, double value) {
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

/// A Ref to a tensor-level expression (Var, IntImm, Add, ...).
template <class T>
concept prim_expr_ref = requires {
  typename std::remove_cvref_t<T>::node_type;
}
&&std::derived_from<typename std::remove_cvref_t<T>::node_type, PrimExprNode>;

/// What the arithmetic operators accept on either side: expressions and C++ literals
/// (`1` int32, `1.0f` float32, `1.0` float64).
template <class T>
concept prim_expr_operand = prim_expr_ref<T> ||
    (std::is_arithmetic_v<std::remove_cvref_t<T>>&&
         std::is_constructible_v<PrimExpr, std::remove_cvref_t<T>>);

namespace detail {
/// At least one side must be an expression: `i + 1` builds IR, `1 + 1` stays C++.
template <class A, class B>
concept one_is_prim_expr = prim_expr_operand<A> && prim_expr_operand<B> &&
    (prim_expr_ref<A> || prim_expr_ref<B>);

template <class T>
PrimExpr operand(T&& value) {
  return PrimExpr(std::forward<T>(value));
}
} // namespace detail

template <class A, class B>
requires detail::one_is_prim_expr<A, B> PrimExpr operator+(A&& a, B&& b) {
  return Ref<AddNode>::make(detail::operand(std::forward<A>(a)),
                            detail::operand(std::forward<B>(b)));
}
template <class A, class B>
requires detail::one_is_prim_expr<A, B> PrimExpr operator-(A&& a, B&& b) {
  return Ref<SubNode>::make(detail::operand(std::forward<A>(a)),
                            detail::operand(std::forward<B>(b)));
}
template <class A, class B>
requires detail::one_is_prim_expr<A, B> PrimExpr operator*(A&& a, B&& b) {
  return Ref<MulNode>::make(detail::operand(std::forward<A>(a)),
                            detail::operand(std::forward<B>(b)));
}
template <class A, class B>
requires detail::one_is_prim_expr<A, B> PrimExpr operator/(A&& a, B&& b) {
  return Ref<DivNode>::make(detail::operand(std::forward<A>(a)),
                            detail::operand(std::forward<B>(b)));
}
template <class A, class B>
requires detail::one_is_prim_expr<A, B> PrimExpr operator%(A&& a, B&& b) {
  return Ref<ModNode>::make(detail::operand(std::forward<A>(a)),
                            detail::operand(std::forward<B>(b)));
}
template <prim_expr_ref A>
PrimExpr operator-(A&& a) {
  return Ref<NegNode>::make(PrimExpr(std::forward<A>(a)));
}

// Comparisons are named functions: on Refs, == and < keep their identity meaning.
#define CTIR_DETAIL_NAMED_BINARY(name, Node)                                                       \
  template <class A, class B>                                                                      \
  requires detail::one_is_prim_expr<A, B> PrimExpr name(A&& a, B&& b) {                            \
    return Ref<Node>::make(detail::operand(std::forward<A>(a)),                                    \
                           detail::operand(std::forward<B>(b)));                                   \
  }
CTIR_DETAIL_NAMED_BINARY(eq, EQNode)
CTIR_DETAIL_NAMED_BINARY(ne, NENode)
CTIR_DETAIL_NAMED_BINARY(lt, LTNode)
CTIR_DETAIL_NAMED_BINARY(le, LENode)
CTIR_DETAIL_NAMED_BINARY(gt, GTNode)
CTIR_DETAIL_NAMED_BINARY(ge, GENode)
CTIR_DETAIL_NAMED_BINARY(min, MinNode)
CTIR_DETAIL_NAMED_BINARY(max, MaxNode)
CTIR_DETAIL_NAMED_BINARY(logical_and, AndNode)
CTIR_DETAIL_NAMED_BINARY(logical_or, OrNode)
#undef CTIR_DETAIL_NAMED_BINARY

inline PrimExpr logical_not(PrimExpr a) { return Ref<NotNode>::make(std::move(a)); }
inline PrimExpr select(PrimExpr c, PrimExpr t, PrimExpr f) {
  return Ref<SelectNode>::make(std::move(c), std::move(t), std::move(f));
}
inline PrimExpr cast(DataType dtype, PrimExpr value) {
  return Ref<CastNode>::make(dtype, std::move(value));
}

/// `A[i, j]` as a load.
inline PrimExpr load(Var source, std::vector<PrimExpr> indices) {
  return Ref<TensorLoadNode>::make(std::move(source), std::move(indices));
}

/// A call of the operator named `op`: `call("add", {x, y})`.
inline Call call(std::string op, std::vector<Expr> args, Attrs attrs = {}) {
  return Ref<CallNode>::make(Ref<OpNode>::make(std::move(op)), std::move(args), std::move(attrs));
}

/// A tensor type with constant dimensions: `tensor_type({2, 3}, DataType::float32())`.
inline TensorType tensor_type(std::vector<std::int64_t> shape, DataType dtype) {
  std::vector<PrimExpr> dims;
  dims.reserve(shape.size());
  for (std::int64_t d : shape) {
    dims.push_back(Ref<IntImmNode>::make(d));
  }
  return Ref<TensorTypeNode>::make(std::move(dims), dtype);
}

} // namespace ctir
