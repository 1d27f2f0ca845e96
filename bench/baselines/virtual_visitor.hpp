// A TVM-style baseline: virtual StmtExprVisitor / StmtExprMutator / equality and hashing
// functors over ctir's tensor-level IR, dispatching through a per-class function table.
//
// The shape is TVM's ExprFunctor: `VisitExpr(e)` is virtual; it looks the node's type
// index up in a table built once (a function-local static, as TVM's InitVTable), calls
// the table's function pointer, which calls the virtual `VisitExpr_(const AddNode*)`
// overload for the node's type. So each node costs a virtual call, a table lookup, an
// indirect call and a second virtual call, as in TVM. TVM's type indices are dense and
// index a vector; ctir's are hashes of the type key, so the table is a small
// open-addressing map (one multiply, usually one probe). Coverage and order are those
// of the hooks (a variable's type is visited where it is defined), like the other baselines.
#pragma once

#include "binary_nodes.hpp"

#include <ctir/core/error.hpp>
#include <ctir/ir/ir.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// The scalar node types with one virtual overload each.
#define CTIR_BENCH_VIRTUAL_EXPRS(X)                                                                \
  X(VarNode)                                                                                       \
  X(IntImmNode)                                                                                    \
  X(FloatImmNode)                                                                                  \
  CTIR_BENCH_BINARY_NODES(X)                                                                       \
  X(NotNode)                                                                                       \
  X(NegNode)                                                                                       \
  X(SelectNode)                                                                                    \
  X(CastNode)                                                                                      \
  X(TensorLoadNode)

#define CTIR_BENCH_VIRTUAL_STMTS(X)                                                                \
  X(SeqStmtNode)                                                                                   \
  X(ForNode)                                                                                       \
  X(TensorStoreNode)                                                                               \
  X(BindNode)                                                                                      \
  X(IfThenElseNode)                                                                                \
  X(AllocateNode)

#define CTIR_BENCH_VIRTUAL_TYPES(X)                                                                \
  X(PrimTypeNode)                                                                                  \
  X(TensorTypeNode)

namespace ctir::bench::tvm_style {

[[noreturn]] inline void cannot_dispatch(const Object& node, const char* functor) {
  throw Error(std::string(functor) + ": no dispatch for node type " +
              std::string(node.dynamic_type_key()));
}

/// Type index → function pointer, filled once per functor class (TVM's NodeFunctor).
template <class Fn>
class DispatchTable {
public:
  void set(std::uint32_t index, Fn fn) noexcept {
    std::size_t i = slot(index);
    while (slots_[i].fn != nullptr) {
      i = (i + 1) & mask;
    }
    slots_[i] = Entry{index, fn};
  }
  /// The function for `index`, or nullptr (TVM's can_dispatch).
  Fn find(std::uint32_t index) const noexcept {
    for (std::size_t i = slot(index);; i = (i + 1) & mask) {
      const Entry& entry = slots_[i];
      if (entry.index == index || entry.fn == nullptr) {
        return entry.fn;
      }
    }
  }

private:
  static constexpr std::size_t size = 64;
  static constexpr std::size_t mask = size - 1;
  static std::size_t slot(std::uint32_t index) noexcept {
    return static_cast<std::size_t>((index * 0x9E3779B1U) >> 26U);
  }
  struct Entry {
    std::uint32_t index = 0;
    Fn fn = nullptr;
  };
  std::array<Entry, size> slots_{};
};

// ---------------------------------------------------------------------------
// Visitor
// ---------------------------------------------------------------------------

/// Visits statements, expressions and types; override a `VisitExpr_`/`VisitStmt_` to act
/// on a node kind and call the base version to keep descending.
class StmtExprVisitor {
public:
  StmtExprVisitor() = default;
  StmtExprVisitor(const StmtExprVisitor&) = default;
  StmtExprVisitor& operator=(const StmtExprVisitor&) = default;
  virtual ~StmtExprVisitor() = default;

  virtual void VisitExpr(const PrimExprNode* e) {
    static const DispatchTable<ExprFn> table = make_expr_table();
    const ExprFn fn = table.find(e->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*e, "StmtExprVisitor::VisitExpr");
    }
    fn(this, e);
  }
  virtual void VisitStmt(const StmtNode* s) {
    static const DispatchTable<StmtFn> table = make_stmt_table();
    const StmtFn fn = table.find(s->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*s, "StmtExprVisitor::VisitStmt");
    }
    fn(this, s);
  }
  virtual void VisitType(const TypeNode* t) {
    static const DispatchTable<TypeFn> table = make_type_table();
    const TypeFn fn = table.find(t->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*t, "StmtExprVisitor::VisitType");
    }
    fn(this, t);
  }
  virtual void VisitPrimFunc(const PrimFuncNode* f) {
    pattern_ = true;
    for (const Var& param : f->params) {
      VisitExpr(param.get());
    }
    pattern_ = false;
    VisitStmt(f->body.get());
  }

  /// A variable is a leaf at its uses; at a definition (and anywhere in a pattern) its
  /// type is visited.
  virtual void VisitExpr_(const VarNode* op) {
    if (defining_ || pattern_) {
      defining_ = false;
      if (op->ty.defined()) {
        VisitType(op->ty.get());
      }
    }
  }
  virtual void VisitExpr_(const IntImmNode*) {}
  virtual void VisitExpr_(const FloatImmNode*) {}
