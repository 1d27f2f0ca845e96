// The limit: a hand-written recursive switch visitor and mutator over ctir's tensor-level IR.
//
// What a performance-minded engineer writes for one IR by hand: a switch on the dynamic
// type index against each concrete node's constant index, direct member access, the
// callback inlined, no table, no virtual call. The mutator signals "unchanged" with an
// empty result so that an unchanged subtree costs no reference-count traffic at all.
// Traversal order and coverage are those of the hooks: every non-ignored node field in
// declaration order, children before parents; a variable is a leaf at its uses and its
// type is visited where it is defined.
#pragma once

#include "binary_nodes.hpp"

#include <ctir/core/error.hpp>
#include <ctir/ir/ir.hpp>

#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::bench::hand {

[[noreturn]] inline void unsupported(const Object& node) {
  throw Error("hand-written baseline: unsupported node type " +
              std::string(node.dynamic_type_key()));
}

/// Post-order walk calling `f(node)` with the node's concrete type, for every node.
///
/// A variable is a leaf at its uses; its type is walked where it is defined (For::var,
/// Bind::var) and everywhere inside a pattern (the parameters, an Allocate buffer), where
/// every variable is a definition. `Pattern` says whether the walk is inside one.
template <class F>
class Walker {
public:
  explicit Walker(F& f) noexcept : f_(f) {}

  void func(const PrimFuncNode& fn) {
    for (const Var& param : fn.params) {
      def_var<true>(*param);
    }
    block(*fn.body);
    f_(fn);
  }

  template <bool Pattern>
  void def_var(const VarNode& v) {
    if (v.ty.defined()) {
      type<Pattern>(*v.ty);
    }
    f_(v);
  }

  /// A variable in an expression: a use (a leaf), or a definition inside a pattern.
  template <bool Pattern>
  void var(const VarNode& v) {
    if constexpr (Pattern) {
      def_var<true>(v);
    } else {
      f_(v);
    }
  }

  template <bool Pattern>
  void type(const TypeNode& t) {
    switch (t.dynamic_type_index()) {
    case PrimTypeNode::type_index:
      f_(static_cast<const PrimTypeNode&>(t));
      return;
    case TensorTypeNode::type_index: {
      const auto& n = static_cast<const TensorTypeNode&>(t);
      for (const PrimExpr& dim : n.shape) {
        expr<Pattern>(*dim);
      }
      f_(n);
      return;
    }
    default:
      unsupported(t);
    }
  }

  template <bool Pattern = false>
  void expr(const PrimExprNode& e) {
    switch (e.dynamic_type_index()) {
    case VarNode::type_index:
      var<Pattern>(static_cast<const VarNode&>(e));
      return;
    case IntImmNode::type_index:
      f_(static_cast<const IntImmNode&>(e));
      return;
    case FloatImmNode::type_index:
      f_(static_cast<const FloatImmNode&>(e));
      return;
#define CTIR_BENCH_CASE(N)                                                                         \
  case N::type_index: {                                                                            \
    const auto& n = static_cast<const N&>(e);                                                      \
    expr<Pattern>(*n.a);                                                                           \
    expr<Pattern>(*n.b);                                                                           \
    f_(n);                                                                                         \
    return;                                                                                        \
  }
      CTIR_BENCH_BINARY_NODES(CTIR_BENCH_CASE)
#undef CTIR_BENCH_CASE
    case NotNode::type_index: {
      const auto& n = static_cast<const NotNode&>(e);
      expr<Pattern>(*n.a);
      f_(n);
      return;
    }
    case NegNode::type_index: {
      const auto& n = static_cast<const NegNode&>(e);
      expr<Pattern>(*n.a);
      f_(n);
      return;
    }
    case SelectNode::type_index: {
      const auto& n = static_cast<const SelectNode&>(e);
      expr<Pattern>(*n.cond);
      expr<Pattern>(*n.true_value);
      expr<Pattern>(*n.false_value);
      f_(n);
      return;
    }
    case CastNode::type_index: {
      const auto& n = static_cast<const CastNode&>(e);
      expr<Pattern>(*n.value);
      f_(n);
      return;
    }
    case TensorLoadNode::type_index: {
      const auto& n = static_cast<const TensorLoadNode&>(e);
      var<Pattern>(*n.source);
      for (const PrimExpr& index : n.indices) {
        expr<Pattern>(*index);
      }
      f_(n);
      return;
    }
    default:
      unsupported(e);
    }
  }

