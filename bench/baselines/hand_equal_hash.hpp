// The limit for structural equality and hashing: a hand-written recursive comparator and
// hasher over ctir's tensor-level IR, with alpha equivalence for defined variables.
//
// Semantics are those of ctir::structural_equal / structural_hash on tensor-level IR
// (which compares as trees): fields in hook order, ignored fields skipped, floats bitwise
// with NaN equal to NaN; a variable met first at a definition site (For::var, Bind::var,
// anywhere in the parameters or an Allocate buffer, which are patterns) is paired with
// its counterpart and its type compared then; a free variable equals only itself. The
// hasher is a running hash over a pre-order walk, a variable contributing the order of
// its first definition (alpha-equivalent programs hash alike).
#pragma once

#include "binary_nodes.hpp"

#include <ctir/core/error.hpp>
#include <ctir/ir/ir.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ctir::bench::hand {

/// An open-addressing map from node addresses to V; never erases, never shrinks.
template <class V>
class PtrMap {
public:
  V* find(const void* key) noexcept {
    if (size_ == 0) {
      return nullptr;
    }
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot(key, mask);; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.key == key) {
        return &s.value;
      }
      if (s.key == nullptr) {
        return nullptr;
      }
    }
  }
  /// Adds a key that is not present.
  void insert(const void* key, V value) {
    if ((size_ + 1) * 2 > slots_.size()) {
      grow();
    }
    place(key, value);
    ++size_;
  }
  std::size_t size() const noexcept { return size_; }

