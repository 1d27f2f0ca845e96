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

/// The scalar dtype of a tensor-level expression (tensor-typed variables give their
/// element dtype). Follows left operands in a loop, so deep expressions are fine.
inline DataType dtype_of(const PrimExpr& expr) {
  if (!expr.defined()) {
    throw Error("ctir: dtype_of a null expression");
  }
  const auto as = []<class T>(const PrimExprNode* n, std::type_identity<T>) -> const T* {
    return instance_of<T>(*n) ? static_cast<const T*>(n) : nullptr;
  };
  const PrimExprNode* node = expr.get();
  while (true) {
    if (const auto* imm = as(node, std::type_identity<IntImmNode>{})) {
      return imm->dtype;
    }
    if (const auto* imm = as(node, std::type_identity<FloatImmNode>{})) {
      return imm->dtype;
    }
    if (const auto* var = as(node, std::type_identity<VarNode>{})) {
      if (const auto* prim = var->ty.as<PrimTypeNode>()) {
        return prim->dtype;
      }
      if (const auto* tensor = var->ty.as<TensorTypeNode>()) {
        return tensor->dtype;
      }
      return DataType::int32();
    }
    if (const auto* cast = as(node, std::type_identity<CastNode>{})) {
      return cast->dtype;
    }
    if (instance_of<EQNode>(*node) || instance_of<NENode>(*node) || instance_of<LTNode>(*node) ||
        instance_of<LENode>(*node) || instance_of<GTNode>(*node) || instance_of<GENode>(*node) ||
        instance_of<AndNode>(*node) || instance_of<OrNode>(*node) || instance_of<NotNode>(*node)) {
      return DataType::boolean();
    }
    const PrimExprNode* next = nullptr;
    if (const auto* load = as(node, std::type_identity<TensorLoadNode>{})) {
      next = load->source.get();
    } else if (const auto* neg = as(node, std::type_identity<NegNode>{})) {
      next = neg->a.get();
    } else if (const auto* select = as(node, std::type_identity<SelectNode>{})) {
      next = select->true_value.get();
    } else {
      // The arithmetic binary nodes (and run-time types with an `a` field): the left operand.
      for (const FieldInfo& field : node->type_info().fields) {
        if (field.name == "a" && field.kind == FieldKind::node) {
          next = static_cast<const PrimExprNode*>(field.get(*node, field));
          break;
        }
      }
    }
    if (next == nullptr) {
      return DataType::int32();
    }
    node = next;
  }
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
