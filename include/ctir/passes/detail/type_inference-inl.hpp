// Definitions of <ctir/passes/detail/type_inference.hpp>.
#pragma once

#include <ctir/passes/detail/type_inference.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/passes/detail/graph_utils.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace ctir::passes::detail {

CTIR_INLINE void type_error(const ObjectRef& node, const std::string& what) {
  throw NodeError(node, "ctir: InferType: " + what);
}

CTIR_INLINE GraphTypeInference::GraphTypeInference(const IRModule& mod, GlobalSignature signature)
    : module_(mod), signature_(std::move(signature)) {}

CTIR_INLINE Function GraphTypeInference::infer_function(const Function& f) {
  const Result result = infer(f);
  return downcast<FunctionNode>(result.expr);
}

CTIR_INLINE Type GraphTypeInference::type_of(const Object* node) const {
  if (const Result* done = done_.find(node)) {
    return done->type;
  }
  const Type* type = new_types_.find(node);
  return type == nullptr ? Type() : *type;
}

CTIR_INLINE GraphTypeInference::Result GraphTypeInference::infer(const Expr& root) {
  if (const Result* done = done_.find(root.get())) {
    return *done;
  }
  std::vector<Frame> stack;
  // The operands of the frames on the stack, each frame's in one range: a frame's range
  // ends where the next frame's begins, so popping a frame truncates the buffer.
  std::vector<const ExprNode*> kids;
  const auto push = [&](const ExprNode* node) {
    const std::size_t begin = kids.size();
    // An operand field holds expressions (its setter checks it): the cast is safe.
    for_each_operand(*node, [&kids](const Object* operand) {
      kids.push_back(static_cast<const ExprNode*>(operand));
    });
    stack.push_back({node, begin, kids.size() - begin, 0,
                     instance_of<LetNode>(*node) || instance_of<FunctionNode>(*node)});
  };
  push(root.get());
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next < frame.count) {
      if (frame.scopes) {
        before_child(frame);
      }
      const ExprNode* kid = kids[frame.begin + frame.next++];
      if (kid == nullptr) {
        type_error(ref_of(frame.node), "an operand is missing (a null expression)");
      }
      if (!done_.contains(kid)) {
        push(kid);
      }
      continue;
    }
    if (frame.count == 0 && frame.scopes) {
      before_child(frame);
    }
    const ExprNode* node = frame.node;
    Result result = finish(ref_of(node));
    if (result.expr.get() != node) {
      *new_types_.try_emplace(result.expr.get()).first = result.type;
    }
    *done_.try_emplace(node).first = std::move(result);
    kids.resize(frame.begin);
    stack.pop_back();
  }
  return done_.at(root.get());
}

CTIR_INLINE void GraphTypeInference::before_child(const Frame& frame) {
  if (instance_of<LetNode>(*frame.node) && frame.next == 1) {
    define_let_var(static_cast<const LetNode&>(*frame.node));
  }
  if (instance_of<FunctionNode>(*frame.node) && frame.next == 0) {
    const auto* fn = static_cast<const FunctionNode*>(frame.node);
    for (std::size_t i = 0; i < fn->params.size(); ++i) {
      const Var& param = fn->params[i];
      if (!param.defined() || !param->ty.defined()) {
        type_error(param.defined() ? ObjectRef(param) : ObjectRef(ref_of(frame.node)),
                   "parameter " + std::to_string(i) +
                       (param.defined() ? " (%" + param->name + ")" : std::string()) +
                       " has no type; function parameters must be annotated");
      }
      *new_types_.try_emplace(param.get()).first = param->ty;
    }
  }
}

