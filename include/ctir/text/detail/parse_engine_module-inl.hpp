// Definitions of the parse engine (<ctir/text/detail/parse_engine-inl.hpp>).
// The engine's entry points, errors, scopes, names, and the module level (def, prim).
#pragma once

#include <ctir/text/detail/parse_engine.hpp>

#include <ctir/ir/type_str.hpp>
#include <ctir/text/detail/parse_literal.hpp>
#include <ctir/text/detail/parse_types.hpp>
#include <ctir/text/diagnostic.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

CTIR_INLINE ParseEngine::ParseEngine(std::string_view text, std::string_view file_name,
                                     FreeVars free_vars)
    : text_(skip_byte_order_mark(text)), file_name_(file_name),
      file_(std::make_shared<const std::string>(file_name)), free_vars_(free_vars) {
  TokenList lexed = tokenize(text_, file_name);
  tokens_ = std::move(lexed.tokens);
  line_starts_ = std::move(lexed.line_starts);
  scopes_.emplace_back();
}

CTIR_INLINE void ParseEngine::predefine(const std::vector<Var>& vars) {
  for (const Var& var : vars) {
    if (!var.defined()) {
      throw Error("ctir: parse: a predefined variable is null");
    }
    if (lookup(var->name) != nullptr) {
      throw Error("ctir: parse: two predefined variables are named '" + var->name + "'");
    }
    push_binding(var->name, {var, 0, no_token, false, no_token, 0});
    scopes_[0].push_back(var->name);
  }
}

