// Definitions of <ctir/passes/fold_constant.hpp>.
#pragma once

#include <ctir/passes/fold_constant.hpp>

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/error.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/op_registry.hpp>
#include <ctir/passes/detail/graph_utils.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <cstddef>
#include <optional>
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
///
/// One post-order map does the folding, so every node is rewritten once (a shared node's
/// result is shared) with no deep native stack. A let's value is mapped before its body:
/// the callback that produces the value's result records a constant (or a tuple
/// expression) for the let's variable, so the uses in the body are substituted as they are
/// met. Values are recognised by the input node (`value_vars_`), collected beforehand.
class ConstantFolder {
public:
  explicit ConstantFolder(const IRModule& mod) : interpreter_(mod) {
    eval::ensure_builtin_kernels();
  }

  Function run(const Function& f) {
    // Every fold starts from a literal (a constant or a scalar literal, outside types) or
    // a projection: a function with neither is returned as it is, without the map.
    bool foldable = false;
    walk(f, not_into<Type>(callbacks(
                [this](const Let& let) {
                  if (is_constant_operand(let->value)) {
                    constants_.try_emplace(let->var.get(), let->value);
                  } else if (let->value.defined()) {
                    value_vars_.insert(let->value.get(), let->var.get());
                  }
                },
                [&foldable](const Constant&) { foldable = true; },
                [&foldable](const IntImm&) { foldable = true; },
                [&foldable](const FloatImm&) { foldable = true; },
                [&foldable](const TupleGetItem&) { foldable = true; })));
    if (!foldable) {
      return f;
    }
    // Types are not entered: no let-bound variable is used in one, and a typed closure's
    // type holds the types of all the closures it returns.
    return map(f, not_into<Type>(callbacks(
                      with_def_region_kind([this](const Var& var, DefRegionKind kind) -> Expr {
                        if (kind == DefRegionKind::none) {
                          if (const Expr* constant = constants_.find(var.get())) {
                            return settle(var.get(), *constant);
                          }
                        }
                        return settle(var.get(), var);
                      }),
                      [this](const Mapped<Let>& let) -> Expr {
                        const Expr out = constants_.contains(let.original()->var.get())
                                             ? let[&LetNode::body]
                                             : Expr(let.node());
                        return settle(let.original().get(), out);
                      },
                      [this](const Mapped<If>& branch) -> Expr {
                        const Expr& cond = branch[&IfNode::cond];
                        Expr out = branch.node();
                        if (const std::optional<bool> taken = constant_condition(cond)) {
                          out =
                              *taken ? branch[&IfNode::then_branch] : branch[&IfNode::else_branch];
                        }
                        return settle(branch.original().get(), std::move(out));
                      },
                      [this](const Mapped<TupleGetItem>& item) -> Expr {
                        const TupleGetItem& rebuilt = item.node();
                        return settle(item.original().get(), project(*rebuilt, rebuilt));
                      },
                      [this](const Mapped<Call>& call) -> Expr {
                        return settle(call.original().get(), fold_call(call.node()));
                      },
                      [this](const Mapped<Tuple>& tuple) -> Expr {
                        return settle(tuple.original().get(), tuple.node());
                      })));
  }

private:
  eval::Interpreter interpreter_;
  /// Let-bound variables whose value is a constant, and the constant.
  ctir::detail::PointerMap<Expr> constants_;
  /// Let-bound variables whose value is a tuple expression, and the tuple.
  ctir::detail::PointerMap<Tuple> tuples_;
  /// Every constant made here (see fold_call).
  std::vector<Constant> folded_;
  /// The values of the function's lets (input nodes) and the variables bound to them.
  ctir::detail::PointerMultiMap<const VarNode*> value_vars_;

  /// `out`, the result of input node `original`; when that node is a let's value, the
  /// let's variable now stands for a constant or a tuple expression it folded to.
  Expr settle(const Object* original, Expr out) {
    value_vars_.for_each(original, [&](const VarNode* var) {
      if (is_constant_operand(out)) {
        constants_.try_emplace(var, out);
      } else if (out.is<TupleNode>()) {
        tuples_.try_emplace(var, downcast<TupleNode>(out));
      }
    });
    return out;
  }

  Expr project(const TupleGetItemNode& item, const Expr& rebuilt) const {
    const TupleNode* tuple = item.tuple.as<TupleNode>();
    bool direct = tuple != nullptr;
    if (const auto* var = item.tuple.as<VarNode>()) {
      if (const Tuple* bound = tuples_.find(var)) {
        tuple = bound->get();
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
      if (!types_equal(constant_type(*folded), expected)) {
        return call;
      }
      // The interpreter knows constants by address: the folded ones stay alive while it
      // runs, so that no later constant takes the address of one that is gone.
      folded_.push_back(folded);
      return folded;
    } catch (const Error&) {
      // Ill-typed or failing at evaluation: the error stays where the program has it.
      return call;
    }
  }
};

} // namespace detail

CTIR_INLINE Function fold_constant(const Function& f, const IRModule& mod) {
  return detail::ConstantFolder(mod).run(f);
}

CTIR_INLINE Function FoldConstant::transform_function(Function f, const IRModule& mod,
                                                      const PassContext&) const {
  return fold_constant(f, mod);
}

} // namespace ctir::passes
