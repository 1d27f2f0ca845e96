// The recursive-descent engine behind <ctir/text/parser.hpp>, its state and steps (only the
// parser's definitions use it); the steps are defined by job in parse_engine_*-inl.hpp.
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/span.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/text/detail/lexer.hpp>
#include <ctir/text/detail/string_map.hpp>
#include <ctir/text/diagnostic.hpp>
#include <ctir/text/nesting.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir {

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
  ParseEngine(std::string_view text, std::string_view file_name, FreeVars free_vars);

  /// Defines `vars` (by their names) in the outermost scope.
  void predefine(const std::vector<Var>& vars);

  /// A whole module: `def` and `prim` definitions.
  IRModule module();

  /// Bindings and a result, to the end of the text.
  Expr expr_text();

  /// One tensor-level expression, to the end of the text.
  PrimExpr prim_expr_text();

  /// One type, to the end of the text.
  Type type_text();

private:
  static constexpr std::size_t no_token = static_cast<std::size_t>(-1);

  /// A token index in 32 bits (a text under 4 GiB has fewer tokens), read and written as a
  /// std::size_t, no_token included: a module binds a name per value, so its bindings'
  /// size is part of the parser's memory.
  class TokenIndex {
  public:
    TokenIndex() = default;
    TokenIndex(std::size_t token) noexcept // NOLINT(google-explicit-constructor)
        : value_(token == no_token ? none : static_cast<std::uint32_t>(token)) {}
    operator std::size_t() const noexcept { // NOLINT(google-explicit-constructor)
      return value_ == none ? no_token : value_;
    }

  private:
    static constexpr std::uint32_t none = static_cast<std::uint32_t>(-1);
    std::uint32_t value_ = none;
  };

  /// What a name stands for in a scope: a variable, or a temporary's expression.
  struct Binding {
    Expr value;
    std::uint32_t scope = 0;
    TokenIndex token;           ///< where it was defined
    bool pattern = false;       ///< a shape variable defined by a parameter's type
    TokenIndex first_use;       ///< the first `%name` token that refers to it
    std::uint32_t shadowed = 0; ///< the binding it hides (1-based in bindings_), or 0
  };
  static_assert(sizeof(Binding) <= 32);

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
        engine_.fail(engine_.tokens_[token], ctir::detail::nesting_too_deep_message());
      }
    }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    ~DepthGuard() { --engine_.depth_; }

  private:
    ParseEngine& engine_;
  };

  // ---- tokens and errors (errors: parse_engine_module-inl.hpp) --------------------------

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
  [[noreturn]] void fail_word(std::string_view word) const;
  void expect_end() {
    if (tok().kind != Tok::end) {
      fail_expected("end of input");
    }
  }

  std::string describe(const Token& token) const;

  [[noreturn]] void fail(const Token& token, std::string message) const;
  [[noreturn]] void fail_at(std::size_t token, std::string message) const;

  // Error paths are out of line (noinline, on their definitions): the messages' temporaries
  // then live in these frames, not in the frames of the recursive descent, which stay small
  // for deep nesting.

  /// `expected <what> but found <the current token>`.
  [[noreturn]] void fail_expected(std::string_view what) const;
  [[noreturn]] void fail_expected_token(Tok kind) const;

  // ---- spans ----------------------------------------------------------------------------

  /// The span from token `first` to the last consumed token.
  Span span_from(std::size_t first) const { return span_between(first, last_); }
  Span span_between(std::size_t first, std::size_t last) const {
    const Token& a = tokens_[first];
    const Token& b = tokens_[std::max(first, last)];
    return Span{file_, a.line, column(a), b.line, column(b) + b.length};
  }
  /// The 1-based column of a token, in bytes.
  std::uint32_t column(const Token& token) const noexcept {
    return token.offset - line_starts_[token.line - 1] + 1;
  }

  template <class T>
  Ref<T> finish(Owned<T> node, std::size_t first) {
    node->span = span_from(first);
    return std::move(node).publish();
  }

  // ---- scopes and names (parse_engine_module-inl.hpp) -----------------------------------

  std::uint32_t scope() const { return static_cast<std::uint32_t>(scopes_.size() - 1); }
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope();

  Binding* lookup(std::string_view name) {
    const std::uint32_t* top = names_.find(name);
    return top == nullptr || *top == 0 ? nullptr : &bindings_[*top - 1];
  }

  /// Makes `binding` the innermost one of `name`, hiding the one it had.
  void push_binding(std::string_view name, Binding binding);

  /// Defines `name` in the current scope; a second definition in one scope is an error.
  void define(std::string_view name, Expr value, std::size_t token, bool pattern = false);

  /// The name of a `%name` token, without the `%`.
  std::string_view local_name(std::size_t token) const { return text_of(tokens_[token]).substr(1); }

  Var new_var(std::size_t token, Type ty);

  /// What `%name` (token `token`) refers to.
  Expr use_local(std::size_t token);

  GlobalVar use_global(std::size_t token, bool dps);

  /// Checks that every global called or named is defined, and that call_dps calls
  /// tensor-level functions.
  void resolve_globals();

  /// The number of nodes of scalar expression `root` written out as a tree (memoized,
  /// saturating).
  std::uint64_t tree_size(const Object* root);

  /// Counts the nodes of statement `stmt` (token `token`) written out as trees, once
  /// tensor-level temporaries were defined. A temporary is one node in the IR however often
  /// it is used, but the printer writes scalar expressions as trees: a chain of
  /// temporaries each using the previous one twice would print exponentially long text.
  /// So the statements may stand for at most 64 nodes per token of the text, or 2^20.
  void spend_expansion(std::size_t token, const Stmt& stmt);

  // ---- functions (parse_engine_module-inl.hpp) ------------------------------------------

  /// `@name` of a definition: a new global, defined once.
  std::pair<GlobalVar, std::string_view> define_global(bool is_prim);

  /// `def @name(%x: T, ...) -> R attributes {...} { body }`
  void def_function();

  /// `(params) -> R attributes {...}` of a def or a closure; returns where R starts.
  std::size_t signature(FunctionNode& function);

  /// The declared result type against the type of the body, when both are known.
  void check_result_type(const FunctionNode& function, std::size_t ret_token);

  /// Graph-level parameters: `%x: T` or `%x`. Variables in their types that are not
  /// defined yet are defined here, as int32 shape variables (parameters are patterns).
  std::vector<Var> graph_params();

  /// The variable of parameter `%name`: the shape variable of that name if an earlier
  /// parameter's type (or the shape list) defined one in this scope, else a new one.
  Var param_var(std::size_t token, Type ty, std::size_t type_token);

  [[noreturn]] void fail_duplicate_attribute(std::size_t key_token) const;

  /// `attributes {key = value, ...}`, if present.
  Attrs function_attrs();

  /// `prim @name[%n, %m: int64](%A: T, ...) attributes {...} { stmts }`
  void prim_function();

  /// Whether `var` occurs in a dimension of a tensor parameter of `function` (inside an
  /// expression such as `%n * 2`: a bare dimension is a shape variable of shape_vars()).
  static bool in_some_dimension(const PrimFuncNode& function, const VarNode* var);

  // ---- statements (parse_engine_stmt-inl.hpp) -------------------------------------------

  /// `{ stmts }`; `loop_var` (if any) is defined inside.
  SeqStmt stmt_block(const Var* loop_var, std::size_t loop_token);

  /// A statement after its temporaries (stmt reads those).
  Stmt statement();
  Stmt stmt();

  /// `let %v[: T] = e;`: `%v` is defined for the rest of the block.
  Stmt let_stmt();

  /// `if (c) { ... }`, optionally `else { ... }`.
  Stmt if_stmt();

  /// `alloc %T: Tensor[...];`: `%T` is defined for the rest of the block.
  Stmt alloc_stmt();

  /// A tensor-level expression (an error if it is a graph-level one).
  PrimExpr prim_expr();

  /// `for %i in range(b, e) { ... }`; `%i` takes the dtype of `b`.
  Stmt for_loop();

  /// `%B[%i, %j] = e;`
  Stmt store();

  /// The variable `%name` at `token` names, which must be a variable to be indexed.
  Var indexed_var(std::size_t token);

  /// Tensor-level expressions separated by commas, up to (not including) `close`.
  std::vector<PrimExpr> prim_list(Tok close);

  // ---- graph-level forms (parse_engine_graph-inl.hpp) -----------------------------------

  /// `{ bindings result }` with a scope of its own.
  Expr braced_body();

  /// Bindings (`%0 = e;`, `let %v[: T] = e;`) then the result, up to `close` (not consumed).
  ///
  /// `%0 = e;` only names `e`: every `%0` is that one node. Each `let` becomes a Let
  /// whose body is the rest of the block, built from the inside out.
  Expr block_body(Tok close);

  [[noreturn]] void fail_block_end(Tok close) const;

  /// A `let` of a block, waiting for the rest of the block (its body).
  struct PendingLet {
    std::size_t token;
    Var var;
    Expr value;
  };

  /// `let %v[: T] = e;`
  PendingLet let_binding();

  void check_annotation(const Type& ty, const Expr& value, std::size_t type_token,
                        std::size_t name_token);

  /// `%0 = e;`
  void temp_binding();

  /// `fn (%a: T, ...) -> R attributes {...} { body }`
  Expr closure();

  /// `if (c) { ... } else { ... }`
  Expr if_expr();

  /// `call_dps @f(args) -> T`
  Expr call_dps();

  /// An operator: called (`add(%x, %y)`) or named on its own (`add`).
  Expr operator_primary();

  [[noreturn]] void fail_unknown_operator(std::string_view word) const;

  static bool is_reserved(std::string_view word);

  /// `(args, key=value, ...)` of a call of `callee`; `def` is the operator's definition
  /// when the callee is an operator (its arity and attributes are checked).
  Expr call_args(Expr callee, std::size_t start, const OpDef* def, std::size_t name_token);

  /// Checks a call of an operator against its definition: arity and attribute schema.
  void check_operator_call(const OpDef& def, const CallNode& call,
                           const std::vector<std::size_t>& key_tokens, std::size_t name_token);

  static std::string strip_prefix(std::string_view message);

  // ---- expressions (parse_engine_expr-inl.hpp) ------------------------------------------

  /// An expression, read without recursion as far as its operators, parentheses,
  /// tuples, loads, projections, min, max, select and cast go: those nest on expr's own
  /// stacks, so a scalar expression of any depth reads on a small native stack. What
  /// recurses (call arguments, blocks, closures, ifs, constants, types) counts a level
  /// of max_nesting_depth, and so does the expression itself.
  Expr expr(Ctx ctx);

  PrimExpr as_prim(const Expr& e, std::size_t token);

  /// `e` at `token` must be a scalar expression.
  void check_prim(const Expr& e, std::size_t token) const {
    if (!e.is<PrimExprNode>()) {
      fail_not_prim(e, token);
    }
  }
  [[noreturn]] void fail_not_prim(const Expr& e, std::size_t token) const;

  static std::string kind_of(const Expr& e);

  struct BinaryInfo {
    BinaryOp op;
    int precedence;
  };
  static std::optional<BinaryInfo> binary_of(Tok kind);

  PrimExpr operand(const Expr& e, std::size_t token, std::size_t op_token);

  /// The scalar dtype of `e` when the parser knows it (the rules of dtype_of): null for an
  /// untyped variable (a free variable of parse_expr) or a graph-level expression.
  static std::optional<DataType> known_dtype(const Expr& e);

  /// How a message names the type of `e`, whose dtype is `dtype`.
  static std::string type_name(const Expr& e, DataType dtype);

  /// `e` at `token` must be a bool where its type is known; `what` it is ("condition",
  /// "operand of '&&'") is named in the error.
  void check_bool(const Expr& e, std::size_t token, std::string_view what) const;

  /// The operand at `token` of the logical operator at `op_token` must be a bool.
  void check_logical_operand(const Expr& e, std::size_t token, std::size_t op_token) const;

  [[noreturn]] void fail_not_bool(std::size_t token, const std::string& found,
                                  std::string_view what) const;

  /// A dimension of a tensor type at `token` must be an integer.
  void check_dimension(const PrimExpr& e, std::size_t token) const;

  template <BinaryOp Op>
  Expr make_binary_of(PrimExpr a, PrimExpr b, std::size_t start) {
    Owned<BinaryNode<Op>> node = make_object<BinaryNode<Op>>();
    node->a = std::move(a);
    node->b = std::move(b);
    return finish(std::move(node), start);
  }

  Expr make_binary(BinaryOp op, PrimExpr a, PrimExpr b, std::size_t start);

  /// Whether the current `-` is the sign of a literal: a number or float word right
  /// after it, with no space (`-3`, `-2.5f`, `-inff`; `- 3` and `-(3)` negate).
  bool negative_literal_ahead() const;

  /// An operand read by expr: `start` is where its prefixes begin, `primary` where what
  /// they apply to begins (loads, projections and calls span from there).
  struct ExprOperand {
    Expr value;
    std::size_t start;
    std::size_t primary;
  };

  /// An operator expr has read and not applied yet: a binary operator, or a run of
  /// `prefixes` prefix operators (the last tokens of its prefix list).
  struct ExprOperator {
    std::size_t token = 0;
    std::size_t prefixes = 0;
    int precedence = 0;
    BinaryOp op = BinaryOp::add;
  };

  /// A form expr has opened and not closed yet; its items are the operands from
  /// `operands` on, read with the operators from `operators` on.
  enum class Form : std::uint8_t { top, paren, tuple, min, max, select, cast, load };
  struct ExprForm {
    Form kind;
    std::size_t open;      ///< its first token (`(`, `min`, `select`, `cast`, `[`)
    std::size_t start;     ///< the operand it makes: where its prefixes begin
    std::size_t primary;   ///< ... and where it begins
    std::size_t operands;  ///< the operand stack's size when it opened
    std::size_t operators; ///< the operator stack's size when it opened
    std::size_t item;      ///< the first token of the item being read
    DataType dtype{};      ///< a cast's
  };

  /// The work stacks of expr, kept between calls so that an expression costs no
  /// allocation once the stacks have grown; a nested expr (a call's argument, a block)
  /// works above the enclosing one's entries.
  struct ExprStacks {
    std::vector<ExprOperand> operands;
    std::vector<ExprOperator> operators;
    std::vector<std::size_t> prefixes;
    std::vector<ExprForm> forms;
  };

  /// If the current token opens a form (`(`, `min(`, `max(`, `select(`, `cast<T>(`),
  /// consumes its opening and pushes it; `start` and `primary` are as in ExprOperand.
  bool open_form(Ctx ctx, std::size_t start, std::size_t primary);

  /// A primary that opens no form: a variable, a literal, and (graph-level) a global, a
  /// block, a closure, an if, a call_dps, a constant or an operator.
  Expr leaf(Ctx ctx);

  /// Applies the binary operators of the innermost form with precedence `min_precedence`
  /// or more to their operands (left associative).
  void reduce(int min_precedence);

  /// Applies a run of prefixes waiting for the operand on top (`-` and `!`, innermost
  /// first).
  void apply_prefixes();

  /// What follows an item of a form: the whole expression was read, another item of the
  /// form begins, or the form closed and its value is the operand on top.
  enum class ItemEnd : std::uint8_t { done, next, closed };

  /// The innermost form's current item is complete: reads the separator or the closer
  /// after it.
  ItemEnd end_item(Ctx ctx);

  /// `%A[` after the operand on top: opens a load (true), or makes one with no indices,
  /// `%A[]` (false).
  bool open_load();

  /// A call of the operand on top, `(args)` (graph-level).
  void call_operand();

  [[noreturn]] void fail_not(const Expr& e, std::string_view what) const;

  /// `%t.0`
  Expr projection(Expr tuple, std::size_t start);

  // min, max, select and cast are tensor-level forms, also inside graph-level code
  // (`add(%x, max(%n, 1))`); their operands must turn out to be scalar.

  // ---- literals (parse_engine_literal-inl.hpp) ------------------------------------------

  /// A number literal at the current token (after a `-` if `negative`).
  Expr number_literal(bool negative);

  Expr int_imm(std::int64_t value, DataType dtype, std::size_t start);
  Expr float_imm(double value, DataType dtype, std::size_t start);

  /// An attribute value: `true`, `3`, `-1`, `0.5f64`, `"text"`, `[3, 2]`.
  AttrValue attr_value();

  /// `const(elements)` or `const(elements, Tensor[...])`.
  Expr constant();

  // ---- types (parse_engine_type-inl.hpp) ------------------------------------------------

  DataType dtype();

  /// `int32`, `Tensor[(2, %n), float32]`, `Tuple[T, ...]`, `fn (T, ...) -> R`.
  ///
  /// Tuple and function types nest without limit: they are read with a stack of their
  /// own, not by recursion, because type inference builds them as deep as the values
  /// they describe (a tuple of a tuple ... 600 deep from 600 flat bindings), and the
  /// printer writes them as annotations it cannot break up.
  Type type();

  /// `Tensor[(2, %n), float32]`
  Type tensor_type();

  std::string_view text_;
  std::string_view file_name_;
  std::shared_ptr<const std::string> file_;
  FreeVars free_vars_;
  std::vector<Token> tokens_;
  /// Where the text's lines start, for the tokens' columns (TokenList::line_starts).
  std::vector<std::uint32_t> line_starts_;
  std::size_t pos_ = 0;
  std::size_t last_ = 0;
  std::size_t depth_ = 0;
  ExprStacks expr_;
  /// Whether tensor-level temporaries were defined, and the nodes the statements read
  /// since then stand for, written out as trees (see spend_expansion).
  bool prim_temps_seen_ = false;
  std::uint64_t expanded_ = 0;
  PointerMap<std::uint64_t> tree_sizes_;
  bool pattern_types_ = false;
  bool in_prim_signature_ = false;
  /// The names of the graph-level lets whose values are being parsed, innermost last: their
  /// variables are not defined yet, which an "undefined variable" message explains.
  std::vector<std::string_view> lets_in_progress_;
  /// The bindings of local names: `names_` gives a name's innermost binding (1-based in
  /// `bindings_`, 0 for none), which links to the one it hides. Flat tables, so that a
  /// function of a million bindings costs no allocation per name.
  std::vector<Binding> bindings_;
  StringMap<std::uint32_t> names_;
  std::vector<std::vector<std::string_view>> scopes_;
  std::unordered_map<std::string_view, GlobalInfo> globals_;
  std::vector<std::pair<GlobalVar, BaseFunc>> functions_;
};

} // namespace detail
} // namespace ctir
