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

CTIR_INLINE PrimExpr ParseEngine::as_prim(const Expr& e, std::size_t token) {
  check_prim(e, token);
  return ref_of(static_cast<const PrimExprNode*>(e.get()));
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_not_prim(const Expr& e,
                                                              std::size_t token) const {
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

CTIR_INLINE Expr ParseEngine::expr(Ctx ctx) {
  DepthGuard guard(*this, pos_);
  // The commonest expressions, a variable or a number alone (an argument, an index, a
  // value): no stacks. What follows them cannot continue an expression.
  switch (tok(1).kind) {
  case Tok::comma:
  case Tok::rparen:
  case Tok::rbracket:
  case Tok::semicolon:
  case Tok::rbrace:
    if (tok().kind == Tok::local) {
      return use_local(advance());
    }
    if (tok().kind == Tok::number) {
      return number_literal(false);
    }
    break;
  default:
    break;
  }
  ExprStacks& s = expr_;
  s.forms.push_back(
      ExprForm{Form::top, pos_, pos_, pos_, s.operands.size(), s.operators.size(), pos_});
  bool want_operand = true;
  while (true) {
    if (want_operand) {
      // Prefixes, gathered in a run, then a form that opens or a primary.
      const std::size_t start = pos_;
      std::size_t run = 0;
      while ((tok().kind == Tok::minus && !negative_literal_ahead()) || tok().kind == Tok::bang) {
        s.prefixes.push_back(advance());
        ++run;
      }
      if (run > 0) {
        s.operators.push_back(ExprOperator{start, run});
      }
      const std::size_t primary = pos_;
      if (tok().kind == Tok::local) {
        // The most common operand, without the calls below.
        Expr value = use_local(advance());
        s.operands.push_back(ExprOperand{std::move(value), start, primary});
        want_operand = false;
      } else if (!open_form(ctx, start, primary)) {
        Expr value = leaf(ctx);
        s.operands.push_back(ExprOperand{std::move(value), start, primary});
        want_operand = false;
      }
      continue;
    }
    // The operand on top takes its postfixes, then its prefixes; a binary operator or the
    // end of an item follows.
    const Tok kind = tok().kind;
    if (kind == Tok::lbracket) {
      want_operand = open_load();
      continue;
    }
    if (ctx == Ctx::graph && kind == Tok::dot) {
      ExprOperand& top = s.operands.back();
      top.value = projection(std::move(top.value), top.primary);
      continue;
    }
    if (ctx == Ctx::graph && kind == Tok::lparen) {
      call_operand();
      continue;
    }
    if (s.operators.size() > s.forms.back().operators) {
      apply_prefixes();
    }
    if (const std::optional<BinaryInfo> info = binary_of(kind)) {
      if (s.operators.size() > s.forms.back().operators) {
        reduce(info->precedence);
      }
      s.operators.push_back(ExprOperator{advance(), 0, info->precedence, info->op});
      want_operand = true;
      continue;
    }
    if (s.operators.size() > s.forms.back().operators) {
      reduce(0);
    }
    switch (end_item(ctx)) {
    case ItemEnd::done: {
      Expr result = std::move(s.operands.back().value);
      s.operands.pop_back();
      s.forms.pop_back();
      return result;
    }
    case ItemEnd::next:
      want_operand = true;
      break;
    case ItemEnd::closed:
      break;
    }
  }
}

CTIR_INLINE bool ParseEngine::open_form(Ctx ctx, std::size_t start, std::size_t primary) {
  const std::size_t open = pos_;
  Form kind = Form::paren;
  DataType cast_to{};
  if (tok().kind == Tok::lparen) {
    if (ctx == Ctx::graph && tok(1).kind == Tok::rparen) {
      return false; // `()`, the empty tuple: a leaf
    }
    advance();
  } else if (tok().kind == Tok::word && tok(1).kind == Tok::lparen &&
             (text_of(tok()) == "min" || text_of(tok()) == "max" || text_of(tok()) == "select")) {
    const std::string_view word = text_of(tok());
    kind = word == "min" ? Form::min : (word == "max" ? Form::max : Form::select);
    advance();
    advance();
  } else if (is_word(0, "cast") && tok(1).kind == Tok::lt) {
    kind = Form::cast;
    advance();
    advance();
    cast_to = dtype();
    expect(Tok::gt);
    expect(Tok::lparen);
  } else {
    return false;
  }
  ExprStacks& s = expr_;
  s.forms.push_back(
      ExprForm{kind, open, start, primary, s.operands.size(), s.operators.size(), pos_, cast_to});
  return true;
}

CTIR_INLINE Expr ParseEngine::leaf(Ctx ctx) {
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
    // The expression loop lets a `-` through only when it is the sign of a literal.
    advance();
    return number_literal(true);
  case Tok::lparen: {
    // Only `()` (graph-level) gets here: open_form opens every other parenthesis.
    const std::size_t start = advance();
    advance();
    return finish(make_object<TupleNode>(), start);
  }
  case Tok::lbrace:
    if (ctx == Ctx::graph) {
      return braced_body();
    }
    break;
  case Tok::word: {
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
    if (ctx == Ctx::prim) {
      if (called && OpRegistry::global().find(word) != nullptr) {
        fail(tok(), "expected a scalar expression but found " + describe(tok()) +
                        ", an operator on whole tensors (operators are called in graph-level "
                        "functions, 'def'; tensor-level code computes element by element, as in "
                        "'%A[%i] * 2f')");
      }
      break;
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
  default:
    break;
  }
  fail_expected(ctx == Ctx::graph ? "an expression" : "a scalar expression");
}

CTIR_INLINE void ParseEngine::reduce(int min_precedence) {
  ExprStacks& s = expr_;
  const std::size_t base = s.forms.back().operators;
  while (s.operators.size() > base && s.operators.back().prefixes == 0 &&
         s.operators.back().precedence >= min_precedence) {
    const ExprOperator op = s.operators.back();
    s.operators.pop_back();
    ExprOperand rhs = std::move(s.operands.back());
    s.operands.pop_back();
    ExprOperand& lhs = s.operands.back();
    if (op.op == BinaryOp::logical_and || op.op == BinaryOp::logical_or) {
      check_logical_operand(lhs.value, lhs.start, op.token);
      check_logical_operand(rhs.value, rhs.start, op.token);
    }
    lhs.value = make_binary(op.op, operand(lhs.value, lhs.start, op.token),
                            operand(rhs.value, rhs.start, op.token), lhs.start);
  }
}

CTIR_INLINE void ParseEngine::apply_prefixes() {
  ExprStacks& s = expr_;
  if (s.operators.size() == s.forms.back().operators || s.operators.back().prefixes == 0) {
    return;
  }
  const std::size_t run = s.operators.back().prefixes;
  s.operators.pop_back();
  const std::size_t first = s.prefixes.size() - run;
  ExprOperand& top = s.operands.back();
  Expr result = std::move(top.value);
  // The operand's type, looked up once and carried through the run (a negation keeps it,
  // a `!` makes a bool): looking it up at every prefix would make a run quadratic.
  std::optional<DataType> dtype = known_dtype(result);
  for (std::size_t k = run; k-- > 0;) {
    const std::size_t op_token = s.prefixes[first + k];
    const std::size_t operand_token = k + 1 < run ? s.prefixes[first + k + 1] : top.primary;
    PrimExpr a = operand(result, operand_token, op_token);
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
        fail_not_bool(operand_token, type_name(a, *dtype), "operand of '!'");
      }
      Owned<NotNode> node = make_object<NotNode>();
      node->a = std::move(a);
      result = finish(std::move(node), op_token);
      dtype = DataType::boolean();
    }
  }
  top.value = std::move(result);
  s.prefixes.resize(first);
}

CTIR_INLINE ParseEngine::ItemEnd ParseEngine::end_item(Ctx ctx) {
  ExprStacks& s = expr_;
  ExprForm& form = s.forms.back();
  const std::size_t items = s.operands.size() - form.operands;
  if (form.kind == Form::paren && ctx == Ctx::graph && tok().kind == Tok::comma) {
    form.kind = Form::tuple;
  }
  switch (form.kind) {
  case Form::top:
    return ItemEnd::done;
  case Form::paren:
    expect(Tok::rparen);
    break; // the operand is the parenthesized value itself
  case Form::tuple: {
    if (tok().kind == Tok::comma) {
      advance();
      if (tok().kind != Tok::rparen) {
        form.item = pos_;
        return ItemEnd::next;
      }
    }
    expect(Tok::rparen);
    Owned<TupleNode> tuple = make_object<TupleNode>();
    for (std::size_t k = form.operands; k < s.operands.size(); ++k) {
      tuple->fields.push_back(std::move(s.operands[k].value));
    }
    s.operands.resize(form.operands);
    s.operands.push_back(ExprOperand{finish(std::move(tuple), form.open), 0, 0});
    break;
  }
  case Form::min:
  case Form::max:
  case Form::select:
  case Form::cast: {
    const Expr& item = s.operands.back().value;
    check_prim(item, form.item);
    if (form.kind == Form::select && items == 1) {
      check_bool(item, form.item, "condition of 'select'");
    }
    const std::size_t arity = form.kind == Form::select ? 3 : (form.kind == Form::cast ? 1 : 2);
    if (items < arity) {
      expect(Tok::comma);
      form.item = pos_;
      return ItemEnd::next;
    }
    expect(Tok::rparen);
    // Every item was checked to be scalar as it ended.
    const auto at = [&](std::size_t k) {
      return downcast<PrimExprNode>(s.operands[form.operands + k].value);
    };
    Expr made;
    if (form.kind == Form::select) {
      Owned<SelectNode> node = make_object<SelectNode>();
      node->cond = at(0);
      node->true_value = at(1);
      node->false_value = at(2);
      made = finish(std::move(node), form.open);
    } else if (form.kind == Form::cast) {
      Owned<CastNode> node = make_object<CastNode>();
      node->dtype = form.dtype;
      node->value = at(0);
      made = finish(std::move(node), form.open);
    } else {
      made = make_binary(form.kind == Form::min ? BinaryOp::min : BinaryOp::max, at(0), at(1),
                         form.open);
    }
    s.operands.resize(form.operands);
    s.operands.push_back(ExprOperand{std::move(made), 0, 0});
    break;
  }
  case Form::load: {
    check_prim(s.operands.back().value, form.item);
    if (tok().kind == Tok::comma) {
      advance();
      form.item = pos_;
      return ItemEnd::next;
    }
    expect(Tok::rbracket);
    Owned<TensorLoadNode> node = make_object<TensorLoadNode>();
    node->source = downcast<VarNode>(s.operands[form.operands - 1].value);
    for (std::size_t k = form.operands; k < s.operands.size(); ++k) {
      node->indices.push_back(downcast<PrimExprNode>(s.operands[k].value));
    }
    s.operands.resize(form.operands - 1);
    s.operands.push_back(ExprOperand{finish(std::move(node), form.primary), 0, 0});
    break;
  }
  }
  // The form made the operand on top, which starts where the form did.
  s.operands.back().start = form.start;
  s.operands.back().primary = form.primary;
  s.forms.pop_back();
  return ItemEnd::closed;
}

CTIR_INLINE bool ParseEngine::open_load() {
  ExprStacks& s = expr_;
  const ExprOperand& source = s.operands.back();
  if (!source.value.is<VarNode>()) {
    fail_not(source.value, "indexed (only a variable can)");
  }
  const std::size_t open = advance();
  // `%A[]`, and `%A[%i]`, the commonest load, need no form.
  const bool single = tok().kind == Tok::local && tok(1).kind == Tok::rbracket;
  if (tok().kind == Tok::rbracket || single) {
    Owned<TensorLoadNode> node = make_object<TensorLoadNode>();
    if (single) {
      const std::size_t index_token = advance();
      Expr index = use_local(index_token);
      check_prim(index, index_token);
      node->indices.push_back(downcast<PrimExprNode>(index));
    }
    advance();
    node->source = downcast<VarNode>(s.operands.back().value);
    s.operands.back().value = finish(std::move(node), s.operands.back().primary);
    return false;
  }
  s.forms.push_back(ExprForm{Form::load, open, source.start, source.primary, s.operands.size(),
                             s.operators.size(), pos_});
  return true;
}

CTIR_INLINE void ParseEngine::call_operand() {
  ExprStacks& s = expr_;
  const std::size_t start = s.operands.back().primary;
  Expr callee = std::move(s.operands.back().value);
  if ((callee.is<PrimExprNode>() && !callee.is<VarNode>()) || callee.is<ConstantNode>()) {
    fail_not(callee, "called");
  }
  // An operator reached through a temporary or parentheses is checked like a direct
  // call: the printer writes both the same way.
  const OpDef* def = nullptr;
  if (const auto* op = callee.as<OpNode>()) {
    def = OpRegistry::global().find(op->name);
  }
  // The arguments are expressions of their own, on top of this one's stacks.
  Expr call = call_args(std::move(callee), start, def, start);
  s.operands.back().value = std::move(call);
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_not(const Expr& e,
                                                         std::string_view what) const {
  fail(tok(), kind_of(e) + " cannot be " + std::string(what));
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

} // namespace ctir::detail
