// Definitions of <ctir/ir/type_str.hpp>.
#pragma once

#include <ctir/hooks/value_traits.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/ir/var.hpp>

#include <cstddef>

namespace ctir {

namespace detail::type_str_impl {

/// Past this nesting depth the rest of a type or expression prints as `...`: error
/// messages stay readable and a pathological input cannot exhaust the stack.
inline constexpr int max_depth = 200;

/// Precedence of unary `-` and `!`, above every binary operator.
inline constexpr int unary_precedence = 12;
/// Precedence of literals, variables, calls and loads: never parenthesized.
inline constexpr int atom_precedence = 100;

void print_expr(const PrimExpr& expr, std::string& out, int depth);

template <BinaryOp... Ops>
int binary_precedence(const PrimExpr& expr, int fallback) {
  int result = fallback;
  (void)((expr.is<BinaryNode<Ops>>() ? (result = BinaryNode<Ops>::precedence, true) : false) ||
         ...);
  // min and max print as calls: atoms.
  return result == 0 ? atom_precedence : result;
}

CTIR_INLINE int precedence_of(const PrimExpr& expr) {
  if (expr.is<NegNode>() || expr.is<NotNode>()) {
    return unary_precedence;
  }
  if (const auto* imm = expr.as<IntImmNode>(); imm != nullptr && imm->value < 0) {
    return unary_precedence; // `-3` reads like a negation
  }
  if (const auto* imm = expr.as<FloatImmNode>(); imm != nullptr && imm->value < 0) {
    return unary_precedence;
  }
  return binary_precedence<BinaryOp::add, BinaryOp::sub, BinaryOp::mul, BinaryOp::div,
                           BinaryOp::mod, BinaryOp::min, BinaryOp::max, BinaryOp::eq, BinaryOp::ne,
                           BinaryOp::lt, BinaryOp::le, BinaryOp::gt, BinaryOp::ge,
                           BinaryOp::logical_and, BinaryOp::logical_or>(expr, atom_precedence);
}

/// Prints `operand`, parenthesized when its precedence is below `min_precedence`.
CTIR_INLINE void print_operand(const PrimExpr& operand, int min_precedence, std::string& out,
                               int depth) {
  const bool parens = operand.defined() && precedence_of(operand) < min_precedence;
  if (parens) {
    out += '(';
  }
  print_expr(operand, out, depth);
  if (parens) {
    out += ')';
  }
}

template <BinaryOp Op>
bool print_binary(const PrimExpr& expr, std::string& out, int depth) {
  const auto* node = expr.as<BinaryNode<Op>>();
  if (node == nullptr) {
    return false;
  }
  using Node = BinaryNode<Op>;
  if constexpr (Node::precedence == 0) {
    out += Node::symbol;
    out += '(';
    print_expr(node->a, out, depth + 1);
    out += ", ";
    print_expr(node->b, out, depth + 1);
    out += ')';
  } else {
    // Left associative: an equal-precedence right operand needs parentheses (a - (b - c)).
    print_operand(node->a, Node::precedence, out, depth + 1);
    out += ' ';
    out += Node::symbol;
    out += ' ';
    print_operand(node->b, Node::precedence + 1, out, depth + 1);
  }
  return true;
}

template <BinaryOp... Ops>
bool print_any_binary(const PrimExpr& expr, std::string& out, int depth) {
  return (print_binary<Ops>(expr, out, depth) || ...);
}

CTIR_INLINE void print_expr(const PrimExpr& expr, std::string& out, int depth) {
  if (!expr.defined()) {
    out += '?';
    return;
  }
  if (depth > max_depth) {
    out += "...";
    return;
  }
  if (const auto* imm = expr.as<IntImmNode>()) {
    if (imm->dtype.is_bool()) {
      out += imm->value != 0 ? "true" : "false";
    } else {
      out += std::to_string(imm->value);
    }
    return;
  }
  if (const auto* imm = expr.as<FloatImmNode>()) {
    out += shortest_float(imm->value);
    out += imm->dtype.bits == 64 ? "f64" : imm->dtype.bits == 16 ? "f16" : "f";
    return;
  }
  if (const auto* var = expr.as<VarNode>()) {
    out += '%';
    out += var->name.empty() ? std::string("_") : var->name;
    return;
  }
  if (print_any_binary<BinaryOp::add, BinaryOp::sub, BinaryOp::mul, BinaryOp::div, BinaryOp::mod,
                       BinaryOp::min, BinaryOp::max, BinaryOp::eq, BinaryOp::ne, BinaryOp::lt,
                       BinaryOp::le, BinaryOp::gt, BinaryOp::ge, BinaryOp::logical_and,
                       BinaryOp::logical_or>(expr, out, depth)) {
    return;
  }
  if (const auto* neg = expr.as<NegNode>()) {
    out += '-';
    print_operand(neg->a, unary_precedence + 1, out, depth + 1);
    return;
  }
  if (const auto* negation = expr.as<NotNode>()) {
    out += '!';
    print_operand(negation->a, unary_precedence + 1, out, depth + 1);
    return;
  }
  if (const auto* sel = expr.as<SelectNode>()) {
    out += "select(";
    print_expr(sel->cond, out, depth + 1);
    out += ", ";
    print_expr(sel->true_value, out, depth + 1);
    out += ", ";
    print_expr(sel->false_value, out, depth + 1);
    out += ')';
    return;
  }
  if (const auto* cast_node = expr.as<CastNode>()) {
    out += "cast<";
    out += cast_node->dtype.str();
    out += ">(";
    print_expr(cast_node->value, out, depth + 1);
    out += ')';
    return;
  }
  if (const auto* load_node = expr.as<TensorLoadNode>()) {
    print_expr(load_node->source, out, depth + 1);
    out += '[';
    for (std::size_t i = 0; i < load_node->indices.size(); ++i) {
      out += i == 0 ? "" : ", ";
      print_expr(load_node->indices[i], out, depth + 1);
    }
    out += ']';
    return;
  }
  // A node type registered at run time: its key says at least what it is.
  out += '<';
  out += expr->dynamic_type_key();
  out += '>';
}

CTIR_INLINE void print_shape(const std::vector<PrimExpr>& shape, std::string& out, int depth) {
  out += '(';
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out += i == 0 ? "" : ", ";
    print_expr(shape[i], out, depth + 1);
  }
  out += ')';
}

CTIR_INLINE void print_type(const Type& type, std::string& out, int depth) {
  if (!type.defined()) {
    out += '?';
    return;
  }
  if (depth > max_depth) {
    out += "...";
    return;
  }
  if (const auto* prim = type.as<PrimTypeNode>()) {
    out += prim->dtype.str();
  } else if (const auto* tensor = type.as<TensorTypeNode>()) {
    out += "Tensor[";
    print_shape(tensor->shape, out, depth);
    out += ", ";
    out += tensor->dtype.str();
    out += ']';
  } else if (const auto* tuple = type.as<TupleTypeNode>()) {
    out += "Tuple[";
    for (std::size_t i = 0; i < tuple->fields.size(); ++i) {
      out += i == 0 ? "" : ", ";
      print_type(tuple->fields[i], out, depth + 1);
    }
    out += ']';
  } else if (const auto* func = type.as<FuncTypeNode>()) {
    out += "fn (";
    for (std::size_t i = 0; i < func->params.size(); ++i) {
      out += i == 0 ? "" : ", ";
      print_type(func->params[i], out, depth + 1);
    }
    out += ") -> ";
    print_type(func->ret, out, depth + 1);
  } else {
    out += '<';
    out += type->dynamic_type_key();
    out += '>';
  }
}

} // namespace detail::type_str_impl

CTIR_INLINE std::string prim_expr_str(const PrimExpr& expr) {
  std::string out;
  detail::type_str_impl::print_expr(expr, out, 0);
  return out;
}

CTIR_INLINE std::string shape_str(const std::vector<PrimExpr>& shape) {
  std::string out;
  detail::type_str_impl::print_shape(shape, out, 0);
  return out;
}

CTIR_INLINE std::string type_str(const Type& type) {
  std::string out;
  detail::type_str_impl::print_type(type, out, 0);
  return out;
}

} // namespace ctir