#define CTIR_BENCH_DECL(N)                                                                         \
  virtual void VisitExpr_(const N* op) {                                                           \
    VisitExpr(op->a.get());                                                                        \
    VisitExpr(op->b.get());                                                                        \
  }
  CTIR_BENCH_BINARY_NODES(CTIR_BENCH_DECL)
#undef CTIR_BENCH_DECL
  virtual void VisitExpr_(const NotNode* op) { VisitExpr(op->a.get()); }
  virtual void VisitExpr_(const NegNode* op) { VisitExpr(op->a.get()); }
  virtual void VisitExpr_(const SelectNode* op) {
    VisitExpr(op->cond.get());
    VisitExpr(op->true_value.get());
    VisitExpr(op->false_value.get());
  }
  virtual void VisitExpr_(const CastNode* op) { VisitExpr(op->value.get()); }
  virtual void VisitExpr_(const TensorLoadNode* op) {
    VisitExpr(op->source.get());
    for (const PrimExpr& index : op->indices) {
      VisitExpr(index.get());
    }
  }

  virtual void VisitStmt_(const SeqStmtNode* op) {
    for (const Stmt& s : op->seq) {
      VisitStmt(s.get());
    }
  }
  virtual void VisitStmt_(const ForNode* op) {
    VisitDef(op->var.get());
    VisitExpr(op->begin.get());
    VisitExpr(op->end.get());
    VisitStmt(op->body.get());
  }
  virtual void VisitStmt_(const TensorStoreNode* op) {
    VisitExpr(op->dest.get());
    for (const PrimExpr& index : op->indices) {
      VisitExpr(index.get());
    }
    VisitExpr(op->value.get());
  }
  virtual void VisitStmt_(const BindNode* op) {
    VisitDef(op->var.get());
    VisitExpr(op->value.get());
  }
  virtual void VisitStmt_(const IfThenElseNode* op) {
    VisitExpr(op->cond.get());
    VisitStmt(op->then_case.get());
    if (op->else_case.defined()) {
      VisitStmt(op->else_case.get());
    }
  }
  virtual void VisitStmt_(const AllocateNode* op) {
    const bool saved = pattern_;
    pattern_ = true;
    VisitExpr(op->buffer.get());
    pattern_ = saved;
  }

  virtual void VisitType_(const PrimTypeNode*) {}
  virtual void VisitType_(const TensorTypeNode* op) {
    for (const PrimExpr& dim : op->shape) {
      VisitExpr(dim.get());
    }
  }

protected:
  /// Visits the variable at a simple definition site (For::var, Bind::var).
  void VisitDef(const VarNode* var) {
    defining_ = true;
    VisitExpr(var);
    defining_ = false;
  }

  /// Inside a pattern (the parameters, an Allocate buffer): every variable is defined.
  bool pattern_ = false;
  /// The next variable visited is at a simple definition site.
  bool defining_ = false;

private:
  using ExprFn = void (*)(StmtExprVisitor*, const PrimExprNode*);
  using StmtFn = void (*)(StmtExprVisitor*, const StmtNode*);
  using TypeFn = void (*)(StmtExprVisitor*, const TypeNode*);

  static DispatchTable<ExprFn> make_expr_table() {
    DispatchTable<ExprFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index, [](StmtExprVisitor* self, const PrimExprNode* e) {                      \
    self->VisitExpr_(static_cast<const N*>(e));                                                    \
  });
    CTIR_BENCH_VIRTUAL_EXPRS(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }
  static DispatchTable<StmtFn> make_stmt_table() {
    DispatchTable<StmtFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index, [](StmtExprVisitor* self, const StmtNode* s) {                          \
    self->VisitStmt_(static_cast<const N*>(s));                                                    \
  });
    CTIR_BENCH_VIRTUAL_STMTS(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }
  static DispatchTable<TypeFn> make_type_table() {
    DispatchTable<TypeFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index, [](StmtExprVisitor* self, const TypeNode* t) {                          \
    self->VisitType_(static_cast<const N*>(t));                                                    \
  });
    CTIR_BENCH_VIRTUAL_TYPES(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }
};

