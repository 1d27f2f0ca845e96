// Reading any binary scalar node as its operator and operands, for code that switches on
// the operator (the interpreter, the C backend).
#pragma once

#include <ctir/core/object.hpp>
#include <ctir/ir/tensor/expr.hpp>

#include <utility>

namespace ctir {

namespace detail {

template <BinaryOp... Ops>
bool view_binary(const Object& node, BinaryOp& op, const PrimExprNode*& a, const PrimExprNode*& b,
                 std::integer_sequence<BinaryOp, Ops...>) {
  const auto index = node.dynamic_type_index();
  return ((index == BinaryNode<Ops>::type_index
               ? (op = Ops, a = static_cast<const BinaryNode<Ops>&>(node).a.get(),
                  b = static_cast<const BinaryNode<Ops>&>(node).b.get(), true)
               : false) ||
          ...);
}

} // namespace detail

/// Whether `node` is one of the binary scalar nodes; if so, fills in its operator and
/// operands.
///
/// `inline` in both build modes: its callers run it once per scalar node, and an out-of-line
/// function would not be inlined there.
inline bool view_binary(const Object& node, BinaryOp& op, const PrimExprNode*& a,
                        const PrimExprNode*& b) {
  using B = BinaryOp;
  return detail::view_binary(
      node, op, a, b,
      std::integer_sequence<B, B::add, B::sub, B::mul, B::div, B::mod, B::min, B::max, B::eq, B::ne,
                            B::lt, B::le, B::gt, B::ge, B::logical_and, B::logical_or>{});
}

} // namespace ctir