private:
  struct Slot {
    const void* key = nullptr;
    V value{};
  };
  static std::size_t slot(const void* key, std::size_t mask) noexcept {
    const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key));
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ULL) >> 20U) & mask;
  }
  void place(const void* key, V value) noexcept {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slot(key, mask);
    while (slots_[i].key != nullptr) {
      i = (i + 1) & mask;
    }
    slots_[i] = Slot{key, value};
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    for (const Slot& s : old) {
      if (s.key != nullptr) {
        place(s.key, s.value);
      }
    }
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

[[noreturn]] inline void unsupported_pair(const Object& node) {
  throw Error("hand-written equal/hash: unsupported node type " +
              std::string(node.dynamic_type_key()));
}

/// The hand-written structural comparator.
class Equal {
public:
  bool func(const PrimFuncNode& a, const PrimFuncNode& b) {
    if (!(a.attrs == b.attrs) || a.params.size() != b.params.size()) {
      return false;
    }
    pattern_ = true;
    for (std::size_t i = 0; i < a.params.size(); ++i) {
      if (!var(*a.params[i], *b.params[i], true)) {
        return false;
      }
    }
    pattern_ = false;
    return block(*a.body, *b.body);
  }

private:
  bool var(const VarNode& a, const VarNode& b, bool def_site) {
    if (const VarNode** partner = lhs_.find(&a)) {
      return *partner == &b;
    }
    if (rhs_.find(&b) != nullptr) {
      return false;
    }
    if (!def_site && !pattern_ && &a != &b) {
      return false;
    }
    lhs_.insert(&a, &b);
    rhs_.insert(&b, &a);
    if (a.ty.defined() != b.ty.defined()) {
      return false;
    }
    return !a.ty.defined() || type(*a.ty, *b.ty);
  }

  bool type(const TypeNode& a, const TypeNode& b) {
    if (a.dynamic_type_index() != b.dynamic_type_index()) {
      return false;
    }
    switch (a.dynamic_type_index()) {
    case PrimTypeNode::type_index:
      return static_cast<const PrimTypeNode&>(a).dtype == static_cast<const PrimTypeNode&>(b).dtype;
    case TensorTypeNode::type_index: {
      const auto& x = static_cast<const TensorTypeNode&>(a);
      const auto& y = static_cast<const TensorTypeNode&>(b);
      return x.dtype == y.dtype && exprs(x.shape, y.shape);
    }
    default:
      unsupported_pair(a);
    }
  }

  bool exprs(const std::vector<PrimExpr>& xs, const std::vector<PrimExpr>& ys) {
    if (xs.size() != ys.size()) {
      return false;
    }
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (!expr(*xs[i], *ys[i])) {
        return false;
      }
    }
    return true;
  }

  bool expr(const PrimExprNode& a, const PrimExprNode& b) {
    if (a.dynamic_type_index() != b.dynamic_type_index()) {
      return false;
    }
    switch (a.dynamic_type_index()) {
    case VarNode::type_index:
      return var(static_cast<const VarNode&>(a), static_cast<const VarNode&>(b), false);
    case IntImmNode::type_index: {
      const auto& x = static_cast<const IntImmNode&>(a);
      const auto& y = static_cast<const IntImmNode&>(b);
      return x.dtype == y.dtype && x.value == y.value;
    }
    case FloatImmNode::type_index: {
      const auto& x = static_cast<const FloatImmNode&>(a);
      const auto& y = static_cast<const FloatImmNode&>(b);
      return x.dtype == y.dtype && value_traits<double>::equal(x.value, y.value);
    }
#define CTIR_BENCH_CASE(N)                                                                         \
  case N::type_index: {                                                                            \
    const auto& x = static_cast<const N&>(a);                                                      \
    const auto& y = static_cast<const N&>(b);                                                      \
    return expr(*x.a, *y.a) && expr(*x.b, *y.b);                                                   \
  }
      CTIR_BENCH_BINARY_NODES(CTIR_BENCH_CASE)
#undef CTIR_BENCH_CASE
    case NotNode::type_index:
      return expr(*static_cast<const NotNode&>(a).a, *static_cast<const NotNode&>(b).a);
    case NegNode::type_index:
      return expr(*static_cast<const NegNode&>(a).a, *static_cast<const NegNode&>(b).a);
    case SelectNode::type_index: {
      const auto& x = static_cast<const SelectNode&>(a);
      const auto& y = static_cast<const SelectNode&>(b);
      return expr(*x.cond, *y.cond) && expr(*x.true_value, *y.true_value) &&
             expr(*x.false_value, *y.false_value);
    }
    case CastNode::type_index: {
      const auto& x = static_cast<const CastNode&>(a);
      const auto& y = static_cast<const CastNode&>(b);
      return x.dtype == y.dtype && expr(*x.value, *y.value);
    }
    case TensorLoadNode::type_index: {
      const auto& x = static_cast<const TensorLoadNode&>(a);
      const auto& y = static_cast<const TensorLoadNode&>(b);
      return var(*x.source, *y.source, false) && exprs(x.indices, y.indices);
    }
    default:
      unsupported_pair(a);
    }
  }

  bool block(const SeqStmtNode& a, const SeqStmtNode& b) {
    if (a.seq.size() != b.seq.size()) {
      return false;
    }
    for (std::size_t i = 0; i < a.seq.size(); ++i) {
      if (!stmt(*a.seq[i], *b.seq[i])) {
        return false;
      }
    }
    return true;
  }

  bool stmt(const StmtNode& a, const StmtNode& b) {
    if (a.dynamic_type_index() != b.dynamic_type_index()) {
      return false;
    }
    switch (a.dynamic_type_index()) {
    case SeqStmtNode::type_index:
      return block(static_cast<const SeqStmtNode&>(a), static_cast<const SeqStmtNode&>(b));
    case ForNode::type_index: {
      const auto& x = static_cast<const ForNode&>(a);
      const auto& y = static_cast<const ForNode&>(b);
      return x.kind == y.kind && var(*x.var, *y.var, true) && expr(*x.begin, *y.begin) &&
             expr(*x.end, *y.end) && block(*x.body, *y.body);
    }
    case TensorStoreNode::type_index: {
      const auto& x = static_cast<const TensorStoreNode&>(a);
      const auto& y = static_cast<const TensorStoreNode&>(b);
      return var(*x.dest, *y.dest, false) && exprs(x.indices, y.indices) &&
             expr(*x.value, *y.value);
    }
    case BindNode::type_index: {
      const auto& x = static_cast<const BindNode&>(a);
      const auto& y = static_cast<const BindNode&>(b);
      return var(*x.var, *y.var, true) && expr(*x.value, *y.value);
    }
    case IfThenElseNode::type_index: {
      const auto& x = static_cast<const IfThenElseNode&>(a);
      const auto& y = static_cast<const IfThenElseNode&>(b);
      if (x.else_case.defined() != y.else_case.defined()) {
        return false;
      }
      return expr(*x.cond, *y.cond) && block(*x.then_case, *y.then_case) &&
             (!x.else_case.defined() || block(*x.else_case, *y.else_case));
    }
    case AllocateNode::type_index: {
      const bool saved = pattern_;
      pattern_ = true;
      const bool result = var(*static_cast<const AllocateNode&>(a).buffer,
                              *static_cast<const AllocateNode&>(b).buffer, true);
      pattern_ = saved;
      return result;
    }
    default:
      unsupported_pair(a);
    }
  }

  bool pattern_ = false;
  PtrMap<const VarNode*> lhs_;
  PtrMap<const VarNode*> rhs_;
};

/// The hand-written structural hasher.
class Hasher {
public:
  std::uint64_t func(const PrimFuncNode& f) {
    mix(PrimFuncNode::type_index);
    mix(value_traits<Attrs>::hash(f.attrs));
    mix(f.params.size());
    pattern_ = true;
    for (const Var& param : f.params) {
      var(*param, true);
    }
    pattern_ = false;
    block(*f.body);
    return acc_;
  }

private:
  void mix(std::uint64_t value) noexcept { acc_ = hash_combine(acc_, value); }

  void var(const VarNode& v, bool def_site) {
    if (const std::uint64_t* token = tokens_.find(&v)) {
      mix(*token);
      return;
    }
    const std::uint64_t token = (def_site || pattern_)
                                    ? hash_combine(0xB0, tokens_.size())
                                    : hash_combine(0xF0, value_traits<std::string>::hash(v.name));
    tokens_.insert(&v, token);
    mix(token);
    if (v.ty.defined()) {
      type(*v.ty);
    } else {
      mix(0);
    }
  }