/// Counts Add nodes, the way a TVM user writes it.
class AddCounter final : public StmtExprVisitor {
public:
  using StmtExprVisitor::VisitExpr_;
  std::size_t count = 0;
  void VisitExpr_(const AddNode* op) override {
    ++count;
    StmtExprVisitor::VisitExpr_(op);
  }
};

/// Counts For nodes by visiting everything (a virtual visitor cannot prune by type).
class ForCounter final : public StmtExprVisitor {
public:
  using StmtExprVisitor::VisitStmt_;
  std::size_t count = 0;
  void VisitStmt_(const ForNode* op) override {
    ++count;
    StmtExprVisitor::VisitStmt_(op);
  }
};

inline std::size_t count_add(const PrimFunc& fn) {
  AddCounter counter;
  counter.VisitPrimFunc(fn.get());
  return counter.count;
}

inline std::size_t count_for(const PrimFunc& fn) {
  ForCounter counter;
  counter.VisitPrimFunc(fn.get());
  return counter.count;
}

// ---------------------------------------------------------------------------
// Mutator
// ---------------------------------------------------------------------------

/// Rebuilds what changed and returns the same object for what did not (TVM's
/// StmtExprMutator); override a `VisitExpr_` to rewrite a node kind.
class StmtExprMutator {
public:
  StmtExprMutator() = default;
  StmtExprMutator(const StmtExprMutator&) = default;
  StmtExprMutator& operator=(const StmtExprMutator&) = default;
  virtual ~StmtExprMutator() = default;

