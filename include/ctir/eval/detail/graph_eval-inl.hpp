// Definitions of <ctir/eval/interpreter.hpp>: graph-level evaluation (expressions, calls of
// operators, globals and closures, call_dps) on an explicit stack of tasks.
#pragma once

#include <ctir/eval/interpreter.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir::eval {

namespace detail {

/// Every variable mentioned anywhere under `root` (types included), found with an
/// explicit stack.
CTIR_INLINE std::vector<const VarNode*> mentioned_vars(const Object* root) {
  std::vector<const VarNode*> vars;
  std::unordered_set<const Object*> seen;
  std::vector<const Object*> stack{root};
  while (!stack.empty()) {
    const Object* node = stack.back();
    stack.pop_back();
    if (node == nullptr || !seen.insert(node).second) {
      continue;
    }
    if (instance_of<VarNode>(*node)) {
      vars.push_back(static_cast<const VarNode*>(node));
    }
    for (const FieldInfo& field : node->type_info().fields) {
      if (field.kind == FieldKind::node) {
        stack.push_back(field.get(*node, field));
      } else if (field.kind == FieldKind::node_array) {
        const std::size_t size = field.size(*node, field);
        for (std::size_t k = 0; k < size; ++k) {
          stack.push_back(field.at(*node, field, k));
        }
      }
    }
  }
  return vars;
}

} // namespace detail

CTIR_INLINE std::vector<Value> Interpreter::pop_values(std::size_t count) {
  std::vector<Value> result(
      std::make_move_iterator(values_.end() - static_cast<std::ptrdiff_t>(count)),
      std::make_move_iterator(values_.end()));
  values_.resize(values_.size() - count);
  return result;
}

CTIR_INLINE void Interpreter::run_graph() {
  while (!tasks_.empty()) {
    const Task task = tasks_.back();
    tasks_.pop_back();
    tick(task.node, frames_.back().name);
    switch (task.step) {
    case Step::eval:
      eval(task.node);
      break;
    case Step::call:
      apply_call(static_cast<const CallNode&>(*task.node));
      break;
    case Step::tuple: {
      const auto& tuple = static_cast<const TupleNode&>(*task.node);
      Value value;
      try {
        value = Value::tuple(pop_values(tuple.fields.size()));
      } catch (const EvalError&) {
        throw;
      } catch (const Error& e) {
        fail(task.node, detail::without_prefix(e.what()));
      }
      memoize(task.node, value);
      push_value(std::move(value));
      break;
    }
    case Step::get_item: {
      const auto& item = static_cast<const TupleGetItemNode&>(*task.node);
      const Value tuple = pop_value();
      if (!tuple.is_tuple()) {
        fail(task.node, "projects field " + std::to_string(item.index) + " out of a " +
                            std::string(Value::kind_name(tuple.kind())) + ", not a tuple");
      }
      const auto size = static_cast<std::int64_t>(tuple.fields().size());
      if (item.index < 0 || item.index >= size) {
        fail(task.node, "field " + std::to_string(item.index) +
                            " is out of bounds for a tuple of " + std::to_string(size) + " fields");
      }
      const Value field = tuple.fields()[static_cast<std::size_t>(item.index)];
      memoize(task.node, field);
      push_value(field);
      break;
    }
    case Step::let: {
      const auto& let = static_cast<const LetNode&>(*task.node);
      Value value = pop_value();
      if (!let.var.defined()) {
        fail(task.node, "the let has no variable");
      }
      check_type(let.var->ty, value, frames_.back().env, task.node,
                 "the value of " + detail::var_str(let.var.get()));
      frames_.back().env[let.var.get()] = std::move(value);
      tasks_.push_back({Step::finish, task.node});
      tasks_.push_back({Step::eval, let.body.get()});
      break;
    }
    case Step::branch: {
      const auto& branch = static_cast<const IfNode&>(*task.node);
      const Value cond = pop_value();
      tasks_.push_back({Step::finish, task.node});
      tasks_.push_back({Step::eval, truth(cond, branch.cond.get()) ? branch.then_branch.get()
                                                                   : branch.else_branch.get()});
      break;
    }
    case Step::finish:
      memoize(task.node, values_.back());
      break;
    case Step::dps:
      call_dps(static_cast<const CallDpsNode&>(*task.node));
      break;
    case Step::ret:
      finish_call(task.node);
      break;
    }
  }
}