CTIR_INLINE void GraphTypeInference::define_let_var(const LetNode& let) {
  const Type value_type = done_.at(let.value.get()).type;
  if (!value_type.defined()) {
    type_error(let.value, "the value bound to %" + let.var->name + " is not a value");
  }
  if (let.var->ty.defined()) {
    if (!types_equal(let.var->ty, value_type)) {
      type_error(ref_of(&let), "%" + let.var->name + " is annotated " + type_text(let.var->ty) +
                                   " but bound to a value of type " + type_text(value_type));
    }
    return;
  }
  auto var = clone_object(*let.var);
  var->ty = value_type;
  *renamed_.try_emplace(let.var.get()).first = std::move(var).publish();
}

CTIR_INLINE const GraphTypeInference::Result& GraphTypeInference::result_of(const Expr& e) const {
  return done_.at(e.get());
}

CTIR_INLINE const Type& GraphTypeInference::value_type(const Expr& e, const Expr& node,
                                                       const std::string& what) const {
  const Type& type = result_of(e).type;
  if (!type.defined()) {
    type_error(e, what + " of " + std::string(node->type_info().key) +
                      " is not a value (an operator is only valid as a callee)");
  }
  return type;
}

CTIR_INLINE const Expr& GraphTypeInference::updated(const Expr& kid) const {
  return result_of(kid).expr;
}

