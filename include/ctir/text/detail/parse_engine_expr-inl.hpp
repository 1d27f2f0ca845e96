// Definitions of the parse engine (<ctir/text/detail/parse_engine-inl.hpp>).
// Expressions: operators by precedence, prefixes, postfixes and primaries.
#pragma once

#include <ctir/text/detail/parse_engine.hpp>

#include <ctir/ir/builder.hpp> // known_dtype_of_node
#include <ctir/ir/type_str.hpp>
#include <ctir/text/detail/parse_literal.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

CTIR_INLINE Expr ParseEngine::expr(Ctx ctx) {
  DepthGuard guard(*this, pos_);
  return binary(0, ctx);
}

CTIR_INLINE PrimExpr ParseEngine::as_prim(const Expr& e, std::size_t token) {
  if (const auto* prim = e.as<PrimExprNode>()) {
    return ref_of(prim);
  }
  fail_at(token, "expected a scalar expression, but this is " + kind_of(e));
}

CTIR_INLINE std::string ParseEngine::kind_of(const Expr& e) {
  switch (e->dynamic_type_index()) {
  case CallNode::type_index:
    return "a call";
  case TupleNode::type_index:
    return "a tuple";
  case TupleGetItemNode::type_index:
    return "a tuple projection";
  case LetNode::type_index:
    return "a let";
  case IfNode::type_index:
    return "an if";
  case FunctionNode::type_index:
    return "a closure";
  case CallDpsNode::type_index:
    return "a call_dps";
  case ConstantNode::type_index:
    return "a tensor constant";
  case GlobalVarNode::type_index:
    return "a global";
  case OpNode::type_index:
    return "an operator";
  case VarNode::type_index:
    return "a variable";
  default:
    return e.is<PrimExprNode>() ? "a scalar expression" : "a " + std::string(e->dynamic_type_key());
  }
}

CTIR_INLINE std::optional<ParseEngine::BinaryInfo> ParseEngine::binary_of(Tok kind) {
  switch (kind) {
  case Tok::or_or:
    return BinaryInfo{BinaryOp::logical_or, 3};
  case Tok::and_and:
    return BinaryInfo{BinaryOp::logical_and, 4};
  case Tok::eq:
    return BinaryInfo{BinaryOp::eq, 7};
  case Tok::ne:
    return BinaryInfo{BinaryOp::ne, 7};
  case Tok::lt:
    return BinaryInfo{BinaryOp::lt, 8};
  case Tok::le:
    return BinaryInfo{BinaryOp::le, 8};
  case Tok::gt:
    return BinaryInfo{BinaryOp::gt, 8};
  case Tok::ge:
    return BinaryInfo{BinaryOp::ge, 8};
  case Tok::plus:
    return BinaryInfo{BinaryOp::add, 10};
  case Tok::minus:
    return BinaryInfo{BinaryOp::sub, 10};
  case Tok::star:
    return BinaryInfo{BinaryOp::mul, 11};
  case Tok::slash:
    return BinaryInfo{BinaryOp::div, 11};
  case Tok::percent:
    return BinaryInfo{BinaryOp::mod, 11};
  default:
    return std::nullopt;
  }
}

CTIR_INLINE Expr ParseEngine::binary(int min_precedence, Ctx ctx) {
  const std::size_t start = pos_;
  Expr lhs = unary(ctx);
  while (true) {
    const std::optional<BinaryInfo> info = binary_of(tok().kind);
    if (!info || info->precedence < min_precedence) {
      return lhs;
    }
    const std::size_t op_token = advance();
    const std::size_t rhs_token = pos_;
    Expr rhs = binary(info->precedence + 1, ctx);
    if (info->op == BinaryOp::logical_and || info->op == BinaryOp::logical_or) {
      check_logical_operand(lhs, start, op_token);
      check_logical_operand(rhs, rhs_token, op_token);
    }
    lhs = make_binary(info->op, operand(lhs, start, op_token), operand(rhs, rhs_token, op_token),
                      start);
  }
}

CTIR_INLINE PrimExpr ParseEngine::operand(const Expr& e, std::size_t token, std::size_t op_token) {
  if (const auto* prim = e.as<PrimExprNode>()) {
    return ref_of(prim);
  }
  fail_at(token, "the operands of '" + std::string(text_of(tokens_[op_token])) +
                     "' must be scalar expressions, but this is " + kind_of(e) +
                     " (graph-level values are combined by operator calls, such as "
                     "'add(%a, %b)')");
}