CTIR_INLINE bool Interpreter::truth(const Value& cond, const Object* node) {
  if (cond.is_scalar()) {
    return cond.as_scalar().truthy();
  }
  if (!cond.is_tensor() || cond.as_tensor().size() != 1) {
    fail(node,
         "the condition must be a tensor of one element, but it is " +
             (cond.is_tensor() ? type_str(cond.type())
                               : std::string("a ") + std::string(Value::kind_name(cond.kind()))));
  }
  return read_element(cond.as_tensor(), 0).truthy();
}

CTIR_INLINE void Interpreter::eval(const Object* node) {
  if (node == nullptr) {
    fail(nullptr, "an expression is missing (a null field)");
  }
  Frame& frame = frames_.back();
  switch (node->dynamic_type_index()) {
  case VarNode::type_index: {
    const auto it = frame.env.find(static_cast<const VarNode*>(node));
    if (it == frame.env.end()) {
      fail(node, "the variable has no value (it is not bound here)");
    }
    push_value(graph_value(it->second));
    return;
  }
  case GlobalVarNode::type_index: {
    const auto& global = static_cast<const GlobalVarNode&>(*node);
    const BaseFunc function = module_.find(global.name);
    if (!function.defined()) {
      fail(node, "the module has no function @" + global.name);
    }
    const auto* graph = function.as<FunctionNode>();
    if (graph == nullptr) {
      fail(node, "@" + global.name +
                     " is a tensor-level function; only graph-level functions are values");
    }
    push_value(Value::closure(ref_of(graph), {}));
    return;
  }
  case ConstantNode::type_index: {
    auto it = constants_.find(node);
    if (it == constants_.end()) {
      it = constants_.emplace(node, Value(static_cast<const ConstantNode&>(*node).data)).first;
    }
    push_value(it->second);
    return;
  }
  case OpNode::type_index:
    fail(node, "an operator is not a value; call it");
  case CallNode::type_index:
  case TupleNode::type_index:
  case TupleGetItemNode::type_index:
  case LetNode::type_index:
  case IfNode::type_index:
  case CallDpsNode::type_index:
  case FunctionNode::type_index:
    break;
  default:
    if (instance_of<PrimExprNode>(*node)) {
      push_value(Value(
          to_tensor(eval_scalar(static_cast<const PrimExprNode*>(node), frame.env, frame.name))));
      return;
    }
    fail(node, "cannot evaluate a " + std::string(node->dynamic_type_key()) +
                   " node as a graph-level expression");
  }
  if (const auto it = frame.memo.find(node); it != frame.memo.end()) {
    push_value(it->second);
    return;
  }
  switch (node->dynamic_type_index()) {
  case CallNode::type_index: {
    const auto& call = static_cast<const CallNode&>(*node);
    tasks_.push_back({Step::call, node});
    for (std::size_t k = call.args.size(); k-- > 0;) {
      tasks_.push_back({Step::eval, call.args[k].get()});
    }
    if (!call.op.is<OpNode>() && !call.op.is<GlobalVarNode>()) {
      tasks_.push_back({Step::eval, call.op.get()}); // the callee first
    }
    return;
  }
  case TupleNode::type_index: {
    const auto& tuple = static_cast<const TupleNode&>(*node);
    tasks_.push_back({Step::tuple, node});
    for (std::size_t k = tuple.fields.size(); k-- > 0;) {
      tasks_.push_back({Step::eval, tuple.fields[k].get()});
    }
    return;
  }
  case TupleGetItemNode::type_index:
    tasks_.push_back({Step::get_item, node});
    tasks_.push_back({Step::eval, static_cast<const TupleGetItemNode&>(*node).tuple.get()});
    return;
  case LetNode::type_index:
    tasks_.push_back({Step::let, node});
    tasks_.push_back({Step::eval, static_cast<const LetNode&>(*node).value.get()});
    return;
  case IfNode::type_index:
    tasks_.push_back({Step::branch, node});
    tasks_.push_back({Step::eval, static_cast<const IfNode&>(*node).cond.get()});
    return;
  case CallDpsNode::type_index: {
    const auto& call = static_cast<const CallDpsNode&>(*node);
    tasks_.push_back({Step::dps, node});
    for (std::size_t k = call.args.size(); k-- > 0;) {
      tasks_.push_back({Step::eval, call.args[k].get()});
    }
    return;
  }
  case FunctionNode::type_index: {
    const auto* function = static_cast<const FunctionNode*>(node);
    auto it = free_vars_.find(function);
    if (it == free_vars_.end()) {
      it = free_vars_.emplace(function, detail::mentioned_vars(function)).first;
    }
    std::vector<std::pair<Var, Value>> captured;
    for (const VarNode* var : it->second) {
      if (const auto found = frame.env.find(var); found != frame.env.end()) {
        captured.emplace_back(ref_of(var), found->second);
      }
    }
    Value closure;
    try {
      closure = Value::closure(ref_of(function), std::move(captured));
    } catch (const Error& e) {
      fail(node, detail::without_prefix(e.what()));
    }
    memoize(node, closure);
    push_value(std::move(closure));
    return;
  }
  default:
    return;
  }
}