CTIR_INLINE GraphTypeInference::Result GraphTypeInference::finish(const Expr& e) {
  if (const auto* var = e.as<VarNode>()) {
    if (const Var* renamed = renamed_.find(var)) {
      return {*renamed, (*renamed)->ty};
    }
    if (!var->ty.defined()) {
      type_error(e, "variable %" + var->name + " has no type (is it defined?)");
    }
    return {e, var->ty};
  }
  if (const auto* global = e.as<GlobalVarNode>()) {
    return {e, signature_(ref_of(global), e)};
  }
  if (e.is<OpNode>()) {
    return {e, Type()};
  }
  if (const auto* constant = e.as<ConstantNode>()) {
    return {e, constant_type(*constant)};
  }
  if (const auto* scalar = e.as<PrimExprNode>()) {
    try {
      return {e, scalar_tensor_type(ref_of(scalar))};
    } catch (const Error& error) {
      type_error(e, std::string("the scalar expression has no dtype: ") + error.what());
    }
  }
  if (e.is<CallNode>()) {
    return finish_call(downcast<CallNode>(e));
  }
  if (const auto* tuple = e.as<TupleNode>()) {
    std::vector<Type> fields;
    bool changed = false;
    for (std::size_t i = 0; i < tuple->fields.size(); ++i) {
      fields.push_back(value_type(tuple->fields[i], e, "field " + std::to_string(i)));
      changed = changed || !updated(tuple->fields[i]).same_as(tuple->fields[i]);
    }
    Expr out = e;
    if (changed) {
      auto copy = clone_object(*tuple);
      for (Expr& field : copy->fields) {
        field = updated(field);
      }
      out = std::move(copy).publish();
    }
    return {out, TupleType::make(std::move(fields))};
  }
  if (const auto* item = e.as<TupleGetItemNode>()) {
    const Type& tuple_type = value_type(item->tuple, e, "the tuple");
    const auto* fields = tuple_type.as<TupleTypeNode>();
    if (fields == nullptr) {
      type_error(e, "projection ." + std::to_string(item->index) + " of a value of type " +
                        type_text(tuple_type) + ", which is not a tuple");
    }
    if (item->index < 0 || static_cast<std::size_t>(item->index) >= fields->fields.size()) {
      type_error(e, "projection ." + std::to_string(item->index) + " is out of range for " +
                        type_text(tuple_type));
    }
    Expr out = e;
    if (!updated(item->tuple).same_as(item->tuple)) {
      auto copy = clone_object(*item);
      copy->tuple = updated(item->tuple);
      out = std::move(copy).publish();
    }
    return {out, fields->fields[static_cast<std::size_t>(item->index)]};
  }
  if (const auto* let = e.as<LetNode>()) {
    const Type& body_type = value_type(let->body, e, "the body");
    const Var* renamed = renamed_.find(let->var.get());
    const bool changed = renamed != nullptr || !updated(let->value).same_as(let->value) ||
                         !updated(let->body).same_as(let->body);
    Expr out = e;
    if (changed) {
      auto copy = clone_object(*let);
      if (renamed != nullptr) {
        copy->var = *renamed;
      }
      copy->value = updated(let->value);
      copy->body = updated(let->body);
      out = std::move(copy).publish();
    }
    return {out, body_type};
  }
  if (const auto* branch = e.as<IfNode>()) {
    const Type& cond = value_type(branch->cond, e, "the condition");
    const auto* cond_tensor = cond.as<TensorTypeNode>();
    const auto* cond_scalar = cond.as<PrimTypeNode>();
    const bool is_bool =
        (cond_tensor != nullptr && cond_tensor->shape.empty() && cond_tensor->dtype.is_bool()) ||
        (cond_scalar != nullptr && cond_scalar->dtype.is_bool());
    if (!is_bool) {
      type_error(branch->cond, "the condition of an if must have type Tensor[(), bool], but "
                               "it has type " +
                                   type_text(cond));
    }
    const Type& then_type = value_type(branch->then_branch, e, "the then branch");
    const Type& else_type = value_type(branch->else_branch, e, "the else branch");
    if (!types_equal(then_type, else_type)) {
      type_error(e, "the branches of an if have different types: " + type_text(then_type) +
                        " and " + type_text(else_type));
    }
    Expr out = e;
    if (!updated(branch->cond).same_as(branch->cond) ||
        !updated(branch->then_branch).same_as(branch->then_branch) ||
        !updated(branch->else_branch).same_as(branch->else_branch)) {
      auto copy = clone_object(*branch);
      copy->cond = updated(branch->cond);
      copy->then_branch = updated(branch->then_branch);
      copy->else_branch = updated(branch->else_branch);
      out = std::move(copy).publish();
    }
    return {out, then_type};
  }
  if (const auto* fn = e.as<FunctionNode>()) {
    const Type& body_type = value_type(fn->body, e, "the body");
    if (fn->ret_type.defined() && !types_equal(fn->ret_type, body_type)) {
      type_error(e, "the function is declared to return " + type_text(fn->ret_type) +
                        " but its body has type " + type_text(body_type));
    }
    std::vector<Type> params;
    for (const Var& param : fn->params) {
      params.push_back(param->ty);
    }
    Expr out = e;
    if (!fn->ret_type.defined() || !updated(fn->body).same_as(fn->body)) {
      auto copy = clone_object(*fn);
      copy->body = updated(fn->body);
      if (!copy->ret_type.defined()) {
        copy->ret_type = body_type;
      }
      out = std::move(copy).publish();
    }
    const Type ret = fn->ret_type.defined() ? fn->ret_type : body_type;
    return {out, FuncType::make(std::move(params), ret)};
  }
  if (e.is<CallDpsNode>()) {
    return finish_call_dps(downcast<CallDpsNode>(e));
  }
  type_error(e, "cannot infer the type of a " + std::string(e->type_info().key) +
                    " in graph-level code");
}

template <class Node>
Expr GraphTypeInference::rebuilt_call(const Ref<Node>& call, bool with_op) const {
  // arg_types, just called for this call, saw whether an argument changed.
  bool changed = args_changed_;
  if constexpr (std::is_same_v<Node, CallNode>) {
    changed = changed || (with_op && !updated(call->op).same_as(call->op));
  }
  if (!changed) {
    return call;
  }
  auto copy = clone_object(*call);
  if constexpr (std::is_same_v<Node, CallNode>) {
    copy->op = updated(call->op);
  }
  for (Expr& arg : copy->args) {
    arg = updated(arg);
  }
  return std::move(copy).publish();
}

