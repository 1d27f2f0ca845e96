// The type inference of graph-level functions that InferType runs and other passes reuse.
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/type.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ctir {
struct OpDef;
} // namespace ctir

namespace ctir::passes::detail {

/// The error InferType reports: `ctir: InferType: <what>`, about `node`.
[[noreturn]] void type_error(const ObjectRef& node, const std::string& what);

/// Infers the types of one graph-level function, rebuilding what changes.
///
/// Iterative (an explicit stack), so deep chains of lets and calls need no deep native
/// stack. Every input node is inferred once (shared dataflow nodes stay shared); the
/// results are kept, so `type_of` answers for every node of the input and of the output.
class GraphTypeInference {
public:
  /// The declared type of a global function (a FuncType); throws for a missing global or
  /// a tensor-level one. `use` is the node to blame.
  using GlobalSignature = std::function<Type(const GlobalVar& global, const ObjectRef& use)>;

  GraphTypeInference(const IRModule& mod, GlobalSignature signature);

  /// `f` with every let-bound variable and the result type filled in; `f` itself when
  /// nothing was missing. Throws NodeError for an ill-typed node.
  Function infer_function(const Function& f);

  /// The type of `node`, a node of an inferred function (input or output); null if unknown.
  Type type_of(const Object* node) const;

private:
  struct Result {
    Expr expr;
    Type type;
  };
  /// A node on the explicit stack; its operands are `kids[begin, begin + count)` of the
  /// buffer the stack shares (no vector per node). The input graph, which the caller
  /// holds, keeps them alive: plain pointers, no reference counting per operand.
  struct Frame {
    const ExprNode* node = nullptr;
    std::size_t begin = 0;
    std::size_t count = 0;
    std::size_t next = 0;
    /// A let or a function: something comes into scope before one of its children.
    bool scopes = false;
  };

  const IRModule& module_;
  GlobalSignature signature_;
  // Flat tables: one entry per node of functions of up to millions of nodes, where a
  // node-based map costs an allocation per entry and cache misses per lookup.
  ctir::detail::PointerMap<Result> done_;
  /// The types of the nodes that are not input nodes: rebuilt nodes, typed variables and
  /// the parameters (an input node's type is in done_). Only the parameters when nothing
  /// changes, as on a module inferred before.
  ctir::detail::PointerMap<Type> new_types_;
  /// Let-bound variables that received a type: the old variable to the new one.
  ctir::detail::PointerMap<Var> renamed_;
  /// The operators looked up last (a call has an operator node of its own, and a
  /// function calls few operators): name and definition, replaced in turn.
  struct RecentOp {
    std::string name;
    const OpDef* def = nullptr;
  };
  std::array<RecentOp, 4> recent_ops_{};
  std::size_t next_recent_op_ = 0;
  /// The argument types of the call being finished (one buffer, no vector per call), and
  /// whether any of its arguments was rebuilt.
  std::vector<Type> arg_types_;
  bool args_changed_ = false;

  Result infer(const Expr& root);

  /// Definitions that come into scope before a child: a let's variable before its body,
  /// a function's parameters before its body.
  void before_child(const Frame& frame);

  void define_let_var(const LetNode& let);

  const Result& result_of(const Expr& e) const;

  /// The type of operand `e` of `node`, which must be a value.
  const Type& value_type(const Expr& e, const Expr& node, const std::string& what) const;

  /// The new version of `e`'s operand `kid`.
  const Expr& updated(const Expr& kid) const;

  Result finish(const Expr& e);

  /// `call` with its operands replaced by their new versions (itself when none changed);
  /// called right after arg_types(call->args).
  template <class Node>
  Expr rebuilt_call(const Ref<Node>& call, bool with_op) const;

  /// Fills arg_types_ with the types of `args`, which must be values, and args_changed_.
  const std::vector<Type>& arg_types(const std::vector<Expr>& args, const Expr& node);

  /// The registered definition of operator `op`, called by `call`.
  const OpDef& op_def(const OpNode& op, const Call& call);

  static std::string types_text(const std::vector<Type>& types);

  Result finish_call(const Call& call);

  Result finish_call_dps(const CallDps& call);
};

/// Infers the functions of a module in call order, so that a global call sees the
/// callee's result type even when only inference provides it.
class ModuleTypeInference {
public:
  explicit ModuleTypeInference(const IRModule& mod);
  ModuleTypeInference(const ModuleTypeInference&) = delete;
  ModuleTypeInference& operator=(const ModuleTypeInference&) = delete;

  /// The module with every graph-level function inferred; `mod` itself when nothing changed.
  IRModule run();

  enum class State { running, done };

  const IRModule& module_;
  std::unordered_map<std::string, State> state_;
  std::unordered_map<std::string, Function> inferred_;

  /// `f` inferred, its global calls resolved in the module.
  Function infer(const Function& f);

private:
  Function infer_global(const std::string& name);

  Type signature(const GlobalVar& global, const ObjectRef& use);
};

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/type_inference-inl.hpp>
#endif
