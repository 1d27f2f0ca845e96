// Definitions of <ctir/passes/fold_constant.hpp>.
#pragma once

#include <ctir/passes/fold_constant.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/passes/detail/graph_rewriter.hpp>
#include <ctir/passes/detail/graph_utils.hpp>

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// Whether `e` is a compile-time constant operand: a tensor constant or a scalar literal.
CTIR_INLINE bool is_constant_operand(const Expr& e) {
  return e.is<ConstantNode>() || e.is<IntImmNode>() || e.is<FloatImmNode>();
}

/// The value of a constant boolean condition (a bool literal, or a one-element bool
/// constant); nothing for anything else.
CTIR_INLINE std::optional<bool> constant_condition(const Expr& e) {
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
CTIR_INLINE bool is_atomic(const Expr& e) {
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

CTIR_INLINE Function fold_constant(const Function& f, const IRModule& mod) {
  return downcast<FunctionNode>(detail::ConstantFolder(mod).rewrite(f));
}

CTIR_INLINE Function FoldConstant::transform_function(Function f, const IRModule& mod,
                                                      const PassContext&) const {
  return fold_constant(f, mod);
}

} // namespace ctir::passes
