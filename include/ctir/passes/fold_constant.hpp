// FoldConstant: evaluates graph-level computations on constants at compile time.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/detail/graph_rewriter.hpp>
#include <ctir/passes/detail/graph_utils.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// Whether `e` is a compile-time constant operand: a tensor constant or a scalar literal.
inline bool is_constant_operand(const Expr& e) {
  return e.is<ConstantNode>() || e.is<IntImmNode>() || e.is<FloatImmNode>();
}

/// The value of a constant boolean condition (a bool literal, or a one-element bool
/// constant); nothing for anything else.
inline std::optional<bool> constant_condition(const Expr& e) {
  if (const auto* imm = e.as<IntImmNode>(); imm != nullptr && imm->dtype.is_bool()) {
    return imm->value != 0;
  }
  if (const auto* constant = e.as<ConstantNode>();
      constant != nullptr && constant->data.dtype().is_bool() && constant->data.ndim() == 0) {
    return constant->data.get(0) != 0.0;
  }
  return std::nullopt;
}

/// Whether `e` may be repeated freely in place of a projection (no computation, and in
/// scope wherever the tuple holding it is).
inline bool is_atomic(const Expr& e) {
  return e.is<VarNode>() || e.is<GlobalVarNode>() || is_constant_operand(e);
}

/// The rewriting state of FoldConstant for one function.
class ConstantFolder : public GraphRewriter<ConstantFolder> {
public:
  explicit ConstantFolder(const IRModule& mod) : interpreter_(mod) {
    eval::ensure_builtin_kernels();
  }

  Expr leaf(const Expr& e) {
    if (const auto* var = e.as<VarNode>()) {
      if (auto it = constants_.find(var); it != constants_.end()) {
        return it->second;
      }
    }
    return e;
  }

  void enter(const Expr& node, std::size_t index, const std::vector<Expr>& done) {
    // A let's value is rewritten before its body: a constant one is substituted for the
    // variable, a literal tuple remembered for projections.
    if (const auto* let = node.as<LetNode>(); let != nullptr && index == 1) {
      if (is_constant_operand(done[0])) {
        constants_.emplace(let->var.get(), done[0]);
      } else if (done[0].is<TupleNode>()) {
        tuples_.emplace(let->var.get(), downcast<TupleNode>(done[0]));
      }
    }
  }

  Expr post(const Expr& original, Expr rebuilt) {
    if (const auto* let = original.as<LetNode>()) {
      return constants_.contains(let->var.get()) ? rebuilt.as<LetNode>()->body : rebuilt;
    }
    if (const auto* branch = rebuilt.as<IfNode>()) {
      if (const std::optional<bool> cond = constant_condition(branch->cond)) {
        return *cond ? branch->then_branch : branch->else_branch;
      }
      return rebuilt;
    }
    if (const auto* item = rebuilt.as<TupleGetItemNode>()) {
      return project(*item, rebuilt);
    }
    if (rebuilt.is<CallNode>()) {
      return fold_call(downcast<CallNode>(rebuilt));
    }
    return rebuilt;
  }

private:
  eval::Interpreter interpreter_;
  /// Let-bound variables whose value is a constant, and the constant.
  std::unordered_map<const VarNode*, Expr> constants_;
  /// Let-bound variables whose value is a tuple expression, and the tuple.
  std::unordered_map<const VarNode*, Tuple> tuples_;

  Expr project(const TupleGetItemNode& item, const Expr& rebuilt) const {
    const TupleNode* tuple = item.tuple.as<TupleNode>();
    bool direct = tuple != nullptr;
    if (const auto* var = item.tuple.as<VarNode>()) {
      if (auto it = tuples_.find(var); it != tuples_.end()) {
        tuple = it->second.get();
      }
    }
    if (tuple == nullptr || item.index < 0 ||
        static_cast<std::size_t>(item.index) >= tuple->fields.size()) {
      return rebuilt; // out of range: left for InferType to report
    }
    const Expr& field = tuple->fields[static_cast<std::size_t>(item.index)];
    // Through a variable only atomic fields are repeated: a computed field would be
    // evaluated again (or moved out of the let that binds what it uses).
    return direct || is_atomic(field) ? field : rebuilt;
  }

  Expr fold_call(const Call& call) {
    const auto* op = call->op.as<OpNode>();
    // Nullary calls (zeros, ones) are kept: folding them would only store large constants.
    if (op == nullptr || call->args.empty()) {
      return call;
    }
    const OpDef* def = OpRegistry::global().find(op->name);
    if (def == nullptr || !def->has_kernel()) {
      return call;
    }
    std::vector<Type> types;
    for (const Expr& arg : call->args) {
      if (!is_constant_operand(arg)) {
        return call;
      }
      types.push_back(arg.is<ConstantNode>() ? constant_type(*arg.as<ConstantNode>())
                                             : scalar_tensor_type(downcast<PrimExprNode>(arg)));
    }
    try {
      const Type expected = def->infer_type(types, call->attrs);
      eval::Value value = interpreter_.evaluate(call);
      if (!value.is_tensor()) {
        return call;
      }
      Constant folded = Constant::make(value.as_tensor());
      // A kernel that disagrees with the type relation is not trusted.
      return types_equal(constant_type(*folded), expected) ? Expr(folded) : Expr(call);
    } catch (const Error&) {
      // Ill-typed or failing at evaluation: the error stays where the program has it.
      return call;
    }
  }
};

} // namespace detail

/// `f` with its constant computations folded (see FoldConstant); global calls resolve in
/// `mod`. Returns `f` itself when nothing folds.
inline Function fold_constant(const Function& f, const IRModule& mod = {}) {
  return downcast<FunctionNode>(detail::ConstantFolder(mod).rewrite(f));
}

/// Evaluates graph-level computations whose inputs are known at compile time.
///
/// - A call of an operator that has a kernel, whose arguments are all tensor constants or
///   scalar literals (`2f`), is evaluated with the reference kernels and replaced by a
///   constant of the result. Calls of operators without a kernel, calls of globals and
///   closures, and calls without arguments (`zeros`, `ones`: folding them would only
///   store large constants) are kept. So is a call that is ill-typed or fails when
///   evaluated (an integer division by zero, an out-of-range axis): the error stays a
///   run-time error.
/// - `let %v = <constant>; body` becomes `body` with the constant for `%v`, so folding
///   goes on through the uses.
/// - `if` on a constant condition (`true`, `false`, a rank-0 bool constant) becomes the
///   branch it takes.
/// - A projection of a tuple expression (`(a, b).1`) becomes the field; a projection of a
///   variable bound to a tuple expression becomes the field when the field is a variable,
///   global or constant.
///
/// Folding works bottom-up in one run, so chains fold completely and the pass is
/// idempotent. Types are kept (a folded constant has the type of the call), so InferType's
/// result stays valid; the pass requires it so that ill-typed programs are reported
/// before anything is evaluated.
struct FoldConstant : pass_interface<FoldConstant> {
  using required_passes = pass_list<InferType>;
  static constexpr PassInfo info() {
    return {.name = "FoldConstant",
            .opt_level = 2,
            .required = {"InferType"},
            .description = "evaluates computations on constants at compile time"};
  }
  Function transform_function(Function f, const IRModule& mod, const PassContext&) const {
    return fold_constant(f, mod);
  }
};


} // namespace ctir::passes
