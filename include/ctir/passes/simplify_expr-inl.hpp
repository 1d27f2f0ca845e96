// Definitions of <ctir/passes/simplify_expr.hpp>.
#pragma once

#include <ctir/passes/simplify_expr.hpp>

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/error.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/passes/detail/graph_utils.hpp>
#include <ctir/passes/detail/type_inference.hpp>
#include <ctir/traverse/map.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// Whether `e` is a literal or constant whose every element is `value`.
CTIR_INLINE bool is_filled_with(const Expr& e, double value) {
  if (const auto* imm = e.as<IntImmNode>()) {
    return !imm->dtype.is_bool() && static_cast<double>(imm->value) == value;
  }
  if (const auto* imm = e.as<FloatImmNode>()) {
    return imm->value == value;
  }
  if (const auto* constant = e.as<ConstantNode>()) {
    const TensorData& data = constant->data;
    if (data.dtype().is_bool()) {
      return false;
    }
    for (std::size_t i = 0; i < data.size(); ++i) {
      if (data.get(i) != value) {
        return false;
      }
    }
    return true;
  }
  return false;
}

/// The name of the operator `call` calls, or empty.
CTIR_INLINE std::string_view op_name(const CallNode& call) {
  const auto* op = call.op.as<OpNode>();
  return op == nullptr ? std::string_view() : std::string_view(op->name);
}

/// The rewriting state of SimplifyExpr: the types of the nodes it has seen.
class ExprSimplifier {
public:
  explicit ExprSimplifier(const IRModule& mod) : module_(mod) {}

  Function run(const Function& f) {
    // Types come from inference; without them (an ill-typed or unannotated function) only
    // the rules that need no type apply.
    try {
      inference_.emplace(module_, [this](const GlobalVar& g, const ObjectRef&) -> Type {
        const Function callee = try_downcast<FunctionNode>(module_.find(g->name));
        if (!callee.defined() || !callee->ret_type.defined()) {
          throw Error("unknown signature");
        }
        std::vector<Type> params;
        for (const Var& p : callee->params) {
          params.push_back(p->ty);
        }
        return FuncType::make(std::move(params), callee->ret_type);
      });
      static_cast<void>(inference_->infer_function(f));
    } catch (const Error&) {
      inference_.reset();
    }
    return map(f, [this](const Call& call) -> Expr { return simplify(call); });
  }

private:
  const IRModule& module_;
  std::optional<GraphTypeInference> inference_;
  /// Types of the nodes this pass built or rebuilt.
  ctir::detail::PointerMap<Type> types_;

  Type type_of(const Expr& e) const {
    if (const Type* known = types_.find(e.get())) {
      return *known;
    }
    if (const auto* var = e.as<VarNode>()) {
      return var->ty;
    }
    if (const auto* constant = e.as<ConstantNode>()) {
      return constant_type(*constant);
    }
    if (e.is<IntImmNode>() || e.is<FloatImmNode>()) {
      return scalar_tensor_type(downcast<PrimExprNode>(e));
    }
    return inference_ ? inference_->type_of(e.get()) : Type();
  }

  /// Records the type of a call built or rebuilt here, from its operands.
  Expr typed(Expr e) {
    if (types_.contains(e.get()) || (inference_ && inference_->type_of(e.get()).defined())) {
      return e;
    }
    if (const auto* call = e.as<CallNode>()) {
      if (const auto* op = call->op.as<OpNode>()) {
        std::vector<Type> args;
        for (const Expr& arg : call->args) {
          args.push_back(type_of(arg));
          if (!args.back().defined()) {
            return e;
          }
        }
        try {
          *types_.try_emplace(e.get()).first =
              OpRegistry::global().get(op->name).infer_type(args, call->attrs);
        } catch (const Error&) {
          // Ill-typed: left for InferType to report; the rules needing a type skip it.
        }
      }
    }
    return e;
  }

  /// Whether `x op c` is `x`: `c` (a literal or constant) broadcast against x's type
  /// leaves its shape and dtype unchanged.
  bool absorbs(const Expr& x, const Expr& c) const {
    const Type tx = type_of(x);
    const Type tc = type_of(c);
    const auto* a = tx.as<TensorTypeNode>();
    const auto* b = tc.as<TensorTypeNode>();
    if (a == nullptr || b == nullptr || a->dtype != b->dtype) {
      return false;
    }
    const auto shape = ops::try_broadcast(a->shape, b->shape);
    return shape && types_equal(TensorType::make(*shape, a->dtype), tx);
  }