CTIR_INLINE IRModule ParseEngine::module() {
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

CTIR_INLINE Expr ParseEngine::expr_text() { return block_body(Tok::end); }

CTIR_INLINE PrimExpr ParseEngine::prim_expr_text() {
  const std::size_t start = pos_;
  Expr result = expr(Ctx::prim);
  expect_end();
  return as_prim(result, start);
}

CTIR_INLINE Type ParseEngine::type_text() {
  Type result = type();
  expect_end();
  return result;
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_word(std::string_view word) const {
  fail_expected("'" + std::string(word) + "'");
}

CTIR_INLINE std::string ParseEngine::describe(const Token& token) const {
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

CTIR_INLINE void ParseEngine::fail(const Token& token, std::string message) const {
  const auto line = source_line_at(text_, token.offset).first;
  throw ParseError(std::string(file_name_), token.line, column(token), std::move(message),
                   std::string(line));
}

CTIR_INLINE void ParseEngine::fail_at(std::size_t token, std::string message) const {
  fail(tokens_[token], std::move(message));
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_expected(std::string_view what) const {
  fail(tok(), "expected " + std::string(what) + " but found " + describe(tok()));
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::fail_expected_token(Tok kind) const {
  fail_expected("'" + std::string(spelling(kind)) + "'");
}

CTIR_INLINE void ParseEngine::pop_scope() {
  // Newest first, so that the innermost bindings usually end bindings_ and are released.
  // (A scope defines a name once, so the order does not change which binding a name
  // returns to.)
  const std::vector<std::string_view>& names = scopes_.back();
  for (std::size_t k = names.size(); k-- > 0;) {
    std::uint32_t& top = *names_.find(names[k]);
    const std::uint32_t popped = top;
    top = bindings_[popped - 1].shadowed;
    if (popped == bindings_.size()) {
      bindings_.pop_back();
    }
  }
  scopes_.pop_back();
}

CTIR_INLINE void ParseEngine::push_binding(std::string_view name, Binding binding) {
  std::uint32_t& top = *names_.try_emplace(name).first;
  binding.shadowed = top;
  bindings_.push_back(std::move(binding));
  top = static_cast<std::uint32_t>(bindings_.size());
}

CTIR_INLINE void ParseEngine::define(std::string_view name, Expr value, std::size_t token,
                                     bool pattern) {
  if (const Binding* shadowed = lookup(name); shadowed != nullptr && shadowed->scope == scope()) {
    std::string where;
    if (shadowed->token != no_token) {
      const Token& first = tokens_[shadowed->token];
      where = " (at " + std::to_string(first.line) + ":" + std::to_string(column(first)) + ")";
    }
    fail_at(token, "'%" + std::string(name) + "' is already defined in this scope" + where);
  }
  push_binding(name, {std::move(value), scope(), token, pattern, no_token, 0});
  scopes_.back().push_back(name);
}

CTIR_INLINE Var ParseEngine::new_var(std::size_t token, Type ty) {
  Owned<VarNode> var = make_object<VarNode>();
  var->name = std::string(local_name(token));
  var->ty = std::move(ty);
  var->span = span_between(token, token);
  return std::move(var).publish();
}

CTIR_INLINE std::uint64_t ParseEngine::tree_size(const Object* root) {
  constexpr std::uint64_t most = std::uint64_t{1} << 62U;
  const auto for_each_operand = [](const Object& node, auto&& f) {
    for (const FieldInfo& field : node.type_info().fields) {
      if (field.ignored() || field.kind == FieldKind::value) {
        continue;
      }
      const std::size_t count = field.kind == FieldKind::node ? 1 : field.size(node, field);
      for (std::size_t i = 0; i < count; ++i) {
        const Object* child =
            field.kind == FieldKind::node ? field.get(node, field) : field.at(node, field, i);
        if (child != nullptr && instance_of<PrimExprNode>(*child)) {
          f(child);
        }
      }
    }
  };
  // Post-order on an explicit stack: a node is sized after its operands.
  std::vector<std::pair<const Object*, bool>> work{{root, false}};
  while (!work.empty()) {
    const auto [node, expanded] = work.back();
    if (tree_sizes_.find(node) != nullptr) {
      work.pop_back();
    } else if (!expanded) {
      work.back().second = true;
      for_each_operand(*node, [&](const Object* child) {
        if (tree_sizes_.find(child) == nullptr) {
          work.emplace_back(child, false);
        }
      });
    } else {
      work.pop_back();
      std::uint64_t size = 1;
      for_each_operand(
          *node, [&](const Object* child) { size = std::min(most, size + tree_sizes_.at(child)); });
      tree_sizes_.insert_new(node, size);
    }
  }
  return tree_sizes_.at(root);
}

[[gnu::noinline]] CTIR_INLINE void ParseEngine::spend_expansion(std::size_t token,
                                                                const Stmt& stmt) {
  std::uint64_t nodes = 0;
  const auto add = [&](const PrimExpr& e) {
    if (e.defined()) {
      nodes += tree_size(e.get());
    }
  };
  if (const auto* loop = stmt.as<ForNode>()) {
    add(loop->begin);
    add(loop->end);
  } else if (const auto* store = stmt.as<TensorStoreNode>()) {
    for (const PrimExpr& index : store->indices) {
      add(index);
    }
    add(store->value);
  } else if (const auto* bind = stmt.as<BindNode>()) {
    add(bind->value);
  } else if (const auto* branch = stmt.as<IfThenElseNode>()) {
    add(branch->cond);
  }
  const std::uint64_t budget =
      std::max<std::uint64_t>(std::uint64_t{1} << 20U, 64 * std::uint64_t{tokens_.size()});
  expanded_ = std::min(expanded_ + nodes, std::uint64_t{1} << 62U);
  if (expanded_ > budget) {
    fail_at(token, "temporaries are used so often that the statements would be written out "
                   "as more than " +
                       std::to_string(budget) +
                       " nodes (each use of a tensor-level temporary is its whole expression; "
                       "compute a value used many times once, with 'let')");
  }
}

CTIR_INLINE Expr ParseEngine::use_local(std::size_t token) {
  const std::string_view name = local_name(token);
  if (Binding* binding = lookup(name)) {
    if (binding->first_use == no_token) {
      binding->first_use = token;
    }
    return binding->value;
  }
  if (pattern_types_) {
    Var var = new_var(token, PrimType::make(DataType::int32()));
    define(name, var, token, true);
    return var;
  }
  if (free_vars_ == FreeVars::declare) {
    Var var = new_var(token, Type());
    push_binding(name, {var, 0, token, false, no_token, 0});
    scopes_[0].push_back(name);
    return var;
  }
  std::vector<std::string_view> candidates;
  names_.for_each([&](std::string_view candidate, std::size_t top) {
    if (top != 0) {
      candidates.push_back(candidate);
    }
  });
  std::sort(candidates.begin(), candidates.end());
  std::string message = "undefined variable '%" + std::string(name) + "'";
  // A let's own name in its value is no typo: say why it is undefined instead.
  const bool own_let = std::find(lets_in_progress_.begin(), lets_in_progress_.end(), name) !=
                       lets_in_progress_.end();
  const std::vector<std::string> close = op_registry_impl::nearest(name, candidates);
  if (!close.empty() && !own_let) {
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
  if (own_let) {
    message += " (a let's variable is defined after its value; only a function, 'fn', may "
               "refer to itself)";
  }
  fail_at(token, message);
}

CTIR_INLINE GlobalVar ParseEngine::use_global(std::size_t token, bool dps) {
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

CTIR_INLINE void ParseEngine::resolve_globals() {
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
      report(info.first_dps, "call_dps calls a tensor-level function, but '@" + std::string(name) +
                                 "' is a graph-level function (def): call it directly, as in '@" +
                                 std::string(name) + "(...)'");
    }
  }
  if (worst != no_token) {
    fail_at(worst, message);
  }
}

CTIR_INLINE std::pair<GlobalVar, std::string_view> ParseEngine::define_global(bool is_prim) {
  const std::size_t token = expect(Tok::global);
  const std::string_view name = text_of(tokens_[token]).substr(1);
  GlobalInfo& info = globals_[name];
  if (info.definition != no_token) {
    const Token& first = tokens_[info.definition];
    fail_at(token, "'@" + std::string(name) + "' is already defined (at " +
                       std::to_string(first.line) + ":" + std::to_string(column(first)) + ")");
  }
  if (!info.var.defined()) {
    info.var = GlobalVar::make(std::string(name));
  }
  info.definition = token;
  info.is_prim = is_prim;
  return {info.var, name};
}

CTIR_INLINE void ParseEngine::def_function() {
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

CTIR_INLINE std::size_t ParseEngine::signature(FunctionNode& function) {
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

CTIR_INLINE void ParseEngine::check_result_type(const FunctionNode& function,
                                                std::size_t ret_token) {
  if (!function.ret_type.defined()) {
    return;
  }
  const Type body = known_type(function.body);
  if (types_conflict(function.ret_type, body)) {
    fail_at(ret_token, "the result type " + type_str(function.ret_type) +
                           " does not match the type of the body, " + type_str(body));
  }
}

CTIR_INLINE std::vector<Var> ParseEngine::graph_params() {
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

CTIR_INLINE Var ParseEngine::param_var(std::size_t token, Type ty, std::size_t type_token) {
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

[[gnu::noinline]] CTIR_INLINE void
ParseEngine::fail_duplicate_attribute(std::size_t key_token) const {
  fail_at(key_token, "duplicate attribute '" + std::string(text_of(tokens_[key_token])) + "'");
}

CTIR_INLINE Attrs ParseEngine::function_attrs() {
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

CTIR_INLINE bool ParseEngine::in_some_dimension(const PrimFuncNode& function, const VarNode* var) {
  std::vector<const Object*> stack;
  for (const Var& param : function.params) {
    if (const auto* tensor = param->ty.as<TensorTypeNode>()) {
      for (const PrimExpr& dim : tensor->shape) {
        stack.push_back(dim.get());
      }
    }
  }
  // Through the fields the nodes describe, with a stack: a dimension may be deep.
  while (!stack.empty()) {
    const Object* node = stack.back();
    stack.pop_back();
    if (node == nullptr) {
      continue;
    }
    if (node == var) {
      return true;
    }
    if (node->dynamic_type_index() == VarNode::type_index) {
      continue;
    }
    for (const FieldInfo& field : node->type_info().fields) {
      if (field.kind == FieldKind::node) {
        stack.push_back(field.get(*node, field));
      } else if (field.kind == FieldKind::node_array) {
        for (std::size_t k = 0, n = field.size(*node, field); k < n; ++k) {
          stack.push_back(field.at(*node, field, k));
        }
      }
    }
  }
  return false;
}

CTIR_INLINE void ParseEngine::prim_function() {
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
        const std::size_t type_token = pos_;
        ty = type();
        if (const auto* prim = ty.as<PrimTypeNode>();
            prim == nullptr || !prim->dtype.is_integer()) {
          fail_at(type_token,
                  "expected an integer type for shape variable '" +
                      std::string(text_of(tokens_[token])) + "', found " + type_str(ty) +
                      " (shape variables are int32 by default; declare '" +
                      std::string(text_of(tokens_[token])) + ": int64' for a 64-bit one)");
        }
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
    if (std::find(mentioned.begin(), mentioned.end(), var) != mentioned.end()) {
      continue;
    }
    const bool is_param =
        std::find(function->params.begin(), function->params.end(), var) != function->params.end();
    if (!in_some_dimension(*function, var.get())) {
      fail_at(token, "shape variable '%" + var->name +
                         "' is not used by any parameter's type: remove it from the list, or "
                         "use it as a dimension of a parameter");
    }
    // A dimension such as `%n * 2` uses %n but cannot bind it from an argument's shape: only
    // a bare dimension or a scalar parameter of that name gives %n its value.
    if (!is_param) {
      fail_at(token, "shape variable '%" + var->name +
                         "' is used only inside dimension expressions, which cannot define it: "
                         "give a parameter a dimension that is '%" +
                         var->name + "' alone, or pass '%" + var->name + "' as a scalar parameter");
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

} // namespace ctir::detail