CTIR_INLINE std::optional<DataType> ParseEngine::known_dtype(const Expr& e) {
  return ctir::detail::known_dtype_of_node(e.as<PrimExprNode>());
}

CTIR_INLINE std::string ParseEngine::type_name(const Expr& e, DataType dtype) {
  // A tensor variable (a graph-level condition) is named by its whole type.
  if (const auto* var = e.as<VarNode>(); var != nullptr && var->ty.is<TensorTypeNode>()) {
    return type_str(var->ty);
  }
  return dtype.str();
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_not_bool(std::size_t token,
                                                              const std::string& found,
                                                              std::string_view what) const {
  fail_at(token, "expected a bool " + std::string(what) + ", found " + found + " (" +
                     (found.starts_with("Tensor")
                          ? "a graph-level condition is a tensor of bools, such as Tensor[(), bool]"
                          : "compare it with zero, as in 'x != 0', to get a bool") +
                     ")");
}

CTIR_INLINE void ParseEngine::check_bool(const Expr& e, std::size_t token,
                                         std::string_view what) const {
  if (const std::optional<DataType> dtype = known_dtype(e); dtype && !dtype->is_bool()) {
    fail_not_bool(token, type_name(e, *dtype), what);
  }
}

CTIR_INLINE void ParseEngine::check_logical_operand(const Expr& e, std::size_t token,
                                                    std::size_t op_token) const {
  check_bool(e, token, "operand of '" + std::string(text_of(tokens_[op_token])) + "'");
}

CTIR_INLINE void ParseEngine::check_dimension(const PrimExpr& e, std::size_t token) const {
  const std::optional<DataType> dtype = known_dtype(e);
  if (dtype && !dtype->is_integer()) {
    fail_at(token, "expected a tensor dimension of an integer type, found " + dtype->str() +
                       " (a dimension is an integer literal, an integer shape variable or an "
                       "integer expression of them)");
  }
}

CTIR_INLINE Expr ParseEngine::make_binary(BinaryOp op, PrimExpr a, PrimExpr b, std::size_t start) {
  switch (op) {
  case BinaryOp::add:
    return make_binary_of<BinaryOp::add>(std::move(a), std::move(b), start);
  case BinaryOp::sub:
    return make_binary_of<BinaryOp::sub>(std::move(a), std::move(b), start);
  case BinaryOp::mul:
    return make_binary_of<BinaryOp::mul>(std::move(a), std::move(b), start);
  case BinaryOp::div:
    return make_binary_of<BinaryOp::div>(std::move(a), std::move(b), start);
  case BinaryOp::mod:
    return make_binary_of<BinaryOp::mod>(std::move(a), std::move(b), start);
  case BinaryOp::min:
    return make_binary_of<BinaryOp::min>(std::move(a), std::move(b), start);
  case BinaryOp::max:
    return make_binary_of<BinaryOp::max>(std::move(a), std::move(b), start);
  case BinaryOp::eq:
    return make_binary_of<BinaryOp::eq>(std::move(a), std::move(b), start);
  case BinaryOp::ne:
    return make_binary_of<BinaryOp::ne>(std::move(a), std::move(b), start);
  case BinaryOp::lt:
    return make_binary_of<BinaryOp::lt>(std::move(a), std::move(b), start);
  case BinaryOp::le:
    return make_binary_of<BinaryOp::le>(std::move(a), std::move(b), start);
  case BinaryOp::gt:
    return make_binary_of<BinaryOp::gt>(std::move(a), std::move(b), start);
  case BinaryOp::ge:
    return make_binary_of<BinaryOp::ge>(std::move(a), std::move(b), start);
  case BinaryOp::logical_and:
    return make_binary_of<BinaryOp::logical_and>(std::move(a), std::move(b), start);
  case BinaryOp::logical_or:
    return make_binary_of<BinaryOp::logical_or>(std::move(a), std::move(b), start);
  }
  return {};
}

CTIR_INLINE bool ParseEngine::negative_literal_ahead() const {
  if (tok().kind != Tok::minus || tok(1).offset != tok().end()) {
    return false;
  }
  if (tok(1).kind == Tok::number) {
    return true;
  }
  double value = 0;
  DataType dtype;
  return tok(1).kind == Tok::word && float_word(text_of(tok(1)), value, dtype);
}

CTIR_INLINE Expr ParseEngine::unary(Ctx ctx) {
  std::vector<std::size_t> ops;
  while ((tok().kind == Tok::minus && !negative_literal_ahead()) || tok().kind == Tok::bang) {
    ops.push_back(advance());
  }
  const std::size_t operand_token = pos_;
  Expr result = postfix(ctx);
  // The operand's type, looked up once and carried through the run (a negation keeps it,
  // a `!` makes a bool): looking it up at every prefix would make a run quadratic.
  std::optional<DataType> dtype = ops.empty() ? std::nullopt : known_dtype(result);
  for (std::size_t k = ops.size(); k-- > 0;) {
    const std::size_t op_token = ops[k];
    PrimExpr a = operand(result, k + 1 < ops.size() ? ops[k + 1] : operand_token, op_token);
    if (tokens_[op_token].kind == Tok::minus) {
      if (dtype && dtype->is_bool()) {
        fail_at(op_token, "cannot apply '-' to a bool: expected an integer or float operand, "
                          "found bool (use '!' to negate a bool)");
      }
      Owned<NegNode> node = make_object<NegNode>();
      node->a = std::move(a);
      result = finish(std::move(node), op_token);
    } else {
      // Only the innermost `!` can find a non-bool: every `!` makes a bool.
      if (dtype && !dtype->is_bool()) {
        fail_not_bool(k + 1 < ops.size() ? ops[k + 1] : operand_token, type_name(a, *dtype),
                      "operand of '!'");
      }
      Owned<NotNode> node = make_object<NotNode>();
      node->a = std::move(a);
      result = finish(std::move(node), op_token);
      dtype = DataType::boolean();
    }
  }
  return result;
}

CTIR_INLINE Expr ParseEngine::postfix(Ctx ctx) {
  const std::size_t start = pos_;
  Expr result = primary(ctx);
  while (true) {
    const Tok kind = tok().kind;
    if (kind == Tok::lbracket) {
      result = load(std::move(result), start);
    } else if (ctx == Ctx::graph && kind == Tok::dot) {
      result = projection(std::move(result), start);
    } else if (ctx == Ctx::graph && kind == Tok::lparen) {
      if ((result.is<PrimExprNode>() && !result.is<VarNode>()) || result.is<ConstantNode>()) {
        fail_not(result, "called");
      }
      // An operator reached through a temporary or parentheses is checked like a
      // direct call: the printer writes both the same way.
      const OpDef* def = nullptr;
      if (const auto* op = result.as<OpNode>()) {
        def = OpRegistry::global().find(op->name);
      }
      result = call_args(std::move(result), start, def, start);
    } else {
      return result;
    }
  }
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_not(const Expr& e,
                                                         std::string_view what) const {
  fail(tok(), kind_of(e) + " cannot be " + std::string(what));
}

CTIR_INLINE Expr ParseEngine::load(Expr source, std::size_t start) {
  if (!source.is<VarNode>()) {
    fail_not(source, "indexed (only a variable can)");
  }
  advance();
  Owned<TensorLoadNode> node = make_object<TensorLoadNode>();
  node->source = downcast<VarNode>(source);
  node->indices = prim_list(Tok::rbracket);
  expect(Tok::rbracket);
  return finish(std::move(node), start);
}

CTIR_INLINE Expr ParseEngine::projection(Expr tuple, std::size_t start) {
  if (tuple.is<PrimExprNode>() && !tuple.is<VarNode>()) {
    fail_not(tuple, "projected (only a tuple can)");
  }
  advance();
  const std::size_t index_token = expect(Tok::number);
  NumberValue index;
  if (decode_number(text_of(tokens_[index_token]), false, DataType::int64(), index) ||
      !index.dtype.is_integer()) {
    fail_at(index_token,
            "invalid projection index '" + std::string(text_of(tokens_[index_token])) + "'");
  }
  Owned<TupleGetItemNode> item = make_object<TupleGetItemNode>();
  item->tuple = std::move(tuple);
  item->index = index.int_value;
  return finish(std::move(item), start);
}

CTIR_INLINE Expr ParseEngine::primary(Ctx ctx) {
  switch (tok().kind) {
  case Tok::local:
    return use_local(advance());
  case Tok::global:
    if (ctx == Ctx::graph) {
      return use_global(advance(), false);
    }
    break;
  case Tok::number:
    return number_literal(false);
  case Tok::minus:
    // unary() lets a `-` through only when it is the sign of a literal.
    advance();
    return number_literal(true);
  case Tok::lparen:
    return parenthesized(ctx);
  case Tok::lbrace:
    if (ctx == Ctx::graph) {
      return braced_body();
    }
    break;
  case Tok::word:
    return word_primary(ctx);
  default:
    break;
  }
  fail_expected(ctx == Ctx::graph ? "an expression" : "a scalar expression");
}

CTIR_INLINE Expr ParseEngine::parenthesized(Ctx ctx) {
  const std::size_t start = advance();
  if (ctx == Ctx::graph && tok().kind == Tok::rparen) {
    advance();
    return finish(make_object<TupleNode>(), start);
  }
  Expr first = expr(ctx);
  if (ctx == Ctx::graph && tok().kind == Tok::comma) {
    Owned<TupleNode> tuple = make_object<TupleNode>();
    tuple->fields.push_back(std::move(first));
    while (tok().kind == Tok::comma) {
      advance();
      if (tok().kind == Tok::rparen) {
        break;
      }
      tuple->fields.push_back(expr(ctx));
    }
    expect(Tok::rparen);
    return finish(std::move(tuple), start);
  }
  expect(Tok::rparen);
  return first;
}

CTIR_INLINE Expr ParseEngine::word_primary(Ctx ctx) {
  const std::string_view word = text_of(tok());
  if (word == "true" || word == "false") {
    return int_imm(word == "true" ? 1 : 0, DataType::boolean(), advance());
  }
  double value = 0;
  DataType dtype;
  if (float_word(word, value, dtype)) {
    return number_literal(false);
  }
  const bool called = tok(1).kind == Tok::lparen;
  if ((word == "min" || word == "max") && called) {
    return min_max(ctx);
  }
  if (word == "select" && called) {
    return select_expr(ctx);
  }
  if (word == "cast" && tok(1).kind == Tok::lt) {
    return cast_expr(ctx);
  }
  if (ctx == Ctx::prim) {
    if (called && OpRegistry::global().find(word) != nullptr) {
      fail(tok(), "expected a scalar expression but found " + describe(tok()) +
                      ", an operator on whole tensors (operators are called in graph-level "
                      "functions, 'def'; tensor-level code computes element by element, as in "
                      "'%A[%i] * 2f')");
    }
    fail_expected("a scalar expression");
  }
  if (word == "const" && called) {
    return constant();
  }
  if (word == "fn") {
    return closure();
  }
  if (word == "if") {
    return if_expr();
  }
  if (word == "call_dps") {
    return call_dps();
  }
  return operator_primary();
}

CTIR_INLINE Expr ParseEngine::min_max(Ctx ctx) {
  const std::size_t start = advance();
  const bool is_min = text_of(tokens_[start]) == "min";
  advance();
  PrimExpr a = scalar_operand(ctx);
  expect(Tok::comma);
  PrimExpr b = scalar_operand(ctx);
  expect(Tok::rparen);
  return make_binary(is_min ? BinaryOp::min : BinaryOp::max, std::move(a), std::move(b), start);
}

CTIR_INLINE Expr ParseEngine::select_expr(Ctx ctx) {
  const std::size_t start = advance();
  advance();
  Owned<SelectNode> node = make_object<SelectNode>();
  const std::size_t cond_token = pos_;
  node->cond = scalar_operand(ctx);
  check_bool(node->cond, cond_token, "condition of 'select'");
  expect(Tok::comma);
  node->true_value = scalar_operand(ctx);
  expect(Tok::comma);
  node->false_value = scalar_operand(ctx);
  expect(Tok::rparen);
  return finish(std::move(node), start);
}

CTIR_INLINE Expr ParseEngine::cast_expr(Ctx ctx) {
  const std::size_t start = advance();
  advance();
  Owned<CastNode> node = make_object<CastNode>();
  node->dtype = dtype();
  expect(Tok::gt);
  expect(Tok::lparen);
  node->value = scalar_operand(ctx);
  expect(Tok::rparen);
  return finish(std::move(node), start);
}

CTIR_INLINE PrimExpr ParseEngine::scalar_operand(Ctx ctx) {
  const std::size_t start = pos_;
  return as_prim(expr(ctx), start);
}

} // namespace ctir::detail