  /// The permutation a transpose applies (input axis of each output axis), or nothing
  /// when the rank is unknown.
  std::optional<std::vector<std::int64_t>> permutation(const CallNode& call) const {
    const auto axes = call.attrs.get<std::vector<std::int64_t>>("axes");
    // Held here: a literal's type is made on the fly, and `input` points into it.
    const Type input_type = type_of(call.args[0]);
    const auto* input = input_type.as<TensorTypeNode>();
    if (!axes && input == nullptr) {
      return std::nullopt;
    }
    const auto rank = static_cast<std::int64_t>(axes ? axes->size() : input->shape.size());
    std::vector<std::int64_t> result;
    for (std::int64_t i = 0; i < rank; ++i) {
      const std::int64_t axis = axes ? (*axes)[static_cast<std::size_t>(i)] : rank - 1 - i;
      if (axis < -rank || axis >= rank) {
        return std::nullopt; // ill-formed: left for InferType to report
      }
      result.push_back(axis < 0 ? axis + rank : axis);
    }
    return result;
  }

  Expr simplify(const Call& call) {
    const std::string_view name = op_name(*call);
    const std::vector<Expr>& args = call->args;
    if ((name == "add" || name == "subtract" || name == "multiply" || name == "divide") &&
        args.size() == 2) {
      const double unit = name == "add" || name == "subtract" ? 0.0 : 1.0;
      const bool commutes = name == "add" || name == "multiply";
      if (is_filled_with(args[1], unit) && absorbs(args[0], args[1])) {
        return args[0];
      }
      if (commutes && is_filled_with(args[0], unit) && absorbs(args[1], args[0])) {
        return args[1];
      }
    }
    if (name == "negative" && args.size() == 1) {
      if (const auto* inner = args[0].as<CallNode>();
          inner != nullptr && op_name(*inner) == "negative" && inner->args.size() == 1) {
        return inner->args[0];
      }
    }
    if (name == "reshape" && args.size() == 1) {
      Expr input = args[0];
      if (const auto* inner = input.as<CallNode>();
          inner != nullptr && op_name(*inner) == "reshape" && inner->args.size() == 1) {
        input = inner->args[0];
      }
      const auto newshape = call->attrs.get<std::vector<std::int64_t>>("newshape");
      const Type input_type = type_of(input); // `in` points into it
      if (const auto* in = input_type.as<TensorTypeNode>(); in != nullptr && newshape) {
        bool same = in->shape.size() == newshape->size();
        for (std::size_t i = 0; same && i < newshape->size(); ++i) {
          same = ops::static_dim(in->shape[i]) == (*newshape)[i];
        }
        if (same) {
          return input;
        }
      }
      if (!input.same_as(args[0])) {
        return typed(Call::make(call->op, {input}, call->attrs));
      }
    }
    if (name == "transpose" && args.size() == 1) {
      if (const auto* inner = args[0].as<CallNode>();
          inner != nullptr && op_name(*inner) == "transpose" && inner->args.size() == 1) {
        const auto outer_axes = permutation(*call);
        const auto inner_axes = permutation(*inner);
        if (outer_axes && inner_axes && outer_axes->size() == inner_axes->size()) {
          std::vector<std::int64_t> composed;
          bool identity = true;
          for (std::size_t i = 0; i < outer_axes->size(); ++i) {
            composed.push_back((*inner_axes)[static_cast<std::size_t>((*outer_axes)[i])]);
            identity = identity && composed.back() == static_cast<std::int64_t>(i);
          }
          if (identity) {
            return inner->args[0];
          }
          Attrs attrs = call->attrs;
          attrs.set("axes", std::move(composed));
          return typed(Call::make(call->op, {inner->args[0]}, std::move(attrs)));
        }
      }
    }
    return typed(call);
  }
};

} // namespace detail

CTIR_INLINE Function simplify_expr(const Function& f, const IRModule& mod) {
  return detail::ExprSimplifier(mod).run(f);
}

CTIR_INLINE Function SimplifyExpr::transform_function(Function f, const IRModule& mod,
                                                      const PassContext&) const {
  return simplify_expr(f, mod);
}

} // namespace ctir::passes
