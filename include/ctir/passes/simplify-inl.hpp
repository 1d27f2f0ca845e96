// Definitions of <ctir/passes/simplify.hpp>.
#pragma once

#include <ctir/passes/simplify.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/detail/tensor_utils.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <cstdint>
#include <optional>
#include <utility>

namespace ctir::passes {

namespace detail {

template <BinaryOp Op>
bool view_one_binary(const Object& node, BinaryOp& op, PrimExpr& a, PrimExpr& b) {
  if (node.dynamic_type_index() != BinaryNode<Op>::type_index) {
    return false;
  }
  const auto& binary = static_cast<const BinaryNode<Op>&>(node);
  op = Op;
  a = binary.a;
  b = binary.b;
  return true;
}

/// Whether `node` is a binary operator; fills in the operator and the operands.
CTIR_INLINE bool view_binary(const Object& node, BinaryOp& op, PrimExpr& a, PrimExpr& b) {
  using enum BinaryOp;
  return view_one_binary<add>(node, op, a, b) || view_one_binary<sub>(node, op, a, b) ||
         view_one_binary<mul>(node, op, a, b) || view_one_binary<div>(node, op, a, b) ||
         view_one_binary<mod>(node, op, a, b) || view_one_binary<min>(node, op, a, b) ||
         view_one_binary<max>(node, op, a, b) || view_one_binary<eq>(node, op, a, b) ||
         view_one_binary<ne>(node, op, a, b) || view_one_binary<lt>(node, op, a, b) ||
         view_one_binary<le>(node, op, a, b) || view_one_binary<gt>(node, op, a, b) ||
         view_one_binary<ge>(node, op, a, b) || view_one_binary<logical_and>(node, op, a, b) ||
         view_one_binary<logical_or>(node, op, a, b);
}

/// Whether `e` is a literal equal to `value` (in its own dtype).
CTIR_INLINE bool is_literal(const PrimExpr& e, double value) {
  const std::optional<eval::Scalar> v = literal_value(e);
  return v.has_value() && !v->dtype.is_bool() && v->as_double() == value;
}

/// Folds `a op b` when both are literals; nothing when the interpreter would fail
/// (integer division by zero, mixed float and integer operands).
CTIR_INLINE std::optional<PrimExpr> fold_binary(BinaryOp op, const PrimExpr& a, const PrimExpr& b) {
  const std::optional<eval::Scalar> x = literal_value(a);
  const std::optional<eval::Scalar> y = literal_value(b);
  if (!x || !y) {
    return std::nullopt;
  }
  if ((op == BinaryOp::div || op == BinaryOp::mod) && !x->is_float() && !y->is_float() &&
      y->i == 0) {
    return std::nullopt; // an error at run time: keep it there
  }
  try {
    return literal_of(eval::binary(op, *x, *y));
  } catch (const Error&) {
    return std::nullopt;
  }
}

/// The identities of `a op b` whose result is one of the operands or a literal.
CTIR_INLINE std::optional<PrimExpr> binary_identity(BinaryOp op, const PrimExpr& a,
                                                    const PrimExpr& b) {
  const DataType ta = dtype_of(a);
  const DataType tb = dtype_of(b);
  if (ta.is_float() != tb.is_float()) {
    return std::nullopt; // mixed operands are an error at run time: keep it there
  }
  // The result has a's dtype; an identity that returns b needs b to have it too.
  const bool same_dtype = ta == tb;
  const bool integer = ta.is_integer();
  switch (op) {
  case BinaryOp::add:
    // x + 0 is not x for floats (-0 + 0 is +0).
    if (integer && is_literal(b, 0)) {
      return a;
    }
    if (integer && same_dtype && is_literal(a, 0)) {
      return b;
    }
    break;
  case BinaryOp::sub:
    if ((integer || ta.is_float()) && is_literal(b, 0)) {
      return a;
    }
    if (integer && structural_equal(a, b)) {
      return make_const(ta, 0);
    }
    break;
  case BinaryOp::mul:
    if ((integer || ta.is_float()) && is_literal(b, 1)) {
      return a;
    }
    if ((integer || ta.is_float()) && same_dtype && is_literal(a, 1)) {
      return b;
    }
    if (integer && (is_literal(b, 0) || (same_dtype && is_literal(a, 0)))) {
      return make_const(ta, 0);
    }
    break;
  case BinaryOp::div:
    if ((integer || ta.is_float()) && is_literal(b, 1)) {
      return a;
    }
    break;
  case BinaryOp::mod:
    if (integer && is_literal(b, 1)) {
      return make_const(ta, 0);
    }
    break;
  case BinaryOp::min:
  case BinaryOp::max:
    if (same_dtype && structural_equal(a, b)) {
      return a;
    }
    break;
  default:
    break;
  }
  return std::nullopt;
}

/// One expression node simplified, its operands already simplified.
CTIR_INLINE PrimExpr simplify_node(const PrimExpr& e) {
  BinaryOp op{};
  PrimExpr a;
  PrimExpr b;
  if (view_binary(*e, op, a, b)) {
    if (std::optional<PrimExpr> folded = fold_binary(op, a, b)) {
      return *folded;
    }
    if (std::optional<PrimExpr> identity = binary_identity(op, a, b)) {
      return *identity;
    }
    return e;
  }
  if (const auto* neg = e.as<NegNode>()) {
    if (std::optional<eval::Scalar> v = literal_value(neg->a)) {
      return literal_of(eval::negate(*v));
    }
    if (const auto* inner = neg->a.as<NegNode>()) {
      return inner->a; // -(-x) is x, also when it wraps
    }
    return e;
  }
  if (const auto* negation = e.as<NotNode>()) {
    if (std::optional<eval::Scalar> v = literal_value(negation->a)) {
      return literal_of(eval::logical_not(*v));
    }
    if (const auto* inner = negation->a.as<NotNode>()) {
      if (dtype_of(inner->a).is_bool()) {
        return inner->a;
      }
    }
    return e;
  }
  if (const auto* cast = e.as<CastNode>()) {
    if (std::optional<eval::Scalar> v = literal_value(cast->value)) {
      return literal_of(eval::cast(cast->dtype, *v));
    }
    if (dtype_of(cast->value) == cast->dtype) {
      return cast->value;
    }
    return e;
  }
  if (const auto* select = e.as<SelectNode>()) {
    const DataType result = dtype_of(select->true_value);
    if (std::optional<eval::Scalar> c = literal_value(select->cond)) {
      const PrimExpr& chosen = c->truthy() ? select->true_value : select->false_value;
      if (dtype_of(chosen) == result) {
        return chosen;
      }
    }
    if (structural_equal(select->true_value, select->false_value)) {
      return select->true_value;
    }
    return e;
  }
  return e;
}

SeqStmt simplify_block(const SeqStmt& block);

/// A loop simplified: one iteration becomes its body, none becomes nothing.
CTIR_INLINE Stmt simplify_loop(const For& loop) {
  const std::optional<std::int64_t> begin = int_literal(loop->begin);
  const std::optional<std::int64_t> end = int_literal(loop->end);
  if (!begin || !end) {
    return loop;
  }
  if (*end <= *begin) {
    return SeqStmt::make({});
  }
  if (*end - 1 == *begin) { // end > begin: end - 1 cannot overflow, end - begin could
    // The substituted body has new literals to fold.
    return simplify_block(substitute(loop->body, loop->var, loop->begin));
  }
  return loop;
}

/// A conditional with a literal condition becomes the branch it takes.
CTIR_INLINE Stmt simplify_branch(const IfThenElse& branch) {
  if (std::optional<eval::Scalar> c = literal_value(branch->cond)) {
    const SeqStmt& taken = c->truthy() ? branch->then_case : branch->else_case;
    return taken.defined() ? taken : SeqStmt::make({});
  }
  return branch;
}

/// Simplifies every expression and statement in `root` (a PrimFunc or a block).
template <class Root>
Root simplify_tree(const Root& root) {
  return map(
      root, [](const PrimExpr& e) -> PrimExpr { return simplify_node(e); },
      [](const For& loop) -> Stmt { return simplify_loop(loop); },
      [](const IfThenElse& branch) -> Stmt { return simplify_branch(branch); },
      [](const SeqStmt& block) -> SeqStmt { return flatten_block(block); });
}

CTIR_INLINE SeqStmt simplify_block(const SeqStmt& block) { return simplify_tree(block); }

} // namespace detail

CTIR_INLINE PrimExpr simplify(const PrimExpr& e) {
  return map(e, [](const PrimExpr& node) -> PrimExpr { return detail::simplify_node(node); });
}

CTIR_INLINE PrimFunc simplify(const PrimFunc& f) { return detail::simplify_tree(f); }

CTIR_INLINE PrimFunc Simplify::transform_function(PrimFunc f, const IRModule&,
                                                  const PassContext&) const {
  return simplify(f);
}

} // namespace ctir::passes