  virtual PrimExpr VisitExpr(const PrimExpr& e) {
    static const DispatchTable<ExprFn> table = make_expr_table();
    const ExprFn fn = table.find(e->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*e, "StmtExprMutator::VisitExpr");
    }
    return fn(this, e.get());
  }
  virtual Stmt VisitStmt(const Stmt& s) {
    static const DispatchTable<StmtFn> table = make_stmt_table();
    const StmtFn fn = table.find(s->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*s, "StmtExprMutator::VisitStmt");
    }
    return fn(this, s.get());
  }
  virtual Type VisitType(const Type& t) {
    if (const auto* tensor = t.as<TensorTypeNode>()) {
      std::vector<PrimExpr> shape;
      if (!MutateArray(tensor->shape, shape)) {
        return t;
      }
      auto out = make_object<TensorTypeNode>(*tensor);
      out->shape = std::move(shape);
      return std::move(out).publish();
    }
    if (t.is<PrimTypeNode>()) {
      return t;
    }
    cannot_dispatch(*t, "StmtExprMutator::VisitType");
  }
  virtual PrimFunc VisitPrimFunc(const PrimFunc& f) {
    std::vector<Var> params;
    bool changed = false;
    for (std::size_t i = 0; i < f->params.size(); ++i) {
      pattern_ = true;
      Var v = VisitVarDef(f->params[i]);
      pattern_ = false;
      if (!changed && !v.same_as(f->params[i])) {
        changed = true;
        params.assign(f->params.begin(), f->params.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) {
        params.push_back(std::move(v));
      }
    }
    Stmt body = VisitStmt(f->body);
    if (!changed && body.same_as(f->body)) {
      return f;
    }
    auto out = make_object<PrimFuncNode>(*f);
    if (changed) {
      out->params = std::move(params);
    }
    out->body = as_block(std::move(body));
    return std::move(out).publish();
  }

  /// A variable at a use: its replacement if its definition changed, else itself.
  Var VisitVarUse(const Var& v) {
    if (!renamed_.empty()) {
      auto it = renamed_.find(v.get());
      if (it != renamed_.end()) {
        return it->second;
      }
    }
    return v;
  }

  /// A variable at a definition: rebuilt when its type changes, and that replacement
  /// used everywhere after.
  Var VisitVarDef(const Var& v) {
    Var seen = VisitVarUse(v);
    if (!seen.same_as(v) || !v->ty.defined()) {
      return seen;
    }
    Type ty = VisitType(v->ty);
    if (ty.same_as(v->ty)) {
      return v;
    }
    auto out = make_object<VarNode>(*v);
    out->ty = std::move(ty);
    Var fresh = std::move(out).publish();
    renamed_.emplace(v.get(), fresh);
    return fresh;
  }

  virtual PrimExpr VisitExpr_(const VarNode* op) {
    return pattern_ ? VisitVarDef(ref_of(op)) : VisitVarUse(ref_of(op));
  }
  virtual PrimExpr VisitExpr_(const IntImmNode* op) { return ref_of(op); }
  virtual PrimExpr VisitExpr_(const FloatImmNode* op) { return ref_of(op); }
#define CTIR_BENCH_DECL(N)                                                                         \
  virtual PrimExpr VisitExpr_(const N* op) {                                                       \
    PrimExpr a = VisitExpr(op->a);                                                                 \
    PrimExpr b = VisitExpr(op->b);                                                                 \
    if (a.same_as(op->a) && b.same_as(op->b)) {                                                    \
      return ref_of(op);                                                                           \
    }                                                                                              \
    return Ref<N>::make(std::move(a), std::move(b));                                               \
  }
  CTIR_BENCH_BINARY_NODES(CTIR_BENCH_DECL)
#undef CTIR_BENCH_DECL
  virtual PrimExpr VisitExpr_(const NotNode* op) {
    PrimExpr a = VisitExpr(op->a);
    return a.same_as(op->a) ? PrimExpr(ref_of(op)) : PrimExpr(Not::make(std::move(a)));
  }
  virtual PrimExpr VisitExpr_(const NegNode* op) {
    PrimExpr a = VisitExpr(op->a);
    return a.same_as(op->a) ? PrimExpr(ref_of(op)) : PrimExpr(Neg::make(std::move(a)));
  }
  virtual PrimExpr VisitExpr_(const SelectNode* op) {
    PrimExpr cond = VisitExpr(op->cond);
    PrimExpr t = VisitExpr(op->true_value);
    PrimExpr f = VisitExpr(op->false_value);
    if (cond.same_as(op->cond) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
      return ref_of(op);
    }
    return Select::make(std::move(cond), std::move(t), std::move(f));
  }
  virtual PrimExpr VisitExpr_(const CastNode* op) {
    PrimExpr value = VisitExpr(op->value);
    if (value.same_as(op->value)) {
      return ref_of(op);
    }
    return Cast::make(op->dtype, std::move(value));
  }
  virtual PrimExpr VisitExpr_(const TensorLoadNode* op) {
    Var source = pattern_ ? VisitVarDef(op->source) : VisitVarUse(op->source);
    std::vector<PrimExpr> indices;
    const bool changed = MutateArray(op->indices, indices);
    if (!changed && source.same_as(op->source)) {
      return ref_of(op);
    }
    // (Not `changed ? std::move(indices) : op->indices`: that is a const prvalue, which
    // some compilers copy once more.)
    if (changed) {
      return TensorLoad::make(std::move(source), std::move(indices));
    }
    return TensorLoad::make(std::move(source), op->indices);
  }

  virtual Stmt VisitStmt_(const SeqStmtNode* op) {
    std::vector<Stmt> seq;
    bool changed = false;
    for (std::size_t i = 0; i < op->seq.size(); ++i) {
      Stmt s = VisitStmt(op->seq[i]);
      if (!changed && !s.same_as(op->seq[i])) {
        changed = true;
        seq.reserve(op->seq.size());
        seq.assign(op->seq.begin(), op->seq.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) {
        seq.push_back(std::move(s));
      }
    }
    if (!changed) {
      return ref_of(op);
    }
    return SeqStmt::make(std::move(seq));
  }
  virtual Stmt VisitStmt_(const ForNode* op) {
    Var v = VisitVarDef(op->var);
    PrimExpr begin = VisitExpr(op->begin);
    PrimExpr end = VisitExpr(op->end);
    Stmt body = VisitStmt(op->body);
    if (v.same_as(op->var) && begin.same_as(op->begin) && end.same_as(op->end) &&
        body.same_as(op->body)) {
      return ref_of(op);
    }
    return For::make(std::move(v), std::move(begin), std::move(end), std::move(body), op->kind);
  }
  virtual Stmt VisitStmt_(const TensorStoreNode* op) {
    Var dest = VisitVarUse(op->dest);
    std::vector<PrimExpr> indices;
    const bool changed = MutateArray(op->indices, indices);
    PrimExpr value = VisitExpr(op->value);
    if (!changed && dest.same_as(op->dest) && value.same_as(op->value)) {
      return ref_of(op);
    }
    if (changed) {
      return TensorStore::make(std::move(dest), std::move(indices), std::move(value));
    }
    return TensorStore::make(std::move(dest), op->indices, std::move(value));
  }
  virtual Stmt VisitStmt_(const BindNode* op) {
    Var v = VisitVarDef(op->var);
    PrimExpr value = VisitExpr(op->value);
    if (v.same_as(op->var) && value.same_as(op->value)) {
      return ref_of(op);
    }
    return Bind::make(std::move(v), std::move(value));
  }
  virtual Stmt VisitStmt_(const IfThenElseNode* op) {
    PrimExpr cond = VisitExpr(op->cond);
    Stmt then_case = VisitStmt(op->then_case);
    Stmt else_case = op->else_case.defined() ? VisitStmt(op->else_case) : Stmt();
    if (cond.same_as(op->cond) && then_case.same_as(op->then_case) &&
        else_case.same_as(op->else_case)) {
      return ref_of(op);
    }
    return IfThenElse::make(std::move(cond), std::move(then_case), std::move(else_case));
  }
  virtual Stmt VisitStmt_(const AllocateNode* op) {
    pattern_ = true;
    Var buffer = VisitVarDef(op->buffer);
    pattern_ = false;
    return buffer.same_as(op->buffer) ? Stmt(ref_of(op)) : Stmt(Allocate::make(std::move(buffer)));
  }

protected:
  /// Maps each element; false (and `out` untouched) when none changed (TVM's Array::Map).
  bool MutateArray(const std::vector<PrimExpr>& xs, std::vector<PrimExpr>& out) {
    bool changed = false;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      PrimExpr x = VisitExpr(xs[i]);
      if (!changed && !x.same_as(xs[i])) {
        changed = true;
        out.reserve(xs.size());
        out.assign(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) {
        out.push_back(std::move(x));
      }
    }
    return changed;
  }

private:
  using ExprFn = PrimExpr (*)(StmtExprMutator*, const PrimExprNode*);
  using StmtFn = Stmt (*)(StmtExprMutator*, const StmtNode*);

  static DispatchTable<ExprFn> make_expr_table() {
    DispatchTable<ExprFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index, [](StmtExprMutator* self, const PrimExprNode* e) -> PrimExpr {          \
    return self->VisitExpr_(static_cast<const N*>(e));                                             \
  });
    CTIR_BENCH_VIRTUAL_EXPRS(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }
  static DispatchTable<StmtFn> make_stmt_table() {
    DispatchTable<StmtFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index, [](StmtExprMutator* self, const StmtNode* s) -> Stmt {                  \
    return self->VisitStmt_(static_cast<const N*>(s));                                             \
  });
    CTIR_BENCH_VIRTUAL_STMTS(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }

  std::unordered_map<const VarNode*, Var> renamed_;
  /// Inside a pattern (the parameters, an Allocate buffer): every variable is defined.
  bool pattern_ = false;
};

/// Rewrites `x + 0` to `x` the way a TVM user writes it: mutate the operands, then test.
class AddZeroFolder final : public StmtExprMutator {
public:
  using StmtExprMutator::VisitExpr_;
  PrimExpr VisitExpr_(const AddNode* op) override {
    PrimExpr a = VisitExpr(op->a);
    PrimExpr b = VisitExpr(op->b);
    if (const auto* i = b.as<IntImmNode>(); i != nullptr && i->value == 0) {
      return a;
    }
    if (const auto* f = b.as<FloatImmNode>(); f != nullptr && f->value == 0.0) {
      return a;
    }
    if (a.same_as(op->a) && b.same_as(op->b)) {
      return ref_of(op);
    }
    return Add::make(std::move(a), std::move(b));
  }
};

/// Rebuilds `fn` changing nothing: returns `fn` itself.
inline PrimFunc map_no_change(const PrimFunc& fn) {
  StmtExprMutator mutator;
  return mutator.VisitPrimFunc(fn);
}

/// Rewrites every `x + 0` (and `x + 0.0`) to `x`.
inline PrimFunc map_fold_add_zero(const PrimFunc& fn) {
  AddZeroFolder mutator;
  return mutator.VisitPrimFunc(fn);
}

// ---------------------------------------------------------------------------
// Structural equality and hashing, TVM-functor style
// ---------------------------------------------------------------------------

/// Compares two programs node by node through virtual `VisitExpr_(const XNode*, other)`
/// overloads (TVM's ExprFunctor<bool(const PrimExpr&, const PrimExpr&)> shape), pairing
/// the variables defined by For, Bind and the parameters (alpha equivalence).
class StructuralEqualFunctor {
public:
  StructuralEqualFunctor() = default;
  StructuralEqualFunctor(const StructuralEqualFunctor&) = default;
  StructuralEqualFunctor& operator=(const StructuralEqualFunctor&) = default;
  virtual ~StructuralEqualFunctor() = default;

  bool Equal(const PrimFunc& a, const PrimFunc& b) { return VisitPrimFunc(a.get(), b.get()); }

  virtual bool VisitPrimFunc(const PrimFuncNode* a, const PrimFuncNode* b) {
    if (a->params.size() != b->params.size() || !(a->attrs == b->attrs)) {
      return false;
    }
    pattern_ = true;
    for (std::size_t i = 0; i < a->params.size(); ++i) {
      if (!VisitExpr(a->params[i].get(), b->params[i].get())) {
        return false;
      }
    }
    pattern_ = false;
    return VisitStmt(a->body.get(), b->body.get());
  }

  virtual bool VisitExpr(const PrimExprNode* a, const PrimExprNode* b) {
    static const DispatchTable<ExprFn> table = make_expr_table();
    if (a->dynamic_type_index() != b->dynamic_type_index()) {
      return false;
    }
    const ExprFn fn = table.find(a->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*a, "StructuralEqualFunctor::VisitExpr");
    }
    return fn(this, a, b);
  }
  virtual bool VisitStmt(const StmtNode* a, const StmtNode* b) {
    static const DispatchTable<StmtFn> table = make_stmt_table();
    if (a->dynamic_type_index() != b->dynamic_type_index()) {
      return false;
    }
    const StmtFn fn = table.find(a->dynamic_type_index());
    if (fn == nullptr) {
      cannot_dispatch(*a, "StructuralEqualFunctor::VisitStmt");
    }
    return fn(this, a, b);
  }
  virtual bool VisitType(const TypeNode* a, const TypeNode* b) {
    if (a->dynamic_type_index() != b->dynamic_type_index()) {
      return false;
    }
    if (const auto* x = instance<PrimTypeNode>(a)) {
      return x->dtype == static_cast<const PrimTypeNode*>(b)->dtype;
    }
    if (const auto* x = instance<TensorTypeNode>(a)) {
      const auto* y = static_cast<const TensorTypeNode*>(b);
      return x->dtype == y->dtype && VisitArray(x->shape, y->shape);
    }
    cannot_dispatch(*a, "StructuralEqualFunctor::VisitType");
  }

  virtual bool VisitExpr_(const VarNode* a, const PrimExprNode* other) {
    const auto* b = static_cast<const VarNode*>(other);
    auto it = lhs_.find(a);
    if (it != lhs_.end()) {
      return it->second == b;
    }
    if (rhs_.count(b) != 0) {
      return false;
    }
    // A simple definition site defines this variable only, not those in its type.
    const bool def_site = pattern_ || defining_;
    defining_ = false;
    if (!def_site && a != b) {
      return false; // different free variables
    }
    lhs_.emplace(a, b);
    rhs_.emplace(b, a);
    if (a->ty.defined() != b->ty.defined()) {
      return false;
    }
    return !a->ty.defined() || VisitType(a->ty.get(), b->ty.get());
  }
  virtual bool VisitExpr_(const IntImmNode* a, const PrimExprNode* other) {
    const auto* b = static_cast<const IntImmNode*>(other);
    return a->dtype == b->dtype && a->value == b->value;
  }
  virtual bool VisitExpr_(const FloatImmNode* a, const PrimExprNode* other) {
    const auto* b = static_cast<const FloatImmNode*>(other);
    return a->dtype == b->dtype && value_traits<double>::equal(a->value, b->value);
  }
#define CTIR_BENCH_DECL(N)                                                                         \
  virtual bool VisitExpr_(const N* a, const PrimExprNode* other) {                                 \
    const auto* b = static_cast<const N*>(other);                                                  \
    return VisitExpr(a->a.get(), b->a.get()) && VisitExpr(a->b.get(), b->b.get());                 \
  }
  CTIR_BENCH_BINARY_NODES(CTIR_BENCH_DECL)
#undef CTIR_BENCH_DECL
  virtual bool VisitExpr_(const NotNode* a, const PrimExprNode* other) {
    return VisitExpr(a->a.get(), static_cast<const NotNode*>(other)->a.get());
  }
  virtual bool VisitExpr_(const NegNode* a, const PrimExprNode* other) {
    return VisitExpr(a->a.get(), static_cast<const NegNode*>(other)->a.get());
  }
  virtual bool VisitExpr_(const SelectNode* a, const PrimExprNode* other) {
    const auto* b = static_cast<const SelectNode*>(other);
    return VisitExpr(a->cond.get(), b->cond.get()) &&
           VisitExpr(a->true_value.get(), b->true_value.get()) &&
           VisitExpr(a->false_value.get(), b->false_value.get());
  }
  virtual bool VisitExpr_(const CastNode* a, const PrimExprNode* other) {
    const auto* b = static_cast<const CastNode*>(other);
    return a->dtype == b->dtype && VisitExpr(a->value.get(), b->value.get());
  }
  virtual bool VisitExpr_(const TensorLoadNode* a, const PrimExprNode* other) {
    const auto* b = static_cast<const TensorLoadNode*>(other);
    return VisitExpr(a->source.get(), b->source.get()) && VisitArray(a->indices, b->indices);
  }

  virtual bool VisitStmt_(const SeqStmtNode* a, const StmtNode* other) {
    const auto* b = static_cast<const SeqStmtNode*>(other);
    if (a->seq.size() != b->seq.size()) {
      return false;
    }
    for (std::size_t i = 0; i < a->seq.size(); ++i) {
      if (!VisitStmt(a->seq[i].get(), b->seq[i].get())) {
        return false;
      }
    }
    return true;
  }
  virtual bool VisitStmt_(const ForNode* a, const StmtNode* other) {
    const auto* b = static_cast<const ForNode*>(other);
    return a->kind == b->kind && Define(a->var.get(), b->var.get()) &&
           VisitExpr(a->begin.get(), b->begin.get()) && VisitExpr(a->end.get(), b->end.get()) &&
           VisitStmt(a->body.get(), b->body.get());
  }
  virtual bool VisitStmt_(const TensorStoreNode* a, const StmtNode* other) {
    const auto* b = static_cast<const TensorStoreNode*>(other);
    return VisitExpr(a->dest.get(), b->dest.get()) && VisitArray(a->indices, b->indices) &&
           VisitExpr(a->value.get(), b->value.get());
  }
  virtual bool VisitStmt_(const BindNode* a, const StmtNode* other) {
    const auto* b = static_cast<const BindNode*>(other);
    return Define(a->var.get(), b->var.get()) && VisitExpr(a->value.get(), b->value.get());
  }
  virtual bool VisitStmt_(const IfThenElseNode* a, const StmtNode* other) {
    const auto* b = static_cast<const IfThenElseNode*>(other);
    if (a->else_case.defined() != b->else_case.defined()) {
      return false;
    }
    return VisitExpr(a->cond.get(), b->cond.get()) &&
           VisitStmt(a->then_case.get(), b->then_case.get()) &&
           (!a->else_case.defined() || VisitStmt(a->else_case.get(), b->else_case.get()));
  }
  virtual bool VisitStmt_(const AllocateNode* a, const StmtNode* other) {
    const bool saved = pattern_;
    pattern_ = true;
    const bool result =
        VisitExpr(a->buffer.get(), static_cast<const AllocateNode*>(other)->buffer.get());
    pattern_ = saved;
    return result;
  }

protected:
  /// A definition site: pairs the two variables.
  bool Define(const VarNode* a, const VarNode* b) {
    defining_ = true;
    const bool result = VisitExpr(a, b);
    defining_ = false;
    return result;
  }

  bool VisitArray(const std::vector<PrimExpr>& xs, const std::vector<PrimExpr>& ys) {
    if (xs.size() != ys.size()) {
      return false;
    }
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (!VisitExpr(xs[i].get(), ys[i].get())) {
        return false;
      }
    }
    return true;
  }

