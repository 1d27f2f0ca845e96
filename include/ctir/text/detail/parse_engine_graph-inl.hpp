// Definitions of the parse engine (<ctir/text/detail/parse_engine-inl.hpp>).
// Graph-level forms: blocks and bindings, closures, if, call_dps and calls.
#pragma once

#include <ctir/text/detail/parse_engine.hpp>

#include <ctir/ir/type_str.hpp>
#include <ctir/text/detail/parse_types.hpp>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

CTIR_INLINE Expr ParseEngine::braced_body() {
  expect(Tok::lbrace);
  push_scope();
  Expr body = block_body(Tok::rbrace);
  pop_scope();
  expect(Tok::rbrace);
  return body;
}

CTIR_INLINE Expr ParseEngine::block_body(Tok close) {
  std::vector<PendingLet> lets;
  while (true) {
    if (is_word(0, "let")) {
      lets.push_back(let_binding());
    } else if (tok().kind == Tok::local && tok(1).kind == Tok::assign) {
      temp_binding();
    } else {
      break;
    }
  }
  Expr result = expr(Ctx::graph);
  const std::size_t result_end = last_;
  if (tok().kind != close) {
    fail_block_end(close);
  }
  for (std::size_t k = lets.size(); k-- > 0;) {
    Owned<LetNode> let = make_object<LetNode>();
    let->var = std::move(lets[k].var);
    let->value = std::move(lets[k].value);
    let->body = std::move(result);
    let->span = span_between(lets[k].token, result_end);
    result = std::move(let).publish();
  }
  return result;
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_block_end(Tok close) const {
  fail_expected(close == Tok::end ? std::string("end of input")
                                  : "'" + std::string(spelling(close)) + "'");
}

CTIR_INLINE ParseEngine::PendingLet ParseEngine::let_binding() {
  const std::size_t let_token = advance();
  const std::size_t name_token = expect(Tok::local);
  Type ty;
  std::size_t type_token = no_token;
  if (tok().kind == Tok::colon) {
    advance();
    type_token = pos_;
    ty = type();
  }
  expect(Tok::assign);
  // Only a function may refer to itself (Relay's recursive let): the variable is defined
  // before a closure value, so that it may call itself, and after any other value, whose
  // uses of the name refer to an outer definition or are undefined.
  const std::string_view name = local_name(name_token);
  const bool closure = is_word(0, "fn");
  Var var = new_var(name_token, ty);
  if (closure) {
    define(name, var, name_token);
  } else {
    lets_in_progress_.push_back(name);
  }
  Expr value = expr(Ctx::graph);
  if (closure) {
    // `fn (...) { ... }(%a)` or `.0` after it: the value is no longer the function.
    const Binding* binding = lookup(name);
    if (!value.is<FunctionNode>() && binding != nullptr && binding->first_use != no_token) {
      fail_at(binding->first_use,
              "'%" + std::string(name) +
                  "' is used in its own value, which is not a function (only a function, "
                  "'fn', may refer to itself; bind the closure with its own let first)");
    }
  } else {
    lets_in_progress_.pop_back();
    define(name, var, name_token);
  }
  expect(Tok::semicolon);
  if (ty.defined()) {
    check_annotation(ty, value, type_token, name_token);
  }
  return {let_token, std::move(var), std::move(value)};
}

CTIR_INLINE void ParseEngine::check_annotation(const Type& ty, const Expr& value,
                                               std::size_t type_token, std::size_t name_token) {
  const Type actual = known_type(value);
  if (types_conflict(ty, actual)) {
    fail_at(type_token, "the type annotation " + type_str(ty) + " of '%" +
                            std::string(local_name(name_token)) +
                            "' does not match the type of its value, " + type_str(actual));
  }
}

CTIR_INLINE void ParseEngine::temp_binding() {
  const std::size_t name_token = advance();
  advance();
  Expr value = expr(Ctx::graph);
  expect(Tok::semicolon);
  define(local_name(name_token), std::move(value), name_token);
}

CTIR_INLINE Expr ParseEngine::operator_primary() {
  const std::size_t start = pos_;
  const std::string_view word = text_of(tok());
  if (is_reserved(word)) {
    fail_expected("an expression");
  }
  const OpDef* def = OpRegistry::global().find(word);
  if (def == nullptr) {
    fail_unknown_operator(word);
  }
  advance();
  Owned<OpNode> op = make_object<OpNode>();
  op->name = std::string(word);
  Expr callee = finish(std::move(op), start);
  if (tok().kind != Tok::lparen) {
    return callee;
  }
  return call_args(std::move(callee), start, def, start);
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_unknown_operator(std::string_view word) const {
  std::string message = "unknown operator '" + std::string(word) + "'";
  const std::vector<std::string> close = OpRegistry::global().nearest_names(word);
  if (!close.empty()) {
    message += "; did you mean " + op_registry_impl::quoted_alternatives(close) + "?";
  }
  fail(tok(), message);
}

CTIR_INLINE bool ParseEngine::is_reserved(std::string_view word) {
  constexpr std::string_view words[] = {"def", "prim", "fn",    "let",   "if",        "else",
                                        "for", "in",   "alloc", "const", "attributes"};
  return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

CTIR_INLINE Expr ParseEngine::call_args(Expr callee, std::size_t start, const OpDef* def,
                                        std::size_t name_token) {
  expect(Tok::lparen);
  Owned<CallNode> call = make_object<CallNode>();
  call->op = std::move(callee);
  std::vector<std::size_t> key_tokens;
  if (tok().kind != Tok::rparen) {
    while (true) {
      if (tok().kind == Tok::word && tok(1).kind == Tok::assign) {
        const std::size_t key_token = advance();
        advance();
        const std::string_view key = text_of(tokens_[key_token]);
        AttrValue value = attr_value();
        if (call->attrs.contains(key)) {
          fail_duplicate_attribute(key_token);
        }
        call->attrs.set(key, std::move(value));
        key_tokens.push_back(key_token);
      } else {
        if (!key_tokens.empty()) {
          fail_expected("an attribute 'key=value' (arguments come before attributes)");
        }
        call->args.push_back(expr(Ctx::graph));
      }
      if (tok().kind != Tok::comma) {
        break;
      }
      advance();
    }
  }
  expect(Tok::rparen);
  if (def != nullptr) {
    check_operator_call(*def, *call, key_tokens, name_token);
  }
  return finish(std::move(call), start);
}

CTIR_INLINE void ParseEngine::check_operator_call(const OpDef& def, const CallNode& call,
                                                  const std::vector<std::size_t>& key_tokens,
                                                  std::size_t name_token) {
  if (!def.arity.accepts(call.args.size())) {
    fail_at(name_token, "operator '" + def.name + "' takes " + def.arity.str() + ", but " +
                            std::to_string(call.args.size()) +
                            (call.args.size() == 1 ? " was" : " were") + " given");
  }
  // Each key on its own first, so that the error points at the key it is about.
  for (std::size_t key_token : key_tokens) {
    const std::string key(text_of(tokens_[key_token]));
    Attrs single;
    single.set(key, *call.attrs.find(key));
    const AttrSpec* spec = def.find_attr(key);
    const bool widened = spec != nullptr && spec->kind == AttrKind::float_ &&
                         attr_kind_of(*call.attrs.find(key)) == AttrKind::int_;
    if (spec == nullptr || (spec->kind != attr_kind_of(*call.attrs.find(key)) && !widened)) {
      try {
        (void)def.normalize_attrs(single);
      } catch (const Error& error) {
        fail_at(key_token, strip_prefix(error.what()));
      }
    }
  }
  try {
    (void)def.normalize_attrs(call.attrs);
  } catch (const Error& error) {
    fail_at(name_token, strip_prefix(error.what()));
  }
}

CTIR_INLINE std::string ParseEngine::strip_prefix(std::string_view message) {
  constexpr std::string_view prefix = "ctir: ";
  if (message.starts_with(prefix)) {
    message.remove_prefix(prefix.size());
  }
  return std::string(message);
}

CTIR_INLINE Expr ParseEngine::closure() {
  const std::size_t start = advance();
  Owned<FunctionNode> function = make_object<FunctionNode>();
  push_scope();
  const std::size_t ret_token = signature(*function);
  expect(Tok::lbrace);
  function->body = block_body(Tok::rbrace);
  expect(Tok::rbrace);
  pop_scope();
  check_result_type(*function, ret_token);
  return finish(std::move(function), start);
}

CTIR_INLINE Expr ParseEngine::if_expr() {
  const std::size_t start = advance();
  expect(Tok::lparen);
  Owned<IfNode> node = make_object<IfNode>();
  const std::size_t cond_token = pos_;
  node->cond = expr(Ctx::graph);
  check_bool(node->cond, cond_token, "condition");
  expect(Tok::rparen);
  node->then_branch = braced_body();
  if (!is_word(0, "else")) {
    fail(tok(), "expected 'else' but found " + describe(tok()) +
                    " (a graph-level 'if' is an expression: its value comes from either branch)");
  }
  advance();
  node->else_branch = braced_body();
  return finish(std::move(node), start);
}

CTIR_INLINE Expr ParseEngine::call_dps() {
  const std::size_t start = advance();
  const std::size_t global_token = expect(Tok::global);
  Owned<CallDpsNode> node = make_object<CallDpsNode>();
  node->func = use_global(global_token, true);
  expect(Tok::lparen);
  if (tok().kind != Tok::rparen) {
    while (true) {
      node->args.push_back(expr(Ctx::graph));
      if (tok().kind != Tok::comma) {
        break;
      }
      advance();
    }
  }
  expect(Tok::rparen);
  expect(Tok::arrow);
  node->out_type = type();
  return finish(std::move(node), start);
}

} // namespace ctir::detail