CTIR_INLINE void Interpreter::apply_call(const CallNode& call) {
  const std::size_t count = call.args.size();
  if (const auto* op = call.op.as<OpNode>()) {
    Value result = apply_op(call, *op, pop_values(count));
    memoize(&call, result);
    push_value(std::move(result));
    return;
  }
  if (const auto* global = call.op.as<GlobalVarNode>()) {
    std::vector<Value> args = pop_values(count);
    const BaseFunc function = module_.find(global->name);
    if (!function.defined()) {
      fail(&call, "the module has no function @" + global->name);
    }
    const auto* graph = function.as<FunctionNode>();
    if (graph == nullptr) {
      fail(&call, "@" + global->name + " is a tensor-level function; call it with call_dps @" +
                      global->name + "(...) -> <output type>");
    }
    enter(call, *graph, {}, std::move(args), global->name);
    return;
  }
  std::vector<Value> args = pop_values(count);
  const Value callee = pop_value();
  if (!callee.is_closure()) {
    fail(&call,
         "calls a " + std::string(Value::kind_name(callee.kind())) + ", which is not a function");
  }
  const Closure& closure = callee.as_closure();
  enter(call, *closure.function, closure.captured, std::move(args),
        frames_.back().name + "'s closure");
}

CTIR_INLINE void Interpreter::enter(const CallNode& call, const FunctionNode& function,
                                    const std::vector<std::pair<Var, Value>>& captured,
                                    std::vector<Value> args, std::string name) {
  if (frames_.size() >= options_.max_call_depth) {
    fail(&call, "calls nest deeper than " + std::to_string(options_.max_call_depth) +
                    " (InterpreterOptions::max_call_depth; unbounded recursion?)");
  }
  Frame frame;
  for (const auto& [var, value] : captured) {
    frame.env[var.get()] = value;
  }
  bind_params(frame.env, function.params, args, false, &call, name);
  frame.function = &function;
  frame.name = std::move(name);
  frames_.push_back(std::move(frame));
  tasks_.push_back({Step::ret, &call});
  tasks_.push_back({Step::eval, function.body.get()});
}