  void block(const SeqStmtNode& s) {
    for (const Stmt& item : s.seq) {
      stmt(*item);
    }
    f_(s);
  }

  void stmt(const StmtNode& s) {
    switch (s.dynamic_type_index()) {
    case SeqStmtNode::type_index:
      block(static_cast<const SeqStmtNode&>(s));
      return;
    case ForNode::type_index: {
      const auto& n = static_cast<const ForNode&>(s);
      def_var<false>(*n.var);
      expr(*n.begin);
      expr(*n.end);
      block(*n.body);
      f_(n);
      return;
    }
    case TensorStoreNode::type_index: {
      const auto& n = static_cast<const TensorStoreNode&>(s);
      var<false>(*n.dest);
      for (const PrimExpr& index : n.indices) {
        expr(*index);
      }
      expr(*n.value);
      f_(n);
      return;
    }
    case BindNode::type_index: {
      const auto& n = static_cast<const BindNode&>(s);
      def_var<false>(*n.var);
      expr(*n.value);
      f_(n);
      return;
    }
    case IfThenElseNode::type_index: {
      const auto& n = static_cast<const IfThenElseNode&>(s);
      expr(*n.cond);
      block(*n.then_case);
      if (n.else_case.defined()) {
        block(*n.else_case);
      }
      f_(n);
      return;
    }
    case AllocateNode::type_index: {
      const auto& n = static_cast<const AllocateNode&>(s);
      def_var<true>(*n.buffer);
      f_(n);
      return;
    }
    default:
      unsupported(s);
    }
  }

private:
  F& f_;
};

/// Calls `f(node)` (concrete static type) on every node of `fn`, children first.
template <class F>
void walk(const PrimFunc& fn, F&& f) {
  Walker<std::remove_reference_t<F>> walker(f);
  walker.func(*fn);
}

/// The number of Add nodes in `fn`.
inline std::size_t count_add(const PrimFunc& fn) {
  std::size_t count = 0;
  walk(fn, [&count](const auto& node) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(node)>, AddNode>) {
      ++count;
    }
  });
  return count;
}

/// The number of For nodes in `fn`, by a full walk (nothing pruned: the baseline of the
/// pruning walk).
inline std::size_t count_for(const PrimFunc& fn) {
  std::size_t count = 0;
  walk(fn, [&count](const auto& node) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(node)>, ForNode>) {
      ++count;
    }
  });
  return count;
}

namespace detail {
inline void count_for_in(const SeqStmtNode& block, std::size_t& count) {
  for (const Stmt& item : block.seq) {
    switch (item->dynamic_type_index()) {
    case ForNode::type_index:
      ++count;
      count_for_in(*static_cast<const ForNode&>(*item).body, count);
      break;
    case SeqStmtNode::type_index:
      count_for_in(static_cast<const SeqStmtNode&>(*item), count);
      break;
    case IfThenElseNode::type_index: {
      const auto& n = static_cast<const IfThenElseNode&>(*item);
      count_for_in(*n.then_case, count);
      if (n.else_case.defined()) {
        count_for_in(*n.else_case, count);
      }
      break;
    }
    default:
      break; // TensorStore, Bind, Allocate hold no statement
    }
  }
}
} // namespace detail

/// The number of For nodes in `fn`, pruned by hand: statements only, no expression, no
/// type (what a static walk that prunes by type should approach).
inline std::size_t count_for_pruned(const PrimFunc& fn) {
  std::size_t count = 0;
  detail::count_for_in(*fn->body, count);
  return count;
}

/// Whether a scalar is the literal zero of its type (the `x + 0` rewrite).
inline bool is_zero(const PrimExprNode& e) noexcept {
  switch (e.dynamic_type_index()) {
  case IntImmNode::type_index:
    return static_cast<const IntImmNode&>(e).value == 0;
  case FloatImmNode::type_index:
    return static_cast<const FloatImmNode&>(e).value == 0.0;
  default:
    return false;
  }
}

/// A replacement node, or nothing for "unchanged".
template <class T>
using Maybe = std::optional<Ref<T>>;

