// The recursive-descent parser of the text format: modules, functions, statements,
// expressions and types, with scopes, source spans and errors that point at the text.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/span.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/text/detail/lexer.hpp>
#include <ctir/text/detail/parse_literal.hpp>
#include <ctir/text/detail/parse_types.hpp>
#include <ctir/text/diagnostic.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir {

/// How deeply constructs may nest in parsed text: parentheses, calls, tuples, blocks,
/// loops, ifs, closures, block-valued lets, types, constant brackets (each expression,
/// statement and type inside another counts a level).
///
/// The parser is recursive descent, and a level costs a few native frames: measured,
/// about 1 KB in an optimized build and up to 8 KB in the costliest one (clang,
/// AddressSanitizer, -O0). At 500 levels even that uses at most 4 MiB, half of the
/// default 8 MiB stack, leaving the rest to the caller. Deeper text is rejected with the
/// error "nesting too deep" rather than overflowing the stack; long sequences (a
/// million statements, lets, bindings or operands in a row) do not nest and have no limit.
inline constexpr std::size_t max_nesting_depth = 500;

namespace detail {

/// What the parser does with a `%name` that is not defined.
enum class FreeVars : std::uint8_t {
  error,   ///< an error: "undefined variable"
  declare, ///< a new untyped variable, shared by every mention (parse_expr and friends)
};

/// Where an expression is parsed: graph-level expressions may also be calls, tuples,
/// closures ...; tensor-level (prim) ones are scalar expressions only.
enum class Ctx : std::uint8_t { graph, prim };

/// The parser. One instance parses one text.
class ParseEngine {
public:
  ParseEngine(std::string_view text, std::string_view file_name, FreeVars free_vars)
      : text_(text), file_name_(file_name), file_(std::make_shared<const std::string>(file_name)),
        free_vars_(free_vars) {
    tokens_ = tokenize(text, file_name);
    scopes_.emplace_back();
  }

  /// Defines `vars` (by their names) in the outermost scope.
  void predefine(const std::vector<Var>& vars) {
    for (const Var& var : vars) {
      if (!var.defined()) {
        throw Error("ctir: parse: a predefined variable is null");
      }
      std::vector<Binding>& stack = names_[var->name];
      if (!stack.empty()) {
        throw Error("ctir: parse: two predefined variables are named '" + var->name + "'");
      }
      stack.push_back({var, 0, no_token, false});
      scopes_[0].push_back(var->name);
    }
  }

  /// A whole module: `def` and `prim` definitions.
  IRModule module() {
    while (tok().kind != Tok::end) {
      if (is_word(0, "def")) {
        def_function();
      } else if (is_word(0, "prim")) {
        prim_function();
      } else {
        fail(tok(), "expected 'def' or 'prim' but found " + describe(tok()));
      }
    }
    resolve_globals();
    IRModule result;
    for (auto& [global, function] : functions_) {
      result.add(global, std::move(function));
    }
    return result;
  }

  /// Bindings and a result, to the end of the text.
  Expr expr_text() { return block_body(Tok::end); }

  /// One tensor-level expression, to the end of the text.
  PrimExpr prim_expr_text() {
    const std::size_t start = pos_;
    Expr result = expr(Ctx::prim);
    expect_end();
    return as_prim(result, start);
  }

  /// One type, to the end of the text.
  Type type_text() {
    Type result = type();
    expect_end();
    return result;
  }

private:
  static constexpr std::size_t no_token = static_cast<std::size_t>(-1);

  /// What a name stands for in a scope: a variable, or a temporary's expression.
  struct Binding {
    Expr value;
    std::uint32_t scope = 0;
    std::size_t token = no_token; ///< where it was defined
    bool pattern = false;         ///< a shape variable defined by a parameter's type
  };

  struct GlobalInfo {
    GlobalVar var;
    std::size_t first_use = no_token;
    std::size_t first_dps = no_token;
    std::size_t definition = no_token;
    bool is_prim = false;
  };

  /// Counts a level of nesting for as long as it lives.
  class DepthGuard {
  public:
    DepthGuard(ParseEngine& engine, std::size_t token) : engine_(engine) {
      if (++engine_.depth_ > max_nesting_depth) {
        --engine_.depth_;
        engine_.fail(engine_.tokens_[token], "nesting too deep (more than " +
                                                 std::to_string(max_nesting_depth) + " levels)");
      }
    }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    ~DepthGuard() { --engine_.depth_; }

  private:
    ParseEngine& engine_;
  };

  // ---- tokens ---------------------------------------------------------------------------