CTIR_INLINE void Interpreter::finish_call(const Object* call) {
  Frame& frame = frames_.back();
  if (frame.function != nullptr && frame.function->ret_type.defined()) {
    check_type(frame.function->ret_type, values_.back(), frame.env, call,
               "the result of @" + frame.name);
  }
  if (call == nullptr) {
    return; // the outermost call: its frame stays for inspection until the next call
  }
  frames_.pop_back();
  memoize(call, values_.back());
}

CTIR_INLINE Value Interpreter::apply_op(const CallNode& call, const OpNode& op,
                                        std::vector<Value> args) {
  const OpDef* def = OpRegistry::global().find(op.name);
  if (def == nullptr) {
    fail(&call, "the operator '" + op.name + "' is not registered");
  }
  if (!def->has_kernel()) {
    fail(&call, "the operator '" + op.name +
                    "' has no kernel to evaluate it (attach one with OpRegistry::set_kernel)");
  }
  std::vector<Type> types;
  std::vector<TensorData> inputs;
  const bool spread = def->arity.variadic && args.size() == 1 && args[0].is_tuple();
  for (std::size_t k = 0; k < args.size(); ++k) {
    const Value value = graph_value(args[k]);
    types.push_back(value.type());
    if (spread) {
      for (const Value& field : value.fields()) {
        if (!graph_value(field).is_tensor()) {
          fail(&call, "the tuple given to operator '" + op.name + "' holds a " +
                          std::string(Value::kind_name(field.kind())) + ", not a tensor");
        }
        inputs.push_back(graph_value(field).as_tensor());
      }
    } else if (value.is_tensor()) {
      inputs.push_back(value.as_tensor());
    } else {
      fail(&call, "input " + std::to_string(k) + " of operator '" + op.name + "' is a " +
                      std::string(Value::kind_name(value.kind())) + ", not a tensor");
    }
  }
  Type expected;
  Attrs attrs;
  try {
    attrs = def->normalize_attrs(call.attrs);
    expected = def->infer_type(types, attrs);
  } catch (const EvalError&) {
    throw;
  } catch (const Error& e) {
    fail(&call, detail::without_prefix(e.what()));
  }
  TensorData out;
  try {
    out = def->kernel(inputs, attrs);
  } catch (const EvalError&) {
    throw;
  } catch (const Error& e) {
    fail(&call, detail::without_prefix(e.what()));
  }
  // A kernel that disagrees with its own type relation is a bug worth naming.
  const Value result(std::move(out));
  detail::Env no_vars;
  std::string why;
  if (!matches(expected, result, no_vars, false, why)) {
    fail(&call, "the kernel of operator '" + op.name + "' returned " + type_str(result.type()) +
                    ", but its type relation gives " + type_str(expected) + " (" + why + ")");
  }
  return result;
}

CTIR_INLINE void Interpreter::call_dps(const CallDpsNode& call) {
  std::vector<Value> args = pop_values(call.args.size());
  const std::string name = call.func.defined() ? call.func->name : std::string();
  const BaseFunc function = module_.find(name);
  if (!function.defined()) {
    fail(&call, "the module has no function @" + name);
  }
  const auto* prim = function.as<PrimFuncNode>();
  if (prim == nullptr) {
    fail(&call, "@" + name + " is a graph-level function; call_dps calls tensor-level ones");
  }
  std::vector<Type> out_types;
  if (const auto* tuple = call.out_type.as<TupleTypeNode>()) {
    out_types = tuple->fields;
  } else {
    out_types.push_back(call.out_type);
  }
  for (const Type& type : out_types) {
    args.push_back(Value(allocate(type, frames_.back().env, &call, "the output")));
  }
  std::vector<Value> finals = run_prim(*prim, std::move(args), name, &call);
  std::vector<Value> outs(
      std::make_move_iterator(finals.end() - static_cast<std::ptrdiff_t>(out_types.size())),
      std::make_move_iterator(finals.end()));
  Value result =
      call.out_type.is<TupleTypeNode>() ? Value::tuple(std::move(outs)) : std::move(outs.front());
  memoize(&call, result);
  push_value(std::move(result));
}

} // namespace ctir::eval