private:
  template <class T, class U>
  static const T* instance(const U* node) noexcept {
    return node->dynamic_type_index() == T::type_index ? static_cast<const T*>(node) : nullptr;
  }

  using ExprFn = bool (*)(StructuralEqualFunctor*, const PrimExprNode*, const PrimExprNode*);
  using StmtFn = bool (*)(StructuralEqualFunctor*, const StmtNode*, const StmtNode*);

  static DispatchTable<ExprFn> make_expr_table() {
    DispatchTable<ExprFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index,                                                                         \
            [](StructuralEqualFunctor* self, const PrimExprNode* a, const PrimExprNode* b) {       \
              return self->VisitExpr_(static_cast<const N*>(a), b);                                \
            });
    CTIR_BENCH_VIRTUAL_EXPRS(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }
  static DispatchTable<StmtFn> make_stmt_table() {
    DispatchTable<StmtFn> table;
#define CTIR_BENCH_SET(N)                                                                          \
  table.set(N::type_index,                                                                         \
            [](StructuralEqualFunctor* self, const StmtNode* a, const StmtNode* b) {               \
              return self->VisitStmt_(static_cast<const N*>(a), b);                                \
            });
    CTIR_BENCH_VIRTUAL_STMTS(CTIR_BENCH_SET)
#undef CTIR_BENCH_SET
    return table;
  }

  bool pattern_ = false;
  bool defining_ = false;
  std::unordered_map<const VarNode*, const VarNode*> lhs_;
  std::unordered_map<const VarNode*, const VarNode*> rhs_;
};