CTIR_INLINE const std::vector<Type>& GraphTypeInference::arg_types(const std::vector<Expr>& args,
                                                                   const Expr& node) {
  arg_types_.clear();
  args_changed_ = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Result& result = result_of(args[i]);
    args_changed_ = args_changed_ || !result.expr.same_as(args[i]);
    const Type& type = result.type;
    if (!type.defined()) {
      // value_type throws; its message is built only then, not for every argument.
      static_cast<void>(value_type(args[i], node, "argument " + std::to_string(i)));
    }
    arg_types_.push_back(type);
  }
  return arg_types_;
}

CTIR_INLINE const OpDef& GraphTypeInference::op_def(const OpNode& op, const Call& call) {
  for (const RecentOp& recent : recent_ops_) {
    if (recent.def != nullptr && recent.name == op.name) {
      return *recent.def;
    }
  }
  const OpDef* def = OpRegistry::global().find(op.name);
  if (def == nullptr) {
    type_error(call, "unknown operator '" + op.name + "'");
  }
  recent_ops_[next_recent_op_] = {op.name, def};
  next_recent_op_ = (next_recent_op_ + 1) % recent_ops_.size();
  return *def;
}

CTIR_INLINE std::string GraphTypeInference::types_text(const std::vector<Type>& types) {
  std::string out = "(";
  for (std::size_t i = 0; i < types.size(); ++i) {
    out += (i == 0 ? "" : ", ") + type_text(types[i]);
  }
  return out + ")";
}

CTIR_INLINE GraphTypeInference::Result GraphTypeInference::finish_call(const Call& call) {
  const std::vector<Type>& args = arg_types(call->args, call);
  if (const auto* op = call->op.as<OpNode>()) {
    const OpDef& def = op_def(*op, call);
    Type type;
    try {
      type = def.infer_type(args, call->attrs);
    } catch (const Error& error) {
      type_error(call, std::string(error.what()) + " (argument types " + types_text(args) + ")");
    }
    return {rebuilt_call(call, true), type};
  }
  const Type& callee = value_type(call->op, call, "the callee");
  const auto* func = callee.as<FuncTypeNode>();
  if (func == nullptr) {
    type_error(call, "calls a value of type " + type_text(callee) + ", which is not a function");
  }
  if (func->params.size() != args.size()) {
    type_error(call, "calls a function of type " + type_text(callee) + " with " +
                         std::to_string(args.size()) + " arguments");
  }
  DimBindings bound;
  for (std::size_t i = 0; i < args.size(); ++i) {
    // A graph-level scalar (a literal `true`, a rank-0 tensor) is the value a scalar
    // parameter (`%c: bool`) takes, as the parser, the verifier and the interpreter take it.
    const auto* scalar = func->params[i].as<PrimTypeNode>();
    const auto* tensor = args[i].as<TensorTypeNode>();
    const bool scalar_argument = scalar != nullptr && tensor != nullptr && tensor->shape.empty() &&
                                 tensor->dtype == scalar->dtype;
    if (!scalar_argument && !match_type(func->params[i], args[i], bound)) {
      type_error(call->args[i], "argument " + std::to_string(i) + " has type " +
                                    type_text(args[i]) + " but the callee expects " +
                                    type_text(substitute_type(func->params[i], bound)));
    }
  }
  return {rebuilt_call(call, true), substitute_type(func->ret, bound)};
}