/// A post-order rebuilding mutator: with FoldAddZero, rewrites `x + 0` to `x`; without,
/// changes nothing and must return the very same root.
///
/// Every function returns an empty Maybe for "unchanged" and the replacement otherwise,
/// so that an unchanged node is never retained or released (and, unlike a null Ref, an
/// empty Maybe is destroyed by an inlined test: no call on the unchanged path). A rebuilt node is
/// made empty and given the original's plain fields (span included) and the new children: copying
/// the original first would copy its arrays only to overwrite them. The rule is handed the mapped
/// children before anything is built, so a dropped Add is never allocated. Variables are rebuilt
/// when their type changes, and every later mention is repointed to the new one.
template <bool FoldAddZero>
class Mutator {
public:
  PrimFunc run(const PrimFunc& fn) {
    Maybe<PrimFuncNode> out = func(*fn);
    if (out) {
      return *std::move(out);
    }
    return fn;
  }

  Maybe<PrimFuncNode> func(const PrimFuncNode& fn) {
    std::vector<Var> params;
    bool changed = false;
    for (std::size_t i = 0; i < fn.params.size(); ++i) {
      Maybe<VarNode> v = def_var<true>(*fn.params[i]);
      if (v && !changed) {
        changed = true;
        params.assign(fn.params.begin(), fn.params.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) {
        params.push_back(pick(std::move(v), fn.params[i]));
      }
    }
    Maybe<SeqStmtNode> body = block(*fn.body);
    if (!changed && !body) {
      return {};
    }
    auto out = make_object<PrimFuncNode>();
    out->span = fn.span;
    out->name = fn.name;
    out->attrs = fn.attrs;
    if (changed) {
      out->params = std::move(params);
    } else {
      out->params = fn.params;
    }
    out->body = pick(std::move(body), fn.body);
    return std::move(out).publish();
  }

private:
  template <class T>
  static Ref<T> pick(Maybe<T>&& mapped, const Ref<T>& original) {
    if (mapped) {
      return *std::move(mapped);
    }
    return original;
  }

  /// A variable at a use stands for its replacement if its definition changed.
  Maybe<VarNode> use_var(const VarNode& v) {
    if (renamed_.empty()) [[likely]] {
      return {};
    }
    return renamed(v);
  }
  [[gnu::noinline]] Maybe<VarNode> renamed(const VarNode& v) {
    auto it = renamed_.find(&v);
    if (it == renamed_.end()) {
      return {};
    }
    return it->second;
  }

  /// A definition: a new variable when its type changes, which later uses stand for.
  template <bool Pattern>
  Maybe<VarNode> def_var(const VarNode& v) {
    if (Maybe<VarNode> seen = use_var(v)) {
      return seen;
    }
    if (!v.ty.defined()) {
      return {};
    }
    Maybe<TypeNode> ty = type<Pattern>(*v.ty);
    if (!ty) {
      return {};
    }
    auto out = make_object<VarNode>();
    out->span = v.span;
    out->name = v.name;
    out->ty = *std::move(ty);
    Var fresh = std::move(out).publish();
    renamed_.emplace(&v, fresh);
    return fresh;
  }

  template <bool Pattern>
  Maybe<VarNode> var(const VarNode& v) {
    if constexpr (Pattern) {
      return def_var<true>(v);
    } else {
      return use_var(v);
    }
  }

  template <bool Pattern>
  Maybe<TypeNode> type(const TypeNode& t) {
    switch (t.dynamic_type_index()) {
    case PrimTypeNode::type_index:
      return {};
    case TensorTypeNode::type_index: {
      const auto& n = static_cast<const TensorTypeNode&>(t);
      std::vector<PrimExpr> shape;
      if (!exprs<Pattern>(n.shape, shape)) {
        return {};
      }
      auto out = make_object<TensorTypeNode>();
      out->shape = std::move(shape);
      out->dtype = n.dtype;
      return std::move(out).publish();
    }
    default:
      unsupported(t);
    }
  }

  /// Maps every element; false (and `out` untouched) when none changed.
  template <bool Pattern = false>
  bool exprs(const std::vector<PrimExpr>& xs, std::vector<PrimExpr>& out) {
    bool changed = false;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      Maybe<PrimExprNode> x = expr<Pattern>(*xs[i]);
      if (x && !changed) {
        changed = true;
        out.reserve(xs.size());
        out.assign(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) {
        out.push_back(pick(std::move(x), xs[i]));
      }
    }
    return changed;
  }

  template <bool Pattern, class N>
  [[gnu::noinline]] Maybe<PrimExprNode> binary(const N& n) {
    Maybe<PrimExprNode> a = expr<Pattern>(*n.a);
    Maybe<PrimExprNode> b = expr<Pattern>(*n.b);
    if constexpr (FoldAddZero && std::is_same_v<N, AddNode>) {
      if (is_zero(b ? **b : *n.b)) {
        return pick(std::move(a), n.a);
      }
    }
    if (!a && !b) {
      return {};
    }
    // The most common rebuild: set the fields directly instead of copying and overwriting.
    auto out = make_object<N>();
    out->span = n.span;
    out->a = pick(std::move(a), n.a);
    out->b = pick(std::move(b), n.b);
    return std::move(out).publish();
  }

  // The dispatcher stays small (every case is a call, most of them tail calls), so that
  // the recursion does not pay for the registers of the biggest case at every node.
  template <bool Pattern = false>
  Maybe<PrimExprNode> expr(const PrimExprNode& e) {
    switch (e.dynamic_type_index()) {
    case VarNode::type_index:
      return var<Pattern>(static_cast<const VarNode&>(e));
    case IntImmNode::type_index:
    case FloatImmNode::type_index:
      return {};
#define CTIR_BENCH_CASE(N)                                                                         \
  case N::type_index:                                                                              \
    return binary<Pattern>(static_cast<const N&>(e));
      CTIR_BENCH_BINARY_NODES(CTIR_BENCH_CASE)
#undef CTIR_BENCH_CASE
    case NotNode::type_index:
      return unary<Pattern>(static_cast<const NotNode&>(e));
    case NegNode::type_index:
      return unary<Pattern>(static_cast<const NegNode&>(e));
    case SelectNode::type_index:
      return select<Pattern>(static_cast<const SelectNode&>(e));
    case CastNode::type_index:
      return cast<Pattern>(static_cast<const CastNode&>(e));
    case TensorLoadNode::type_index:
      return load<Pattern>(static_cast<const TensorLoadNode&>(e));
    default:
      unsupported(e);
    }
  }

  template <bool Pattern, class N>
  [[gnu::noinline]] Maybe<PrimExprNode> unary(const N& n) {
    Maybe<PrimExprNode> a = expr<Pattern>(*n.a);
    if (!a) {
      return {};
    }
    auto out = make_object<N>();
    out->span = n.span;
    out->a = *std::move(a);
    return std::move(out).publish();
  }

  template <bool Pattern>
  [[gnu::noinline]] Maybe<PrimExprNode> select(const SelectNode& n) {
    Maybe<PrimExprNode> cond = expr<Pattern>(*n.cond);
    Maybe<PrimExprNode> t = expr<Pattern>(*n.true_value);
    Maybe<PrimExprNode> f = expr<Pattern>(*n.false_value);
    if (!cond && !t && !f) {
      return {};
    }
    auto out = make_object<SelectNode>();
    out->span = n.span;
    out->cond = pick(std::move(cond), n.cond);
    out->true_value = pick(std::move(t), n.true_value);
    out->false_value = pick(std::move(f), n.false_value);
    return std::move(out).publish();
  }

  template <bool Pattern>
  [[gnu::noinline]] Maybe<PrimExprNode> cast(const CastNode& n) {
    Maybe<PrimExprNode> value = expr<Pattern>(*n.value);
    if (!value) {
      return {};
    }
    auto out = make_object<CastNode>();
    out->span = n.span;
    out->dtype = n.dtype;
    out->value = *std::move(value);
    return std::move(out).publish();
  }

  template <bool Pattern>
  [[gnu::noinline]] Maybe<PrimExprNode> load(const TensorLoadNode& n) {
    Maybe<VarNode> source = var<Pattern>(*n.source);
    std::vector<PrimExpr> indices;
    const bool indices_changed = exprs<Pattern>(n.indices, indices);
    if (!source && !indices_changed) {
      return {};
    }
    auto out = make_object<TensorLoadNode>();
    out->span = n.span;
    out->source = pick(std::move(source), n.source);
    // (Not `changed ? std::move(a) : b`: with a const b that is a const prvalue, which
    // would be copy-assigned.)
    if (indices_changed) {
      out->indices = std::move(indices);
    } else {
      out->indices = n.indices;
    }
    return std::move(out).publish();
  }

  Maybe<SeqStmtNode> block(const SeqStmtNode& s) {
    std::vector<Stmt> items;
    bool changed = false;
    for (std::size_t i = 0; i < s.seq.size(); ++i) {
      Maybe<StmtNode> item = stmt(*s.seq[i]);
      if (item && !changed) {
        changed = true;
        items.reserve(s.seq.size());
        items.assign(s.seq.begin(), s.seq.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) {
        items.push_back(pick(std::move(item), s.seq[i]));
      }
    }
    if (!changed) {
      return {};
    }
    auto out = make_object<SeqStmtNode>();
    out->span = s.span;
    out->seq = std::move(items);
    return std::move(out).publish();
  }

  Maybe<StmtNode> stmt(const StmtNode& s) {
    switch (s.dynamic_type_index()) {
    case SeqStmtNode::type_index:
      return block(static_cast<const SeqStmtNode&>(s));
    case ForNode::type_index: {
      const auto& n = static_cast<const ForNode&>(s);
      Maybe<VarNode> v = def_var<false>(*n.var);
      Maybe<PrimExprNode> begin = expr(*n.begin);
      Maybe<PrimExprNode> end = expr(*n.end);
      Maybe<SeqStmtNode> body = block(*n.body);
      if (!v && !begin && !end && !body) {
        return {};
      }
      auto out = make_object<ForNode>();
      out->span = n.span;
      out->kind = n.kind;
      out->var = pick(std::move(v), n.var);
      out->begin = pick(std::move(begin), n.begin);
      out->end = pick(std::move(end), n.end);
      out->body = pick(std::move(body), n.body);
      return std::move(out).publish();
    }
    case TensorStoreNode::type_index: {
      const auto& n = static_cast<const TensorStoreNode&>(s);
      Maybe<VarNode> dest = use_var(*n.dest);
      std::vector<PrimExpr> indices;
      const bool indices_changed = exprs(n.indices, indices);
      Maybe<PrimExprNode> value = expr(*n.value);
      if (!dest && !indices_changed && !value) {
        return {};
      }
      auto out = make_object<TensorStoreNode>();
      out->span = n.span;
      out->dest = pick(std::move(dest), n.dest);
      if (indices_changed) {
        out->indices = std::move(indices);
      } else {
        out->indices = n.indices;
      }
      out->value = pick(std::move(value), n.value);
      return std::move(out).publish();
    }
    case BindNode::type_index: {
      const auto& n = static_cast<const BindNode&>(s);
      Maybe<VarNode> v = def_var<false>(*n.var);
      Maybe<PrimExprNode> value = expr(*n.value);
      if (!v && !value) {
        return {};
      }
      auto out = make_object<BindNode>();
      out->span = n.span;
      out->var = pick(std::move(v), n.var);
      out->value = pick(std::move(value), n.value);
      return std::move(out).publish();
    }
    case IfThenElseNode::type_index: {
      const auto& n = static_cast<const IfThenElseNode&>(s);
      Maybe<PrimExprNode> cond = expr(*n.cond);
      Maybe<SeqStmtNode> then_case = block(*n.then_case);
      Maybe<SeqStmtNode> else_case;
      if (n.else_case.defined()) {
        else_case = block(*n.else_case);
      }
      if (!cond && !then_case && !else_case) {
        return {};
      }
      auto out = make_object<IfThenElseNode>();
      out->span = n.span;
      out->cond = pick(std::move(cond), n.cond);
      out->then_case = pick(std::move(then_case), n.then_case);
      out->else_case = pick(std::move(else_case), n.else_case);
      return std::move(out).publish();
    }
    case AllocateNode::type_index: {
      const auto& n = static_cast<const AllocateNode&>(s);
      Maybe<VarNode> buffer = def_var<true>(*n.buffer);
      if (!buffer) {
        return {};
      }
      auto out = make_object<AllocateNode>();
      out->span = n.span;
      out->buffer = *std::move(buffer);
      return std::move(out).publish();
    }
    default:
      unsupported(s);
    }
  }

  /// Variables whose type changed, and their replacements (empty on the benchmark trees).
  std::unordered_map<const VarNode*, Var> renamed_;
};

/// Rebuilds `fn` changing nothing: returns `fn` itself and allocates nothing.
inline PrimFunc map_no_change(const PrimFunc& fn) { return Mutator<false>().run(fn); }

/// Rewrites every `x + 0` (and `x + 0.0`) to `x`, rebuilding only the changed paths.
inline PrimFunc map_fold_add_zero(const PrimFunc& fn) { return Mutator<true>().run(fn); }

} // namespace ctir::bench::hand
