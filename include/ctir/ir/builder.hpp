// Conveniences for writing IR in C++: arithmetic operators, literals, call helpers.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

namespace detail {

/// The dtype rules of ctir::dtype_of on a raw node, followed in a loop so that a deep
/// expression costs no stack; nullopt where the rules have no answer (a null node, a
/// variable whose type is neither a scalar nor a tensor, a node without a left operand).
/// The parser checks only the types it knows this way.
std::optional<DataType> known_dtype_of_node(const PrimExprNode* node);

/// known_dtype_of_node with int32 where it has no answer; shared by the printer and the
/// parser.
DataType dtype_of_node(const PrimExprNode* node);

} // namespace detail

/// The scalar dtype of a tensor-level expression (tensor-typed variables give their
/// element dtype). Follows left operands in a loop, so deep expressions are fine.
DataType dtype_of(const PrimExpr& expr);

/// A literal of the given dtype: IntImm for integers and bool, FloatImm for floats.
PrimExpr make_const(DataType dtype, double value);

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

PrimExpr logical_not(PrimExpr a);
PrimExpr select(PrimExpr c, PrimExpr t, PrimExpr f);
PrimExpr cast(DataType dtype, PrimExpr value);

/// `A[i, j]` as a load.
PrimExpr load(Var source, std::vector<PrimExpr> indices);

/// A call of the operator named `op`: `call("add", {x, y})`.
Call call(std::string op, std::vector<Expr> args, Attrs attrs = {});

/// A tensor type with constant dimensions: `tensor_type({2, 3}, DataType::float32())`.
TensorType tensor_type(std::vector<std::int64_t> shape, DataType dtype);

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/builder-inl.hpp>
#endif