CTIR_INLINE GraphTypeInference::Result GraphTypeInference::finish_call_dps(const CallDps& call) {
  const std::vector<Type>& args = arg_types(call->args, call);
  const std::string name = call->func.defined() ? call->func->name : std::string();
  const BaseFunc callee = module_.find(name);
  const auto* prim = callee.as<PrimFuncNode>();
  if (prim == nullptr) {
    type_error(call, callee.defined()
                         ? "call_dps @" + name + ": @" + name +
                               " is a graph-level function; call_dps calls tensor-level ones"
                         : "call_dps @" + name + ": the module has no function @" + name);
  }
  if (!call->out_type.defined()) {
    type_error(call, "call_dps @" + name + " has no output type");
  }
  std::vector<Type> outs;
  if (const auto* tuple = call->out_type.as<TupleTypeNode>()) {
    outs = tuple->fields;
  } else {
    outs.push_back(call->out_type);
  }
  if (args.size() + outs.size() != prim->params.size()) {
    type_error(call, "call_dps @" + name + " passes " + std::to_string(args.size()) +
                         " inputs and " + std::to_string(outs.size()) + " outputs, but @" + name +
                         " has " + std::to_string(prim->params.size()) + " parameters");
  }
  DimBindings bound;
  for (std::size_t i = 0; i < prim->params.size(); ++i) {
    const bool is_out = i >= args.size();
    const Type& actual = is_out ? outs[i - args.size()] : args[i];
    if (!match_type(prim->params[i]->ty, actual, bound)) {
      const ObjectRef at = is_out ? ObjectRef(call) : ObjectRef(call->args[i]);
      type_error(at, "call_dps @" + name + ": " +
                         (is_out ? "output " + std::to_string(i - args.size())
                                 : "argument " + std::to_string(i)) +
                         " has type " + type_text(actual) + " but parameter %" +
                         prim->params[i]->name + " has type " +
                         type_text(substitute_type(prim->params[i]->ty, bound)));
    }
  }
  return {rebuilt_call(call, false), call->out_type};
}

CTIR_INLINE ModuleTypeInference::ModuleTypeInference(const IRModule& mod) : module_(mod) {}

CTIR_INLINE IRModule ModuleTypeInference::run() {
  for (std::size_t i = 0; i < module_.size(); ++i) {
    if (module_.function_at(i).is<FunctionNode>()) {
      infer_global(module_.global_at(i)->name);
    }
  }
  IRModule out = module_;
  for (const auto& [name, f] : inferred_) {
    if (!f.same_as(module_.find(name))) {
      out.update(name, f);
    }
  }
  return out;
}

CTIR_INLINE Function ModuleTypeInference::infer(const Function& f) {
  GraphTypeInference inference(
      module_, [this](const GlobalVar& g, const ObjectRef& use) { return signature(g, use); });
  return inference.infer_function(f);
}

CTIR_INLINE Function ModuleTypeInference::infer_global(const std::string& name) {
  auto [it, first] = state_.try_emplace(name, State::running);
  if (!first) {
    return it->second == State::done ? inferred_.at(name) : Function();
  }
  const Function typed = infer(downcast<FunctionNode>(module_.lookup(name)));
  inferred_[name] = typed;
  state_[name] = State::done;
  return typed;
}

CTIR_INLINE Type ModuleTypeInference::signature(const GlobalVar& global, const ObjectRef& use) {
  const BaseFunc callee = module_.find(global->name);
  if (!callee.defined()) {
    type_error(use, "the module has no function @" + global->name);
  }
  const Function fn = try_downcast<FunctionNode>(callee);
  if (!fn.defined()) {
    type_error(use, "@" + global->name + " is a tensor-level function; call it with call_dps @" +
                        global->name + "(...) -> <output type>");
  }
  Type ret = fn->ret_type;
  if (!ret.defined()) {
    const Function typed = infer_global(global->name);
    if (!typed.defined()) {
      type_error(use,
                 "@" + global->name + " is called recursively; it needs a declared result type");
    }
    ret = typed->ret_type;
  }
  std::vector<Type> params;
  for (std::size_t i = 0; i < fn->params.size(); ++i) {
    if (!fn->params[i]->ty.defined()) {
      type_error(fn->params[i], "parameter " + std::to_string(i) + " (%" + fn->params[i]->name +
                                    ") of @" + global->name + " has no type");
    }
    params.push_back(fn->params[i]->ty);
  }
  return FuncType::make(std::move(params), ret);
}

} // namespace ctir::passes::detail