/// Hashes a program with a StmtExprVisitor: a running hash over a pre-order walk of type
/// indices, plain values and array lengths; a variable is hashed by the order in which
/// it is first defined (so alpha-equivalent programs hash alike), a free one by its name.
class StructuralHasher final : public StmtExprVisitor {
public:
  using StmtExprVisitor::VisitExpr_;
  using StmtExprVisitor::VisitStmt_;
  using StmtExprVisitor::VisitType_;

  std::uint64_t Hash(const PrimFunc& f) {
    acc_ = hash_combine(0x5EED, PrimFuncNode::type_index);
    acc_ = hash_combine(acc_, value_traits<Attrs>::hash(f->attrs));
    acc_ = hash_combine(acc_, f->params.size());
    pattern_ = true;
    for (const Var& param : f->params) {
      VisitExpr(param.get());
    }
    pattern_ = false;
    VisitStmt(f->body.get());
    return acc_;
  }

  void VisitExpr(const PrimExprNode* e) override {
    acc_ = hash_combine(acc_, e->dynamic_type_index());
    StmtExprVisitor::VisitExpr(e);
  }
  void VisitStmt(const StmtNode* s) override {
    acc_ = hash_combine(acc_, s->dynamic_type_index());
    StmtExprVisitor::VisitStmt(s);
  }
  void VisitType(const TypeNode* t) override {
    acc_ = hash_combine(acc_, t->dynamic_type_index());
    StmtExprVisitor::VisitType(t);
  }

