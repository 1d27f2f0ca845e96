// Definitions of the parse engine (<ctir/text/detail/parse_engine-inl.hpp>).
// Tensor-level statements: blocks, let, if, alloc, for and stores.
#pragma once

#include <ctir/text/detail/parse_engine.hpp>

#include <ctir/ir/builder.hpp>

#include <string>
#include <vector>

namespace ctir::detail {

CTIR_INLINE SeqStmt ParseEngine::stmt_block(const Var* loop_var, std::size_t loop_token) {
  const std::size_t start = expect(Tok::lbrace);
  push_scope();
  if (loop_var != nullptr) {
    define(local_name(loop_token), *loop_var, loop_token);
  }
  Owned<SeqStmtNode> block = make_object<SeqStmtNode>();
  while (tok().kind != Tok::rbrace) {
    if (tok().kind == Tok::end) {
      fail(tok(), "expected '}' but found end of input");
    }
    block->seq.push_back(stmt());
  }
  advance();
  pop_scope();
  return finish(std::move(block), start);
}

CTIR_INLINE Stmt ParseEngine::stmt() {
  DepthGuard guard(*this, pos_);
  // Temporaries `%N = e;` name expressions for the rest of the block, as in graph-level
  // code: the printer binds the parts of an expression nested too deeply to them. Read in
  // a loop, so a long run costs no nesting.
  bool temporaries = false;
  while (tok().kind == Tok::local && tok(1).kind == Tok::assign) {
    const std::size_t name_token = advance();
    advance();
    PrimExpr value = prim_expr();
    expect(Tok::semicolon);
    define(local_name(name_token), std::move(value), name_token);
    temporaries = true;
    prim_temps_seen_ = true;
  }
  const Token& first = tok();
  if (temporaries && first.kind == Tok::rbrace) {
    fail_expected("a statement after the temporaries (a temporary '%N = e;' names a "
                  "part of the statement that follows it)");
  }
  const std::size_t start = pos_;
  Stmt result = statement();
  if (prim_temps_seen_) {
    spend_expansion(start, result);
  }
  return result;
}

CTIR_INLINE Stmt ParseEngine::statement() {
  const Token& first = tok();
  if (first.kind == Tok::lbrace) {
    return stmt_block(nullptr, no_token);
  }
  if (first.kind == Tok::local) {
    return store();
  }
  if (first.kind == Tok::word) {
    const std::string_view word = text_of(first);
    if (word == "for") {
      return for_loop();
    }
    if (word == "let") {
      return let_stmt();
    }
    if (word == "if") {
      return if_stmt();
    }
    if (word == "alloc") {
      return alloc_stmt();
    }
  }
  fail_expected("a statement");
}

CTIR_INLINE Stmt ParseEngine::let_stmt() {
  const std::size_t start = advance();
  const std::size_t token = expect(Tok::local);
  Type ty;
  if (tok().kind == Tok::colon) {
    advance();
    ty = type();
  }
  expect(Tok::assign);
  PrimExpr value = prim_expr();
  expect(Tok::semicolon);
  if (!ty.defined()) {
    ty = PrimType::make(ctir::detail::dtype_of_node(value.get()));
  }
  Var var = new_var(token, std::move(ty));
  define(local_name(token), var, token);
  Owned<BindNode> bind = make_object<BindNode>();
  bind->var = std::move(var);
  bind->value = std::move(value);
  return finish(std::move(bind), start);
}

CTIR_INLINE Stmt ParseEngine::if_stmt() {
  const std::size_t start = advance();
  expect(Tok::lparen);
  Owned<IfThenElseNode> branch = make_object<IfThenElseNode>();
  const std::size_t cond_token = pos_;
  branch->cond = prim_expr();
  check_bool(branch->cond, cond_token, "condition");
  expect(Tok::rparen);
  branch->then_case = stmt_block(nullptr, no_token);
  if (is_word(0, "else")) {
    advance();
    branch->else_case = stmt_block(nullptr, no_token);
  }
  return finish(std::move(branch), start);
}

CTIR_INLINE Stmt ParseEngine::alloc_stmt() {
  const std::size_t start = advance();
  const std::size_t token = expect(Tok::local);
  expect(Tok::colon);
  Type ty = type();
  expect(Tok::semicolon);
  Var var = new_var(token, std::move(ty));
  define(local_name(token), var, token);
  Owned<AllocateNode> alloc = make_object<AllocateNode>();
  alloc->buffer = std::move(var);
  return finish(std::move(alloc), start);
}

CTIR_INLINE PrimExpr ParseEngine::prim_expr() {
  const std::size_t start = pos_;
  return as_prim(expr(Ctx::prim), start);
}

CTIR_INLINE Stmt ParseEngine::for_loop() {
  const std::size_t start = advance();
  const std::size_t token = expect(Tok::local);
  expect_word("in");
  const Token& kind_token = tok();
  const std::string_view kind_word = kind_token.kind == Tok::word ? text_of(kind_token) : "";
  ForKind kind = ForKind::serial;
  if (kind_word == "range") {
    kind = ForKind::serial;
  } else if (kind_word == "parallel") {
    kind = ForKind::parallel;
  } else if (kind_word == "vectorized") {
    kind = ForKind::vectorized;
  } else if (kind_word == "unroll") {
    kind = ForKind::unroll;
  } else {
    fail_expected("a loop kind (range, parallel, vectorized or unroll)");
  }
  advance();
  expect(Tok::lparen);
  Owned<ForNode> loop = make_object<ForNode>();
  loop->begin = prim_expr();
  expect(Tok::comma);
  loop->end = prim_expr();
  expect(Tok::rparen);
  loop->kind = kind;
  loop->var = new_var(token, PrimType::make(ctir::detail::dtype_of_node(loop->begin.get())));
  loop->body = stmt_block(&loop->var, token);
  return finish(std::move(loop), start);
}

CTIR_INLINE Stmt ParseEngine::store() {
  const std::size_t start = advance();
  Owned<TensorStoreNode> node = make_object<TensorStoreNode>();
  node->dest = indexed_var(start);
  expect(Tok::lbracket);
  node->indices = prim_list(Tok::rbracket);
  expect(Tok::rbracket);
  expect(Tok::assign);
  const std::size_t value_token = pos_;
  node->value = as_prim(expr(Ctx::prim), value_token);
  expect(Tok::semicolon);
  return finish(std::move(node), start);
}

CTIR_INLINE Var ParseEngine::indexed_var(std::size_t token) {
  Expr target = use_local(token);
  if (!target.is<VarNode>()) {
    fail_at(token, "'" + std::string(text_of(tokens_[token])) +
                       "' is not a variable, so it cannot be indexed");
  }
  return downcast<VarNode>(target);
}

CTIR_INLINE std::vector<PrimExpr> ParseEngine::prim_list(Tok close) {
  std::vector<PrimExpr> items;
  if (tok().kind == close) {
    return items;
  }
  while (true) {
    const std::size_t at = pos_;
    items.push_back(as_prim(expr(Ctx::prim), at));
    if (tok().kind != Tok::comma) {
      return items;
    }
    advance();
  }
}

} // namespace ctir::detail