  const Token& tok(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  std::string_view text_of(const Token& token) const {
    return text_.substr(token.offset, token.length);
  }
  bool is_word(std::size_t ahead, std::string_view word) const {
    return tok(ahead).kind == Tok::word && text_of(tok(ahead)) == word;
  }
  /// Consumes the current token; returns its index.
  std::size_t advance() {
    const std::size_t index = pos_;
    if (tokens_[pos_].kind != Tok::end) {
      ++pos_;
    }
    last_ = index;
    return index;
  }
  std::size_t expect(Tok kind) {
    if (tok().kind != kind) {
      fail_expected_token(kind);
    }
    return advance();
  }
  std::size_t expect_word(std::string_view word) {
    if (!is_word(0, word)) {
      fail_word(word);
    }
    return advance();
  }
  [[noreturn]] [[gnu::noinline]] void fail_word(std::string_view word) const {
    fail_expected("'" + std::string(word) + "'");
  }
  void expect_end() {
    if (tok().kind != Tok::end) {
      fail_expected("end of input");
    }
  }

  std::string describe(const Token& token) const {
    if (token.kind == Tok::end) {
      return "end of input";
    }
    std::string_view text = text_of(token);
    constexpr std::size_t max_shown = 40;
    if (text.size() > max_shown) {
      return "'" + std::string(text.substr(0, max_shown)) + "...'";
    }
    return "'" + std::string(text) + "'";
  }

  [[noreturn]] void fail(const Token& token, std::string message) const {
    const auto line = source_line_at(text_, token.offset).first;
    throw ParseError(std::string(file_name_), token.line, token.column, std::move(message),
                     std::string(line));
  }
  [[noreturn]] void fail_at(std::size_t token, std::string message) const {
    fail(tokens_[token], std::move(message));
  }

  // Error paths are out of line: the messages' temporaries then live in these frames,
  // not in the frames of the recursive descent, which stay small for deep nesting.

  /// `expected <what> but found <the current token>`.
  [[noreturn]] [[gnu::noinline]] void fail_expected(std::string_view what) const {
    fail(tok(), "expected " + std::string(what) + " but found " + describe(tok()));
  }
  [[noreturn]] [[gnu::noinline]] void fail_expected_token(Tok kind) const {
    fail_expected("'" + std::string(spelling(kind)) + "'");
  }

  /// The span from token `first` to the last consumed token.
  Span span_from(std::size_t first) const { return span_between(first, last_); }
  Span span_between(std::size_t first, std::size_t last) const {
    const Token& a = tokens_[first];
    const Token& b = tokens_[std::max(first, last)];
    return Span{file_, a.line, a.column, b.line, b.column + b.length};
  }

  template <class T>
  Ref<T> finish(Owned<T> node, std::size_t first) {
    node->span = span_from(first);
    return std::move(node).publish();
  }

  // ---- scopes ---------------------------------------------------------------------------

  std::uint32_t scope() const { return static_cast<std::uint32_t>(scopes_.size() - 1); }
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() {
    for (std::string_view name : scopes_.back()) {
      names_[name].pop_back();
    }
    scopes_.pop_back();
  }

  Binding* lookup(std::string_view name) {
    auto it = names_.find(name);
    return it == names_.end() || it->second.empty() ? nullptr : &it->second.back();
  }

  /// Defines `name` in the current scope; a second definition in one scope is an error.
  void define(std::string_view name, Expr value, std::size_t token, bool pattern = false) {
    std::vector<Binding>& stack = names_[name];
    if (!stack.empty() && stack.back().scope == scope()) {
      std::string where;
      if (stack.back().token != no_token) {
        const Token& first = tokens_[stack.back().token];
        where = " (at " + std::to_string(first.line) + ":" + std::to_string(first.column) + ")";
      }
      fail_at(token, "'%" + std::string(name) + "' is already defined in this scope" + where);
    }
    stack.push_back({std::move(value), scope(), token, pattern});
    scopes_.back().push_back(name);
  }

  /// The name of a `%name` token, without the `%`.
  std::string_view local_name(std::size_t token) const { return text_of(tokens_[token]).substr(1); }

  Var new_var(std::size_t token, Type ty) {
    Owned<VarNode> var = make_object<VarNode>();
    var->name = std::string(local_name(token));
    var->ty = std::move(ty);
    var->span = span_between(token, token);
    return std::move(var).publish();
  }

  /// What `%name` (token `token`) refers to.
  Expr use_local(std::size_t token) {
    const std::string_view name = local_name(token);
    if (Binding* binding = lookup(name)) {
      return binding->value;
    }
    if (pattern_types_) {
      Var var = new_var(token, PrimType::make(DataType::int32()));
      define(name, var, token, true);
      return var;
    }
    if (free_vars_ == FreeVars::declare) {
      Var var = new_var(token, Type());
      names_[name].push_back({var, 0, token, false});
      scopes_[0].push_back(name);
      return var;
    }
    std::vector<std::string_view> candidates;
    for (const auto& [candidate, stack] : names_) {
      if (!stack.empty()) {
        candidates.push_back(candidate);
      }
    }
    std::sort(candidates.begin(), candidates.end());
    std::string message = "undefined variable '%" + std::string(name) + "'";
    const std::vector<std::string> close = op_registry_impl::nearest(name, candidates);
    if (!close.empty()) {
      std::vector<std::string> quoted;
      for (const std::string& c : close) {
        quoted.push_back("%" + c);
      }
      message += "; did you mean " + op_registry_impl::quoted_alternatives(quoted) + "?";
    }
    if (in_prim_signature_) {
      message += " (a tensor-level function lists its shape variables after its name: "
                 "prim @f[%n](...))";
    }
    fail_at(token, message);
  }

  GlobalVar use_global(std::size_t token, bool dps) {
    const std::string_view name = text_of(tokens_[token]).substr(1);
    GlobalInfo& info = globals_[name];
    if (!info.var.defined()) {
      info.var = GlobalVar::make(std::string(name));
    }
    if (info.first_use == no_token) {
      info.first_use = token;
    }
    if (dps && info.first_dps == no_token) {
      info.first_dps = token;
    }
    return info.var;
  }

  /// Checks that every global called or named is defined, and that call_dps calls
  /// tensor-level functions.
  void resolve_globals() {
    std::size_t worst = no_token;
    std::string message;
    auto report = [&](std::size_t token, std::string text) {
      if (worst == no_token || token < worst) {
        worst = token;
        message = std::move(text);
      }
    };
    std::vector<std::string_view> defined;
    for (const auto& [name, info] : globals_) {
      if (info.definition != no_token) {
        defined.push_back(name);
      }
    }
    std::sort(defined.begin(), defined.end());
    for (const auto& [name, info] : globals_) {
      if (info.definition == no_token) {
        std::string text = "undefined global '@" + std::string(name) + "'";
        const std::vector<std::string> close = op_registry_impl::nearest(name, defined);
        if (!close.empty()) {
          std::vector<std::string> quoted;
          for (const std::string& c : close) {
            quoted.push_back("@" + c);
          }
          text += "; did you mean " + op_registry_impl::quoted_alternatives(quoted) + "?";
        }
        report(info.first_use, std::move(text));
      } else if (info.first_dps != no_token && !info.is_prim) {
        report(info.first_dps, "call_dps calls a tensor-level function, but '@" +
                                   std::string(name) + "' is a graph-level function (def)");
      }
    }
    if (worst != no_token) {
      fail_at(worst, message);
    }
  }

  // ---- functions ------------------------------------------------------------------------

  /// `@name` of a definition: a new global, defined once.
  std::pair<GlobalVar, std::string_view> define_global(bool is_prim) {
    const std::size_t token = expect(Tok::global);
    const std::string_view name = text_of(tokens_[token]).substr(1);
    GlobalInfo& info = globals_[name];
    if (info.definition != no_token) {
      const Token& first = tokens_[info.definition];
      fail_at(token, "'@" + std::string(name) + "' is already defined (at " +
                         std::to_string(first.line) + ":" + std::to_string(first.column) + ")");
    }
    if (!info.var.defined()) {
      info.var = GlobalVar::make(std::string(name));
    }
    info.definition = token;
    info.is_prim = is_prim;
    return {info.var, name};
  }

  /// `def @name(%x: T, ...) -> R attributes {...} { body }`
  void def_function() {
    const std::size_t start = advance();
    auto [global, name] = define_global(false);
    Owned<FunctionNode> function = make_object<FunctionNode>();
    function->name = std::string(name);
    // Parameters and body share a scope: a body cannot redefine a parameter.
    push_scope();
    const std::size_t ret_token = signature(*function);
    expect(Tok::lbrace);
    function->body = block_body(Tok::rbrace);
    expect(Tok::rbrace);
    pop_scope();
    check_result_type(*function, ret_token);
    functions_.emplace_back(global, finish(std::move(function), start));
  }

  /// `(params) -> R attributes {...}` of a def or a closure; returns where R starts.
  std::size_t signature(FunctionNode& function) {
    expect(Tok::lparen);
    function.params = graph_params();
    expect(Tok::rparen);
    std::size_t ret_token = no_token;
    if (tok().kind == Tok::arrow) {
      advance();
      ret_token = pos_;
      function.ret_type = type();
    }
    function.attrs = function_attrs();
    return ret_token;
  }

  /// The declared result type against the type of the body, when both are known.
  void check_result_type(const FunctionNode& function, std::size_t ret_token) {
    if (!function.ret_type.defined()) {
      return;
    }
    const Type body = known_type(function.body);
    if (types_conflict(function.ret_type, body)) {
      fail_at(ret_token, "the result type " + type_str(function.ret_type) +
                             " does not match the type of the body, " + type_str(body));
    }
  }

  /// Graph-level parameters: `%x: T` or `%x`. Variables in their types that are not
  /// defined yet are defined here, as int32 shape variables (parameters are patterns).
  std::vector<Var> graph_params() {
    std::vector<Var> params;
    if (tok().kind == Tok::rparen) {
      return params;
    }
    while (true) {
      const std::size_t token = expect(Tok::local);
      Type ty;
      std::size_t type_token = no_token;
      if (tok().kind == Tok::colon) {
        advance();
        type_token = pos_;
        pattern_types_ = true;
        ty = type();
        pattern_types_ = false;
      }
      params.push_back(param_var(token, std::move(ty), type_token));
      if (tok().kind != Tok::comma) {
        return params;
      }
      advance();
    }
  }

  /// The variable of parameter `%name`: the shape variable of that name if an earlier
  /// parameter's type (or the shape list) defined one in this scope, else a new one.
  Var param_var(std::size_t token, Type ty, std::size_t type_token) {
    const std::string_view name = local_name(token);
    if (Binding* binding = lookup(name);
        binding != nullptr && binding->pattern && binding->scope == scope()) {
      Var var = downcast<VarNode>(binding->value);
      if (ty.defined() && types_conflict(ty, var->ty)) {
        fail_at(type_token, "the type annotation " + type_str(ty) + " of '%" + std::string(name) +
                                "' does not match its type as a shape variable, " +
                                type_str(var->ty));
      }
      binding->pattern = false; // a second parameter of that name is a duplicate
      return var;
    }
    Var var = new_var(token, std::move(ty));
    define(name, var, token);
    return var;
  }

  [[noreturn]] [[gnu::noinline]] void fail_duplicate_attribute(std::size_t key_token) const {
    fail_at(key_token, "duplicate attribute '" + std::string(text_of(tokens_[key_token])) + "'");
  }

  /// `attributes {key = value, ...}`, if present.
  Attrs function_attrs() {
    Attrs attrs;
    if (!is_word(0, "attributes")) {
      return attrs;
    }
    advance();
    expect(Tok::lbrace);
    if (tok().kind != Tok::rbrace) {
      while (true) {
        const std::size_t key_token = expect(Tok::word);
        const std::string_view key = text_of(tokens_[key_token]);
        expect(Tok::assign);
        AttrValue value = attr_value();
        if (attrs.contains(key)) {
          fail_duplicate_attribute(key_token);
        }
        attrs.set(key, std::move(value));
        if (tok().kind != Tok::comma) {
          break;
        }
        advance();
      }
    }
    expect(Tok::rbrace);
    return attrs;
  }

  /// `prim @name[%n, %m: int64](%A: T, ...) attributes {...} { stmts }`
  void prim_function() {
    const std::size_t start = advance();
    auto [global, name] = define_global(true);
    const std::size_t name_token = last_;
    Owned<PrimFuncNode> function = make_object<PrimFuncNode>();
    function->name = std::string(name);
    push_scope();
    std::vector<std::pair<Var, std::size_t>> declared;
    if (tok().kind == Tok::lbracket) {
      advance();
      while (true) {
        const std::size_t token = expect(Tok::local);
        Type ty = PrimType::make(DataType::int32());
        if (tok().kind == Tok::colon) {
          advance();
          ty = type();
        }
        Var var = new_var(token, std::move(ty));
        define(local_name(token), var, token, true);
        declared.emplace_back(var, token);
        if (tok().kind != Tok::comma) {
          break;
        }
        advance();
      }
      expect(Tok::rbracket);
    }
    expect(Tok::lparen);
    in_prim_signature_ = true;
    if (tok().kind != Tok::rparen) {
      while (true) {
        const std::size_t token = expect(Tok::local);
        Type ty;
        std::size_t type_token = no_token;
        if (tok().kind == Tok::colon) {
          advance();
          type_token = pos_;
          ty = type();
        }
        function->params.push_back(param_var(token, std::move(ty), type_token));
        if (tok().kind != Tok::comma) {
          break;
        }
        advance();
      }
    }
    in_prim_signature_ = false;
    expect(Tok::rparen);
    function->attrs = function_attrs();
    function->body = stmt_block(nullptr, no_token);
    pop_scope();
    // The shape list must be exactly the variables the parameter types mention.
    const std::vector<Var> mentioned = function->shape_vars();
    for (const auto& [var, token] : declared) {
      if (std::find(mentioned.begin(), mentioned.end(), var) == mentioned.end()) {
        fail_at(token, "shape variable '%" + var->name + "' is not used by any parameter's type");
      }
    }
    for (const Var& var : mentioned) {
      const bool listed = std::any_of(declared.begin(), declared.end(),
                                      [&](const auto& entry) { return entry.first == var; });
      if (!listed) {
        fail_at(name_token, "'%" + var->name +
                                "' sizes a parameter, so it is a shape variable: list it after "
                                "the function name, as in @" +
                                std::string(name) + "[%" + var->name + "]");
      }
    }
    functions_.emplace_back(global, finish(std::move(function), start));
  }

  // ---- statements -----------------------------------------------------------------------

  /// `{ stmts }`; `loop_var` (if any) is defined inside.
  SeqStmt stmt_block(const Var* loop_var, std::size_t loop_token) {
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

  Stmt stmt() {
    DepthGuard guard(*this, pos_);
    const Token& first = tok();
    if (first.kind == Tok::lbrace) {
      return stmt_block(nullptr, no_token);
    }
    if (first.kind == Tok::local) {
      if (tok(1).kind == Tok::assign) {
        fail_expected("a statement (tensor-level code binds values with 'let %v = e;')");
      }
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

  /// `let %v[: T] = e;`: `%v` is defined for the rest of the block.
  Stmt let_stmt() {
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

  /// `if (c) { ... }`, optionally `else { ... }`.
  Stmt if_stmt() {
    const std::size_t start = advance();
    expect(Tok::lparen);
    Owned<IfThenElseNode> branch = make_object<IfThenElseNode>();
    branch->cond = prim_expr();
    expect(Tok::rparen);
    branch->then_case = stmt_block(nullptr, no_token);
    if (is_word(0, "else")) {
      advance();
      branch->else_case = stmt_block(nullptr, no_token);
    }
    return finish(std::move(branch), start);
  }

  /// `alloc %T: Tensor[...];`: `%T` is defined for the rest of the block.
  Stmt alloc_stmt() {
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

  /// A tensor-level expression (an error if it is a graph-level one).
  PrimExpr prim_expr() {
    const std::size_t start = pos_;
    return as_prim(expr(Ctx::prim), start);
  }

  /// `for %i in range(b, e) { ... }`; `%i` takes the dtype of `b`.
  Stmt for_loop() {
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

  /// `%B[%i, %j] = e;`
  Stmt store() {
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

  /// The variable `%name` at `token` names, which must be a variable to be indexed.
  Var indexed_var(std::size_t token) {
    Expr target = use_local(token);
    if (!target.is<VarNode>()) {
      fail_at(token, "'" + std::string(text_of(tokens_[token])) +
                         "' is not a variable, so it cannot be indexed");
    }
    return downcast<VarNode>(target);
  }

  /// Tensor-level expressions separated by commas, up to (not including) `close`.
  std::vector<PrimExpr> prim_list(Tok close) {
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

  // ---- graph-level blocks ---------------------------------------------------------------

  /// `{ bindings result }` with a scope of its own.
  Expr braced_body() {
    expect(Tok::lbrace);
    push_scope();
    Expr body = block_body(Tok::rbrace);
    pop_scope();
    expect(Tok::rbrace);
    return body;
  }

  /// Bindings (`%0 = e;`, `let %v[: T] = e;`) then the result, up to `close` (not consumed).
  ///
  /// `%0 = e;` only names `e`: every `%0` is that one node. Each `let` becomes a Let
  /// whose body is the rest of the block, built from the inside out.
  Expr block_body(Tok close) {
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

  [[noreturn]] [[gnu::noinline]] void fail_block_end(Tok close) const {
    fail_expected(close == Tok::end ? std::string("end of input")
                                    : "'" + std::string(spelling(close)) + "'");
  }

  /// A `let` of a block, waiting for the rest of the block (its body).
  struct PendingLet {
    std::size_t token;
    Var var;
    Expr value;
  };

  /// `let %v[: T] = e;`
  PendingLet let_binding() {
    const std::size_t let_token = advance();
    const std::size_t name_token = expect(Tok::local);
    Type ty;
    std::size_t type_token = no_token;
    if (tok().kind == Tok::colon) {
      advance();
      type_token = pos_;
      ty = type();
    }
    // Defined before its value: a closure bound by a let may call itself.
    Var var = new_var(name_token, ty);
    define(local_name(name_token), var, name_token);
    expect(Tok::assign);
    Expr value = expr(Ctx::graph);
    expect(Tok::semicolon);
    if (ty.defined()) {
      check_annotation(ty, value, type_token, name_token);
    }
    return {let_token, std::move(var), std::move(value)};
  }

  void check_annotation(const Type& ty, const Expr& value, std::size_t type_token,
                        std::size_t name_token) {
    const Type actual = known_type(value);
    if (types_conflict(ty, actual)) {
      fail_at(type_token, "the type annotation " + type_str(ty) + " of '%" +
                              std::string(local_name(name_token)) +
                              "' does not match the type of its value, " + type_str(actual));
    }
  }

  /// `%0 = e;`
  void temp_binding() {
    const std::size_t name_token = advance();
    advance();
    Expr value = expr(Ctx::graph);
    expect(Tok::semicolon);
    define(local_name(name_token), std::move(value), name_token);
  }

  // ---- expressions ----------------------------------------------------------------------

  Expr expr(Ctx ctx) {
    DepthGuard guard(*this, pos_);
    return binary(0, ctx);
  }

  PrimExpr as_prim(const Expr& e, std::size_t token) {
    if (const auto* prim = e.as<PrimExprNode>()) {
      return ref_of(prim);
    }
    fail_at(token, "expected a scalar expression, but this is " + kind_of(e));
  }

  static std::string kind_of(const Expr& e) {
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
      return e.is<PrimExprNode>() ? "a scalar expression"
                                  : "a " + std::string(e->dynamic_type_key());
    }
  }

  struct BinaryInfo {
    BinaryOp op;
    int precedence;
  };
  static std::optional<BinaryInfo> binary_of(Tok kind) {
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

  /// Operators of precedence `min_precedence` or more, left associative (precedence
  /// climbing: a chain of one operator is a loop, not a recursion).
  Expr binary(int min_precedence, Ctx ctx) {
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
      lhs = make_binary(info->op, operand(lhs, start, op_token), operand(rhs, rhs_token, op_token),
                        start);
    }
  }

  PrimExpr operand(const Expr& e, std::size_t token, std::size_t op_token) {
    if (const auto* prim = e.as<PrimExprNode>()) {
      return ref_of(prim);
    }
    fail_at(token, "the operands of '" + std::string(text_of(tokens_[op_token])) +
                       "' must be scalar expressions, but this is " + kind_of(e));
  }

  template <BinaryOp Op>
  Expr make_binary_of(PrimExpr a, PrimExpr b, std::size_t start) {
    Owned<BinaryNode<Op>> node = make_object<BinaryNode<Op>>();
    node->a = std::move(a);
    node->b = std::move(b);
    return finish(std::move(node), start);
  }

  Expr make_binary(BinaryOp op, PrimExpr a, PrimExpr b, std::size_t start) {
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

  /// Whether the current `-` is the sign of a literal: a number or float word right
  /// after it, with no space (`-3`, `-2.5f`, `-inff`; `- 3` and `-(3)` negate).
  bool negative_literal_ahead() const {
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

  /// Prefix `-` and `!`, gathered in a loop so that a long run costs no stack.
  Expr unary(Ctx ctx) {
    std::vector<std::size_t> ops;
    while ((tok().kind == Tok::minus && !negative_literal_ahead()) || tok().kind == Tok::bang) {
      ops.push_back(advance());
    }
    const std::size_t operand_token = pos_;
    Expr result = postfix(ctx);
    for (std::size_t k = ops.size(); k-- > 0;) {
      const std::size_t op_token = ops[k];
      PrimExpr a = operand(result, k + 1 < ops.size() ? ops[k + 1] : operand_token, op_token);
      if (tokens_[op_token].kind == Tok::minus) {
        Owned<NegNode> node = make_object<NegNode>();
        node->a = std::move(a);
        result = finish(std::move(node), op_token);
      } else {
        Owned<NotNode> node = make_object<NotNode>();
        node->a = std::move(a);
        result = finish(std::move(node), op_token);
      }
    }
    return result;
  }

  /// A primary followed by loads `[...]`, and (graph-level) projections `.0` and calls.
  Expr postfix(Ctx ctx) {
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

  [[noreturn]] [[gnu::noinline]] void fail_not(const Expr& e, std::string_view what) const {
    fail(tok(), kind_of(e) + " cannot be " + std::string(what));
  }

  /// `%A[%i, %j]`
  Expr load(Expr source, std::size_t start) {
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

  /// `%t.0`
  Expr projection(Expr tuple, std::size_t start) {
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

  Expr primary(Ctx ctx) {
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

  /// A number literal at the current token (after a `-` if `negative`).
  Expr number_literal(bool negative) {
    const std::size_t start = negative ? last_ : pos_;
    const Token& token = tok();
    if (token.kind == Tok::word) {
      double value = 0;
      DataType dtype;
      float_word(text_of(token), value, dtype);
      advance();
      return float_imm(negative ? -value : value, dtype, start);
    }
    const std::size_t number_token = expect(Tok::number);
    NumberValue value;
    if (auto error =
            decode_number(text_of(tokens_[number_token]), negative, DataType::int32(), value)) {
      fail_at(start, *error);
    }
    if (value.dtype.is_float()) {
      return float_imm(value.float_value, value.dtype, start);
    }
    return int_imm(value.int_value, value.dtype, start);
  }

  Expr int_imm(std::int64_t value, DataType dtype, std::size_t start) {
    Owned<IntImmNode> node = make_object<IntImmNode>();
    node->value = value;
    node->dtype = dtype;
    return finish(std::move(node), start);
  }
  Expr float_imm(double value, DataType dtype, std::size_t start) {
    Owned<FloatImmNode> node = make_object<FloatImmNode>();
    node->value = value;
    node->dtype = dtype;
    return finish(std::move(node), start);
  }

  /// `(e)`, and (graph-level) tuples `()`, `(a,)`, `(a, b)`.
  Expr parenthesized(Ctx ctx) {
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

  Expr word_primary(Ctx ctx) {
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

  // min, max, select and cast are tensor-level forms, also inside graph-level code
  // (`add(%x, max(%n, 1))`); their operands must turn out to be scalar.

  /// `min(a, b)`, `max(a, b)`
  Expr min_max(Ctx ctx) {
    const std::size_t start = advance();
    const bool is_min = text_of(tokens_[start]) == "min";
    advance();
    PrimExpr a = scalar_operand(ctx);
    expect(Tok::comma);
    PrimExpr b = scalar_operand(ctx);
    expect(Tok::rparen);
    return make_binary(is_min ? BinaryOp::min : BinaryOp::max, std::move(a), std::move(b), start);
  }

  /// `select(c, a, b)`
  Expr select_expr(Ctx ctx) {
    const std::size_t start = advance();
    advance();
    Owned<SelectNode> node = make_object<SelectNode>();
    node->cond = scalar_operand(ctx);
    expect(Tok::comma);
    node->true_value = scalar_operand(ctx);
    expect(Tok::comma);
    node->false_value = scalar_operand(ctx);
    expect(Tok::rparen);
    return finish(std::move(node), start);
  }

  /// `cast<dtype>(e)`
  Expr cast_expr(Ctx ctx) {
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

  PrimExpr scalar_operand(Ctx ctx) {
    const std::size_t start = pos_;
    return as_prim(expr(ctx), start);
  }

  /// An operator: called (`add(%x, %y)`) or named on its own (`add`).
  Expr operator_primary() {
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

  [[noreturn]] [[gnu::noinline]] void fail_unknown_operator(std::string_view word) const {
    std::string message = "unknown operator '" + std::string(word) + "'";
    const std::vector<std::string> close = OpRegistry::global().nearest_names(word);
    if (!close.empty()) {
      message += "; did you mean " + op_registry_impl::quoted_alternatives(close) + "?";
    }
    fail(tok(), message);
  }

  static bool is_reserved(std::string_view word) {
    constexpr std::string_view words[] = {"def", "prim", "fn",    "let",   "if",        "else",
                                          "for", "in",   "alloc", "const", "attributes"};
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
  }

  /// `(args, key=value, ...)` of a call of `callee`; `def` is the operator's definition
  /// when the callee is an operator (its arity and attributes are checked).
  Expr call_args(Expr callee, std::size_t start, const OpDef* def, std::size_t name_token) {
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

  /// Checks a call of an operator against its definition: arity and attribute schema.
  void check_operator_call(const OpDef& def, const CallNode& call,
                           const std::vector<std::size_t>& key_tokens, std::size_t name_token) {
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

  static std::string strip_prefix(std::string_view message) {
    constexpr std::string_view prefix = "ctir: ";
    if (message.starts_with(prefix)) {
      message.remove_prefix(prefix.size());
    }
    return std::string(message);
  }

  /// An attribute value: `true`, `3`, `-1`, `0.5f64`, `"text"`, `[3, 2]`.
  AttrValue attr_value() {
    const Token& first = tok();
    const std::size_t start = pos_;
    if (first.kind == Tok::word && (text_of(first) == "true" || text_of(first) == "false")) {
      advance();
      return text_of(first) == "true";
    }
    if (first.kind == Tok::string) {
      advance();
      std::string value;
      if (auto error = decode_string(text_of(first), value)) {
        Token at = first;
        at.offset += error->second;
        at.column += static_cast<std::uint32_t>(error->second);
        fail(at, error->first);
      }
      return value;
    }
    if (first.kind == Tok::lbracket) {
      advance();
      std::vector<std::int64_t> values;
      if (tok().kind != Tok::rbracket) {
        while (true) {
          const std::size_t at = pos_;
          const AttrValue item = attr_value();
          if (!std::holds_alternative<std::int64_t>(item)) {
            fail_at(at, "a list attribute holds integers only");
          }
          values.push_back(std::get<std::int64_t>(item));
          if (tok().kind != Tok::comma) {
            break;
          }
          advance();
        }
      }
      expect(Tok::rbracket);
      return values;
    }
    const bool negative = first.kind == Tok::minus && negative_literal_ahead();
    if (negative) {
      advance();
    }
    const Token& number = tok();
    double word_value = 0;
    DataType word_dtype;
    if (number.kind == Tok::word && float_word(text_of(number), word_value, word_dtype)) {
      advance();
      if (word_dtype != DataType::float64()) {
        fail_at(start, "a float attribute is a float64: write '" +
                           std::string(text_of(number).substr(0, 3)) + "f64'");
      }
      return negative ? -word_value : word_value;
    }
    if (number.kind == Tok::number) {
      advance();
      NumberValue value;
      if (auto error = decode_number(text_of(number), negative, DataType::int64(), value)) {
        fail_at(start, *error);
      }
      if (value.dtype == DataType::int64()) {
        return value.int_value;
      }
      if (value.dtype == DataType::float64()) {
        return value.float_value;
      }
      fail_at(start, "an attribute is an integer without a suffix or a float64 (with the "
                     "suffix f64), not a " +
                         value.dtype.str());
    }
    fail(first, "expected an attribute value (true, false, a number, a string or a list of "
                "integers) but found " +
                    describe(first));
  }

  /// `const(elements)` or `const(elements, Tensor[...])`.
  Expr constant() {
    const std::size_t start = advance();
    expect(Tok::lparen);
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
    std::optional<DataType> dtype;
    bool empty = false;
    auto element = [&]() {
      const std::size_t at = pos_;
      const Token& first = tok();
      const bool negative = negative_literal_ahead();
      if (negative) {
        advance();
      }
      DataType element_dtype;
      std::int64_t int_value = 0;
      double float_value = 0;
      double word_value = 0;
      if (!negative && first.kind == Tok::word &&
          (text_of(first) == "true" || text_of(first) == "false")) {
        advance();
        element_dtype = DataType::boolean();
        int_value = text_of(first) == "true" ? 1 : 0;
      } else if (tok().kind == Tok::word && float_word(text_of(tok()), word_value, element_dtype)) {
        advance();
        float_value = negative ? -word_value : word_value;
      } else if (tok().kind == Tok::number) {
        advance();
        NumberValue value;
        if (auto error =
                decode_number(text_of(tokens_[last_]), negative, DataType::int32(), value)) {
          fail_at(at, *error);
        }
        element_dtype = value.dtype;
        int_value = value.int_value;
        float_value = value.float_value;
      } else {
        fail(tok(), "expected a literal but found " + describe(tok()));
      }
      if (dtype && *dtype != element_dtype) {
        fail_at(at, "the elements of a constant have one dtype, but this one is " +
                        element_dtype.str() + " and the first is " + dtype->str());
      }
      dtype = element_dtype;
      if (element_dtype.is_float()) {
        floats.push_back(float_value);
      } else {
        ints.push_back(int_value);
      }
    };
    if (tok().kind != Tok::lbracket) {
      element(); // rank 0
    } else {
      // The rank is the number of leading brackets; then an iterative walk checks that
      // every row at a level has the same length.
      std::size_t rank = 0;
      while (tok(rank).kind == Tok::lbracket) {
        if (++rank > max_nesting_depth) {
          fail(tok(rank - 1),
               "nesting too deep (more than " + std::to_string(max_nesting_depth) + " levels)");
        }
      }
      if (rank == 1 && tok(1).kind == Tok::rbracket) {
        advance();
        advance();
        empty = true;
      } else {
        shape.assign(rank, -1);
        std::vector<std::int64_t> counts(rank, 0);
        for (std::size_t k = 0; k < rank; ++k) {
          advance();
        }
        std::size_t depth = rank; // levels open
        while (true) {
          element();
          ++counts[rank - 1];
          while (tok().kind == Tok::rbracket) {
            const std::size_t level = depth - 1;
            if (shape[level] < 0) {
              shape[level] = counts[level];
            } else if (shape[level] != counts[level]) {
              fail(tok(), "the rows of a constant must have equal lengths, but this one has " +
                              std::to_string(counts[level]) + " items and the first has " +
                              std::to_string(shape[level]));
            }
            counts[level] = 0;
            advance();
            depth = level;
            if (depth == 0) {
              break;
            }
            ++counts[depth - 1];
          }
          if (depth == 0) {
            break;
          }
          expect(Tok::comma);
          while (depth < rank) {
            if (tok().kind != Tok::lbracket) {
              fail(tok(), "the rows of a constant must nest equally deep: expected '[' but "
                          "found " +
                              describe(tok()));
            }
            advance();
            ++depth;
          }
        }
      }
    }
    Type declared;
    std::size_t type_token = no_token;
    if (tok().kind == Tok::comma) {
      advance();
      type_token = pos_;
      declared = type();
    }
    expect(Tok::rparen);
    if (empty && !declared.defined()) {
      fail_at(start, "a constant without elements needs its type: const([], Tensor[(0), "
                     "float32])");
    }
    if (declared.defined()) {
      const auto* tensor = declared.as<TensorTypeNode>();
      if (tensor == nullptr) {
        fail_at(type_token, "the type of a constant is a tensor type");
      }
      std::vector<std::int64_t> declared_shape;
      for (const PrimExpr& dim : tensor->shape) {
        const auto* imm = dim.as<IntImmNode>();
        if (imm == nullptr || imm->value < 0) {
          fail_at(type_token, "the type of a constant has non-negative integer dimensions");
        }
        declared_shape.push_back(imm->value);
      }
      if (empty) {
        const bool no_elements =
            std::find(declared_shape.begin(), declared_shape.end(), 0) != declared_shape.end();
        if (!no_elements) {
          fail_at(type_token,
                  "the constant has no elements, but its type " + type_str(declared) + " has some");
        }
        shape = declared_shape;
        dtype = tensor->dtype;
      } else if (declared_shape != shape || tensor->dtype != *dtype) {
        fail_at(type_token,
                "the type " + type_str(declared) + " does not match the constant's elements (" +
                    std::to_string(ints.size() + floats.size()) + " of " + dtype->str() + ")");
      }
    }
    TensorData data(*dtype, shape);
    for (std::size_t i = 0; i < ints.size(); ++i) {
      data.set_int(i, ints[i]);
    }
    for (std::size_t i = 0; i < floats.size(); ++i) {
      data.set(i, floats[i]);
    }
    Owned<ConstantNode> node = make_object<ConstantNode>();
    node->data = std::move(data);
    return finish(std::move(node), start);
  }

  /// `fn (%a: T, ...) -> R attributes {...} { body }`
  Expr closure() {
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

  /// `if (c) { ... } else { ... }`
  Expr if_expr() {
    const std::size_t start = advance();
    expect(Tok::lparen);
    Owned<IfNode> node = make_object<IfNode>();
    node->cond = expr(Ctx::graph);
    expect(Tok::rparen);
    node->then_branch = braced_body();
    expect_word("else");
    node->else_branch = braced_body();
    return finish(std::move(node), start);
  }

  /// `call_dps @f(args) -> T`
  Expr call_dps() {
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

  // ---- types ----------------------------------------------------------------------------

  DataType dtype() {
    const Token& token = tok();
    if (token.kind == Tok::word) {
      if (std::optional<DataType> parsed = DataType::from_string(text_of(token))) {
        advance();
        return *parsed;
      }
    }
    fail_expected("a dtype (bool, int8, int16, int32, int64, uint8, float16, float32 or float64)");
  }

  /// `int32`, `Tensor[(2, %n), float32]`, `Tuple[T, ...]`, `fn (T, ...) -> R`.
  Type type() {
    DepthGuard guard(*this, pos_);
    if (tok().kind == Tok::word) {
      const std::string_view word = text_of(tok());
      if (DataType::from_string(word)) {
        return PrimType::make(dtype());
      }
      if (word == "Tensor") {
        return tensor_type();
      }
      if (word == "Tuple") {
        return tuple_type();
      }
      if (word == "fn") {
        return func_type();
      }
    }
    fail_expected("a type");
  }

  /// `Tensor[(2, %n), float32]`
  Type tensor_type() {
    advance();
    expect(Tok::lbracket);
    expect(Tok::lparen);
    std::vector<PrimExpr> shape = prim_list(Tok::rparen);
    expect(Tok::rparen);
    expect(Tok::comma);
    const DataType element = dtype();
    expect(Tok::rbracket);
    return TensorType::make(std::move(shape), element);
  }

  /// Types separated by commas, up to (not including) `close`.
  std::vector<Type> type_list(Tok close) {
    std::vector<Type> types;
    if (tok().kind == close) {
      return types;
    }
    while (true) {
      types.push_back(type());
      if (tok().kind != Tok::comma) {
        return types;
      }
      advance();
    }
  }

  /// `Tuple[T1, T2]`
  Type tuple_type() {
    advance();
    expect(Tok::lbracket);
    std::vector<Type> fields = type_list(Tok::rbracket);
    expect(Tok::rbracket);
    return TupleType::make(std::move(fields));
  }

  /// `fn (T1, T2) -> R`
  Type func_type() {
    advance();
    expect(Tok::lparen);
    std::vector<Type> params = type_list(Tok::rparen);
    expect(Tok::rparen);
    Type ret;
    if (tok().kind == Tok::arrow) {
      advance();
      ret = type();
    }
    return FuncType::make(std::move(params), std::move(ret));
  }

  std::string_view text_;
  std::string_view file_name_;
  std::shared_ptr<const std::string> file_;
  FreeVars free_vars_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::size_t last_ = 0;
  std::size_t depth_ = 0;
  bool pattern_types_ = false;
  bool in_prim_signature_ = false;
  std::unordered_map<std::string_view, std::vector<Binding>> names_;
  std::vector<std::vector<std::string_view>> scopes_;
  std::unordered_map<std::string_view, GlobalInfo> globals_;
  std::vector<std::pair<GlobalVar, BaseFunc>> functions_;
};

} // namespace detail
} // namespace ctir