  void type(const TypeNode& t) {
    mix(t.dynamic_type_index());
    switch (t.dynamic_type_index()) {
    case PrimTypeNode::type_index:
      mix(value_traits<DataType>::hash(static_cast<const PrimTypeNode&>(t).dtype));
      return;
    case TensorTypeNode::type_index: {
      const auto& n = static_cast<const TensorTypeNode&>(t);
      mix(value_traits<DataType>::hash(n.dtype));
      exprs(n.shape);
      return;
    }
    default:
      unsupported_pair(t);
    }
  }

  void exprs(const std::vector<PrimExpr>& xs) {
    mix(xs.size());
    for (const PrimExpr& x : xs) {
      expr(*x);
    }
  }

  void expr(const PrimExprNode& e) {
    mix(e.dynamic_type_index());
    switch (e.dynamic_type_index()) {
    case VarNode::type_index:
      var(static_cast<const VarNode&>(e), false);
      return;
    case IntImmNode::type_index: {
      const auto& n = static_cast<const IntImmNode&>(e);
      mix(value_traits<DataType>::hash(n.dtype));
      mix(value_traits<std::int64_t>::hash(n.value));
      return;
    }
    case FloatImmNode::type_index: {
      const auto& n = static_cast<const FloatImmNode&>(e);
      mix(value_traits<DataType>::hash(n.dtype));
      mix(value_traits<double>::hash(n.value));
      return;
    }
#define CTIR_BENCH_CASE(N)                                                                         \
  case N::type_index: {                                                                            \
    const auto& n = static_cast<const N&>(e);                                                      \
    expr(*n.a);                                                                                    \
    expr(*n.b);                                                                                    \
    return;                                                                                        \
  }
      CTIR_BENCH_BINARY_NODES(CTIR_BENCH_CASE)
#undef CTIR_BENCH_CASE
    case NotNode::type_index:
      expr(*static_cast<const NotNode&>(e).a);
      return;
    case NegNode::type_index:
      expr(*static_cast<const NegNode&>(e).a);
      return;
    case SelectNode::type_index: {
      const auto& n = static_cast<const SelectNode&>(e);
      expr(*n.cond);
      expr(*n.true_value);
      expr(*n.false_value);
      return;
    }
    case CastNode::type_index: {
      const auto& n = static_cast<const CastNode&>(e);
      mix(value_traits<DataType>::hash(n.dtype));
      expr(*n.value);
      return;
    }
    case TensorLoadNode::type_index: {
      const auto& n = static_cast<const TensorLoadNode&>(e);
      var(*n.source, false);
      exprs(n.indices);
      return;
    }
    default:
      unsupported_pair(e);
    }
  }

  void block(const SeqStmtNode& s) {
    mix(SeqStmtNode::type_index);
    mix(s.seq.size());
    for (const Stmt& item : s.seq) {
      stmt(*item);
    }
  }

  void stmt(const StmtNode& s) {
    if (s.dynamic_type_index() == SeqStmtNode::type_index) {
      block(static_cast<const SeqStmtNode&>(s));
      return;
    }
    mix(s.dynamic_type_index());
    switch (s.dynamic_type_index()) {
    case ForNode::type_index: {
      const auto& n = static_cast<const ForNode&>(s);
      mix(value_traits<ForKind>::hash(n.kind));
      var(*n.var, true);
      expr(*n.begin);
      expr(*n.end);
      block(*n.body);
      return;
    }
    case TensorStoreNode::type_index: {
      const auto& n = static_cast<const TensorStoreNode&>(s);
      var(*n.dest, false);
      exprs(n.indices);
      expr(*n.value);
      return;
    }
    case BindNode::type_index: {
      const auto& n = static_cast<const BindNode&>(s);
      var(*n.var, true);
      expr(*n.value);
      return;
    }
    case IfThenElseNode::type_index: {
      const auto& n = static_cast<const IfThenElseNode&>(s);
      expr(*n.cond);
      block(*n.then_case);
      if (n.else_case.defined()) {
        block(*n.else_case);
      } else {
        mix(0);
      }
      return;
    }
    case AllocateNode::type_index: {
      const bool saved = pattern_;
      pattern_ = true;
      var(*static_cast<const AllocateNode&>(s).buffer, true);
      pattern_ = saved;
      return;
    }
    default:
      unsupported_pair(s);
    }
  }

  std::uint64_t acc_ = 0x5EED;
  bool pattern_ = false;
  PtrMap<std::uint64_t> tokens_;
};

/// Whether `a` and `b` are equal up to the renaming of the variables they define.
inline bool structural_equal(const PrimFunc& a, const PrimFunc& b) { return Equal().func(*a, *b); }

/// A structural hash of `f`, alike for alpha-equivalent programs.
inline std::uint64_t structural_hash(const PrimFunc& f) { return Hasher().func(*f); }

} // namespace ctir::bench::hand