  void VisitExpr_(const VarNode* op) override {
    auto it = tokens_.find(op);
    if (it != tokens_.end()) {
      acc_ = hash_combine(acc_, it->second);
      return;
    }
    const bool bound = pattern_ || defining_;
    const std::uint64_t token = bound
                                    ? hash_combine(0xB0, tokens_.size())
                                    : hash_combine(0xF0, value_traits<std::string>::hash(op->name));
    tokens_.emplace(op, token);
    acc_ = hash_combine(acc_, token);
    defining_ = false;
    StmtExprVisitor::VisitExpr_(op); // the type, at the first encounter only
  }
  void VisitExpr_(const IntImmNode* op) override {
    acc_ = hash_combine(acc_, value_traits<DataType>::hash(op->dtype));
    acc_ = hash_combine(acc_, value_traits<std::int64_t>::hash(op->value));
  }
  void VisitExpr_(const FloatImmNode* op) override {
    acc_ = hash_combine(acc_, value_traits<DataType>::hash(op->dtype));
    acc_ = hash_combine(acc_, value_traits<double>::hash(op->value));
  }
  void VisitExpr_(const CastNode* op) override {
    acc_ = hash_combine(acc_, value_traits<DataType>::hash(op->dtype));
    StmtExprVisitor::VisitExpr_(op);
  }
  void VisitExpr_(const TensorLoadNode* op) override {
    acc_ = hash_combine(acc_, op->indices.size());
    StmtExprVisitor::VisitExpr_(op);
  }
  void VisitStmt_(const SeqStmtNode* op) override {
    acc_ = hash_combine(acc_, op->seq.size());
    StmtExprVisitor::VisitStmt_(op);
  }
  void VisitStmt_(const ForNode* op) override {
    acc_ = hash_combine(acc_, value_traits<ForKind>::hash(op->kind));
    defining_ = true;
    VisitExpr(op->var.get());
    defining_ = false;
    VisitExpr(op->begin.get());
    VisitExpr(op->end.get());
    VisitStmt(op->body.get());
  }
  void VisitStmt_(const BindNode* op) override {
    defining_ = true;
    VisitExpr(op->var.get());
    defining_ = false;
    VisitExpr(op->value.get());
  }
  void VisitStmt_(const TensorStoreNode* op) override {
    acc_ = hash_combine(acc_, op->indices.size());
    StmtExprVisitor::VisitStmt_(op);
  }
  void VisitStmt_(const IfThenElseNode* op) override {
    acc_ = hash_combine(acc_, op->else_case.defined() ? 1U : 0U);
    StmtExprVisitor::VisitStmt_(op);
  }
  void VisitStmt_(const AllocateNode* op) override {
    const bool saved = pattern_;
    pattern_ = true;
    StmtExprVisitor::VisitStmt_(op);
    pattern_ = saved;
  }
  void VisitType_(const PrimTypeNode* op) override {
    acc_ = hash_combine(acc_, value_traits<DataType>::hash(op->dtype));
  }
  void VisitType_(const TensorTypeNode* op) override {
    acc_ = hash_combine(acc_, value_traits<DataType>::hash(op->dtype));
    acc_ = hash_combine(acc_, op->shape.size());
    StmtExprVisitor::VisitType_(op);
  }

private:
  std::uint64_t acc_ = 0;
  std::unordered_map<const VarNode*, std::uint64_t> tokens_;
};

/// Whether `a` and `b` are equal up to the renaming of the variables they define.
inline bool structural_equal(const PrimFunc& a, const PrimFunc& b) {
  StructuralEqualFunctor functor;
  return functor.Equal(a, b);
}

/// A structural hash of `f`, alike for alpha-equivalent programs.
inline std::uint64_t structural_hash(const PrimFunc& f) {
  StructuralHasher hasher;
  return hasher.Hash(f);
}

} // namespace ctir::bench::tvm_style

#undef CTIR_BENCH_VIRTUAL_EXPRS
#undef CTIR_BENCH_VIRTUAL_STMTS
#undef CTIR_BENCH_VIRTUAL_TYPES
