// The reference interpreter: runs graph-level and tensor-level functions of a module on
// concrete values, without recursion on the native stack.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir::eval {

/// Limits that turn runaway programs into errors instead of exhausted memory or time.
struct InterpreterOptions {
  /// Graph-level calls (of globals and closures) may nest this deep.
  std::size_t max_call_depth = 10000;
  /// Evaluation steps (expressions, statements, loop iterations) per call; 0: no limit.
  std::uint64_t max_steps = 0;
};

namespace detail {

/// A variable environment: variables are unique objects, so their addresses are keys.
using Env = std::unordered_map<const VarNode*, Value>;

/// "ctir: operator 'add' ..." -> "operator 'add' ...": inner messages lose their prefix
/// when they become part of an EvalError's message.
inline std::string without_prefix(std::string_view message) {
  constexpr std::string_view prefix = "ctir: ";
  if (message.substr(0, prefix.size()) == prefix) {
    message.remove_prefix(prefix.size());
  }
  return std::string(message);
}

template <BinaryOp... Ops>
bool view_binary(const Object& node, BinaryOp& op, const PrimExprNode*& a, const PrimExprNode*& b,
                 std::integer_sequence<BinaryOp, Ops...>) {
  const auto index = node.dynamic_type_index();
  return ((index == BinaryNode<Ops>::type_index
               ? (op = Ops, a = static_cast<const BinaryNode<Ops>&>(node).a.get(),
                  b = static_cast<const BinaryNode<Ops>&>(node).b.get(), true)
               : false) ||
          ...);
}

/// Whether `node` is one of the binary nodes; fills in the operator and the operands.
inline bool view_binary(const Object& node, BinaryOp& op, const PrimExprNode*& a,
                        const PrimExprNode*& b) {
  using B = BinaryOp;
  return view_binary(
      node, op, a, b,
      std::integer_sequence<B, B::add, B::sub, B::mul, B::div, B::mod, B::min, B::max, B::eq, B::ne,
                            B::lt, B::le, B::gt, B::ge, B::logical_and, B::logical_or>{});
}

/// Every variable mentioned anywhere under `root` (types included), found with an
/// explicit stack.
inline std::vector<const VarNode*> mentioned_vars(const Object* root) {
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

/// Runs the functions of a module on concrete values: the reference semantics of ctir.
///
///     Interpreter interp(module);
///     std::vector<Value> outs = interp.call("main", {x, y});
///
/// - A graph-level Function returns one value (a tuple stays one tuple value). Operators
///   run their registry kernels (eval/kernels.hpp attaches the built-ins'); a shared
///   dataflow node is evaluated once per activation; `let`, `if`, tuples, projections,
///   closures (capturing the variables they mention), calls of globals and closures, and
///   `call_dps` (which allocates the zero-filled output of the given type, runs the
///   tensor-level function on the arguments and the output, and returns the output).
///   Tensor-level expressions inside graph code (literals such as `2f`, shape arithmetic)
///   evaluate to rank-0 tensors.
/// - A tensor-level PrimFunc called directly takes every parameter as input and output
///   and returns the final value of every parameter, in order. Parameters never alias:
///   a tensor is copied before its first write (copy on write). Buffers from `alloc` are
///   zero-filled. Loop kinds (parallel, vectorized, unroll) run serially.
/// - Arguments are checked against the parameter types (kind, dtype, rank, literal
///   dimensions); symbolic dimensions are bound by the first parameter that mentions
///   them and checked at every later mention. A declared result type is checked too.
/// - Scalar arithmetic follows eval::binary: integers wrap like two's complement, `/`
///   and `%` floor, integer division by zero is an error, floats are IEEE; `&&` and `||`
///   short-circuit, `select` evaluates both branches.
///
/// Every failure is an EvalError naming what went wrong, the node (printed) and its
/// source location, and the function: out-of-bounds loads and stores, shape and type
/// mismatches, division by zero, missing kernels, wrong inputs. Evaluation uses explicit
/// stacks, so programs nested 100,000 levels deep run on the default stack; nested calls
/// are limited by InterpreterOptions::max_call_depth.
///
/// An Interpreter is not thread-safe; use one per thread.
class Interpreter {
public:
  explicit Interpreter(IRModule module, InterpreterOptions options = {})
      : module_(std::move(module)), options_(options) {
    ensure_builtin_kernels();
  }

  /// Calls the module's function `name` with `args` (see the class comment for what it
  /// returns).
  std::vector<Value> call(std::string_view name, std::vector<Value> args) {
    const BaseFunc function = module_.find(name);
    if (!function.defined()) {
      try {
        (void)module_.lookup(name); // the message that lists the names
      } catch (const Error& e) {
        throw detail::make_error(nullptr, detail::without_prefix(e.what()), "");
      }
    }
    return call(function, std::move(args), name);
  }

  /// Calls `function`, which need not be in the module (its global calls resolve in the
  /// module); `name` is used in messages.
  std::vector<Value> call(const BaseFunc& function, std::vector<Value> args,
                          std::string_view name = "") {
    reset();
    if (!function.defined()) {
      throw detail::make_error(nullptr, "cannot call a null function", name);
    }
    const std::string fname = name.empty() ? function->name : std::string(name);
    if (const auto* prim = function.as<PrimFuncNode>()) {
      return run_prim(*prim, std::move(args), fname, nullptr);
    }
    const auto* graph = function.as<FunctionNode>();
    if (graph == nullptr) {
      throw detail::make_error(function.get(), "cannot call a function of this kind", fname);
    }
    frames_.emplace_back();
    frames_.back().function = graph;
    frames_.back().name = fname;
    bind_params(frames_.back().env, graph->params, args, false, nullptr, fname);
    tasks_.push_back({Step::ret, nullptr});
    tasks_.push_back({Step::eval, graph->body.get()});
    run_graph();
    std::vector<Value> result;
    result.push_back(std::move(values_.back()));
    return result;
  }

  /// Evaluates a graph-level expression with `bindings` for its free variables (global
  /// calls resolve in the module).
  Value evaluate(const Expr& expr, const std::vector<std::pair<Var, Value>>& bindings = {}) {
    reset();
    frames_.emplace_back();
    for (const auto& [var, value] : bindings) {
      frames_.back().env[var.get()] = value;
    }
    tasks_.push_back({Step::eval, expr.get()});
    run_graph();
    return graph_value(std::move(values_.back()));
  }

  const IRModule& module() const noexcept { return module_; }
  const InterpreterOptions& options() const noexcept { return options_; }
  /// The evaluation steps the last call took.
  std::uint64_t steps() const noexcept { return steps_; }

private:
  enum class Step : std::uint8_t { eval, call, tuple, get_item, let, branch, finish, dps, ret };
  struct Task {
    Step step;
    const Object* node;
  };
  /// One activation of a graph-level function (or of evaluate).
  struct Frame {
    detail::Env env;
    /// Results of the dataflow nodes evaluated in this activation.
    std::unordered_map<const Object*, Value> memo;
    const FunctionNode* function = nullptr;
    std::string name;
  };

  void reset() {
    frames_.clear();
    tasks_.clear();
    values_.clear();
    steps_ = 0;
  }

  [[noreturn]] void fail(const Object* node, std::string_view what) const {
    throw detail::make_error(node, what, current_name());
  }
  [[noreturn]] void fail(const Object* node, std::string_view what, std::string_view fname) const {
    throw detail::make_error(node, what, fname);
  }

  void tick(const Object* node, std::string_view fname) {
    ++steps_;
    if (options_.max_steps != 0 && steps_ > options_.max_steps) {
      fail(node,
           "evaluation took more than " + std::to_string(options_.max_steps) +
               " steps (InterpreterOptions::max_steps; an endless loop?)",
           fname);
    }
  }

  /// A graph-level view of a value: scalars become rank-0 tensors.
  static Value graph_value(Value value) {
    if (value.is_scalar()) {
      return Value(to_tensor(value.as_scalar()));
    }
    return value;
  }

  // ---------------------------------------------------------------------------------
  // Graph level

  void push_value(Value value) { values_.push_back(std::move(value)); }
  std::vector<Value> pop_values(std::size_t count) {
    std::vector<Value> result(
        std::make_move_iterator(values_.end() - static_cast<std::ptrdiff_t>(count)),
        std::make_move_iterator(values_.end()));
    values_.resize(values_.size() - count);
    return result;
  }
  Value pop_value() {
    Value value = std::move(values_.back());
    values_.pop_back();
    return value;
  }
  void memoize(const Object* node, const Value& value) { frames_.back().memo[node] = value; }

  void run_graph() {
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
                              " is out of bounds for a tuple of " + std::to_string(size) +
                              " fields");
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

  bool truth(const Value& cond, const Object* node) {
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

  void eval(const Object* node) {
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

  void apply_call(const CallNode& call) {
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

  void enter(const CallNode& call, const FunctionNode& function,
             const std::vector<std::pair<Var, Value>>& captured, std::vector<Value> args,
             std::string name) {
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

  void finish_call(const Object* call) {
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

  Value apply_op(const CallNode& call, const OpNode& op, std::vector<Value> args) {
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

  void call_dps(const CallDpsNode& call) {
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

  /// A zero-filled tensor of `type`, its dimensions evaluated in `env`.
  TensorData allocate(const Type& type, const detail::Env& env, const Object* node,
                      std::string_view what) {
    const auto* tensor = type.as<TensorTypeNode>();
    if (tensor == nullptr) {
      fail(node, std::string(what) + " must have a tensor type, not " + type_str(type));
    }
    std::vector<std::int64_t> shape;
    for (const PrimExpr& dim : tensor->shape) {
      const Scalar value = eval_scalar(dim.get(), env, current_name());
      if (value.is_float()) {
        fail(node,
             "the dimension " + prim_expr_str(dim) + " of " + std::string(what) + " is a float");
      }
      shape.push_back(value.i);
    }
    try {
      return make_tensor(tensor->dtype, shape, what);
    } catch (const Error& e) {
      fail(node, detail::without_prefix(e.what()));
    }
  }

  std::string_view current_name() const {
    return !current_prim_.empty() || frames_.empty() ? std::string_view(current_prim_)
                                                     : std::string_view(frames_.back().name);
  }

  // ---------------------------------------------------------------------------------
  // Types and parameters

  /// Whether `value` fits `type`, binding unbound shape variables of `type` when `bind`;
  /// `why` says what differs.
  bool matches(const Type& type, const Value& value, detail::Env& env, bool bind,
               std::string& why) {
    if (!type.defined()) {
      return true;
    }
    if (const auto* tensor = type.as<TensorTypeNode>()) {
      const Value v = value.is_scalar() ? Value(to_tensor(value.as_scalar())) : value;
      if (!v.is_tensor()) {
        why = "a " + std::string(Value::kind_name(v.kind())) + " is not a tensor";
        return false;
      }
      const TensorData& data = v.as_tensor();
      if (data.dtype() != tensor->dtype) {
        why = "the dtype is " + data.dtype().str() + ", not " + tensor->dtype.str();
        return false;
      }
      if (data.ndim() != tensor->ndim()) {
        why = "the rank is " + std::to_string(data.ndim()) + ", not " +
              std::to_string(tensor->ndim());
        return false;
      }
      for (std::size_t d = 0; d < data.ndim(); ++d) {
        const PrimExpr& dim = tensor->shape[d];
        const std::int64_t actual = data.shape()[d];
        if (const auto* var = dim.as<VarNode>(); var != nullptr && !env.contains(var)) {
          if (bind) {
            env[var] = Scalar::make_int(dtype_of(dim), actual);
          }
          continue;
        }
        const Scalar expected = eval_scalar(dim.get(), env, current_name());
        if (expected.as_int() != actual) {
          why = "dimension " + std::to_string(d) + " is " + std::to_string(actual) + ", but " +
                prim_expr_str(dim) +
                (dim.is<IntImmNode>() ? std::string() : " is " + std::to_string(expected.as_int()));
          return false;
        }
      }
      return true;
    }
    if (const auto* prim = type.as<PrimTypeNode>()) {
      DataType actual;
      if (value.is_scalar()) {
        actual = value.as_scalar().dtype;
      } else if (value.is_tensor() && value.as_tensor().ndim() == 0) {
        actual = value.as_tensor().dtype();
      } else {
        why = "it is not a scalar";
        return false;
      }
      if (actual != prim->dtype) {
        why = "the dtype is " + actual.str() + ", not " + prim->dtype.str();
        return false;
      }
      return true;
    }
    if (const auto* tuple = type.as<TupleTypeNode>()) {
      if (!value.is_tuple()) {
        why = "a " + std::string(Value::kind_name(value.kind())) + " is not a tuple";
        return false;
      }
      if (value.fields().size() != tuple->fields.size()) {
        why = "it has " + std::to_string(value.fields().size()) + " fields, not " +
              std::to_string(tuple->fields.size());
        return false;
      }
      for (std::size_t k = 0; k < tuple->fields.size(); ++k) {
        if (!matches(tuple->fields[k], value.fields()[k], env, bind, why)) {
          why = "field " + std::to_string(k) + ": " + why;
          return false;
        }
      }
      return true;
    }
    if (const auto* func = type.as<FuncTypeNode>()) {
      if (!value.is_closure()) {
        why = "a " + std::string(Value::kind_name(value.kind())) + " is not a function";
        return false;
      }
      if (value.as_closure().function->params.size() != func->params.size()) {
        why = "it takes " + std::to_string(value.as_closure().function->params.size()) +
              " parameters, not " + std::to_string(func->params.size());
        return false;
      }
      return true;
    }
    return true;
  }

  /// Binds the unbound shape variables that are whole dimensions of `type` to the
  /// dimensions of `value`, where the ranks agree; checks nothing.
  static void bind_dims(const Type& type, const Value& value, detail::Env& env) {
    if (const auto* tensor = type.as<TensorTypeNode>()) {
      if (!value.is_tensor() || value.as_tensor().ndim() != tensor->ndim()) {
        return;
      }
      for (std::size_t d = 0; d < tensor->ndim(); ++d) {
        const PrimExpr& dim = tensor->shape[d];
        if (const auto* var = dim.as<VarNode>(); var != nullptr && !env.contains(var)) {
          env[var] = Scalar::make_int(dtype_of(dim), value.as_tensor().shape()[d]);
        }
      }
    } else if (const auto* tuple = type.as<TupleTypeNode>()) {
      if (value.is_tuple() && value.fields().size() == tuple->fields.size()) {
        for (std::size_t k = 0; k < tuple->fields.size(); ++k) {
          bind_dims(tuple->fields[k], value.fields()[k], env);
        }
      }
    }
  }

  void check_type(const Type& type, const Value& value, detail::Env& env, const Object* node,
                  const std::string& what) {
    std::string why;
    if (!matches(type, value, env, false, why)) {
      fail(node, what + " has type " + type_str(value.type()) + ", but " + type_str(type) +
                     " is declared (" + why + ")");
    }
  }

  /// Binds `params` to `args` in `env`: shape variables first (by the first parameter
  /// that mentions each), then every parameter checked against its type.
  void bind_params(detail::Env& env, const std::vector<Var>& params, std::vector<Value>& args,
                   bool tensor_level, const Object* site, std::string_view fname) {
    if (args.size() != params.size()) {
      fail(site,
           "@" + std::string(fname) + " takes " + std::to_string(params.size()) + " input" +
               (params.size() == 1 ? "" : "s") + ", but " + std::to_string(args.size()) +
               (args.size() == 1 ? " was" : " were") + " given",
           fname);
    }
    const auto param_str = [&](std::size_t k) {
      return "input " + std::to_string(k) + " (" + detail::var_str(params[k].get()) + ") of @" +
             std::string(fname);
    };
    for (std::size_t k = 0; k < params.size(); ++k) {
      if (!params[k].defined()) {
        fail(site, "parameter " + std::to_string(k) + " is null", fname);
      }
      std::string why;
      const Type& type = params[k]->ty;
      if (type.is<PrimTypeNode>()) {
        if (!env.contains(params[k].get()) && matches(type, args[k], env, true, why)) {
          env[params[k].get()] =
              args[k].is_scalar() ? args[k] : Value(read_element(args[k].as_tensor(), 0));
        }
      } else {
        bind_dims(type, args[k], env); // checked below
      }
    }
    for (std::size_t k = 0; k < params.size(); ++k) {
      std::string why;
      const Type& type = params[k]->ty;
      bool ok = false;
      try {
        ok = matches(type, args[k], env, false, why);
      } catch (const EvalError& e) {
        why = e.what();
      }
      if (!ok) {
        fail(site,
             param_str(k) + " must be " + type_str(type) + ", but it is " +
                 type_str(args[k].type()) + " (" + why + ")",
             fname);
      }
      if (type.is<PrimTypeNode>()) {
        const Scalar given =
            args[k].is_scalar() ? args[k].as_scalar() : read_element(args[k].as_tensor(), 0);
        const auto bound = env.find(params[k].get());
        if (bound != env.end() && bound->second.is_scalar() &&
            !(bound->second.as_scalar() == given)) {
          fail(site,
               param_str(k) + " is " + to_string(given) +
                   ", but the shapes of the inputs make it " + to_string(bound->second.as_scalar()),
               fname);
        }
        env[params[k].get()] = tensor_level ? Value(given) : Value(to_tensor(given));
      } else {
        // Moved: an output buffer then has one owner and is written in place.
        env[params[k].get()] = tensor_level ? std::move(args[k]) : graph_value(std::move(args[k]));
      }
    }
  }

  // ---------------------------------------------------------------------------------
  // Tensor level

  std::vector<Value> run_prim(const PrimFuncNode& function, std::vector<Value> args,
                              const std::string& name, const Object* site) {
    struct NameScope {
      std::string& slot;
      std::string saved;
      NameScope(std::string& s, const std::string& value) : slot(s), saved(std::move(s)) {
        slot = value;
      }
      NameScope(const NameScope&) = delete;
      NameScope& operator=(const NameScope&) = delete;
      ~NameScope() { slot = std::move(saved); }
    } scope(current_prim_, name);
    detail::Env env;
    bind_params(env, function.params, args, true, site, name);
    exec(function.body.get(), env);
    std::vector<Value> finals;
    finals.reserve(function.params.size());
    for (const Var& param : function.params) {
      finals.push_back(std::move(env[param.get()]));
    }
    return finals;
  }

  struct StmtFrame {
    const StmtNode* stmt;
    std::size_t next;
    std::int64_t current;
    std::int64_t end;
  };

  /// An integer scalar from `expr` (loop bounds, indices).
  std::int64_t eval_index(const PrimExpr& expr, const detail::Env& env, const Object* node,
                          std::string_view what) {
    const Scalar value = eval_scalar(expr.get(), env, current_prim_);
    if (value.is_float()) {
      fail(node, std::string(what) + " " + prim_expr_str(expr) + " is a " + value.dtype.str() +
                     ", not an integer");
    }
    return value.i;
  }

  void exec(const SeqStmtNode* body, detail::Env& env) {
    std::vector<StmtFrame> stack;
    if (body == nullptr) {
      fail(nullptr, "the function has no body");
    }
    stack.push_back({body, 0, 0, 0});
    while (!stack.empty()) {
      StmtFrame& top = stack.back();
      tick(top.stmt, current_prim_);
      if (top.stmt->dynamic_type_index() == SeqStmtNode::type_index) {
        const auto& seq = static_cast<const SeqStmtNode&>(*top.stmt);
        if (top.next == seq.seq.size()) {
          stack.pop_back();
          continue;
        }
        const StmtNode* child = seq.seq[top.next++].get();
        start(child, env, stack);
        continue;
      }
      // A loop.
      const auto& loop = static_cast<const ForNode&>(*top.stmt);
      if (top.current >= top.end) {
        stack.pop_back();
        continue;
      }
      env[loop.var.get()] = Scalar::make_int(dtype_of(loop.var), top.current);
      ++top.current;
      if (!loop.body.defined()) {
        fail(top.stmt, "the loop has no body");
      }
      stack.push_back({loop.body.get(), 0, 0, 0});
    }
  }

  /// Runs `stmt`, or pushes a frame for it when it has a body to run.
  void start(const StmtNode* stmt, detail::Env& env, std::vector<StmtFrame>& stack) {
    if (stmt == nullptr) {
      fail(nullptr, "a statement is missing (a null field)");
    }
    switch (stmt->dynamic_type_index()) {
    case SeqStmtNode::type_index:
      stack.push_back({stmt, 0, 0, 0});
      return;
    case ForNode::type_index: {
      const auto& loop = static_cast<const ForNode&>(*stmt);
      if (!loop.var.defined()) {
        fail(stmt, "the loop has no variable");
      }
      const std::int64_t begin = eval_index(loop.begin, env, stmt, "the start");
      const std::int64_t end = eval_index(loop.end, env, stmt, "the end");
      stack.push_back({stmt, 0, begin, end});
      return;
    }
    case TensorStoreNode::type_index: {
      const auto& store = static_cast<const TensorStoreNode&>(*stmt);
      const Scalar value = eval_scalar(store.value.get(), env, current_prim_);
      std::vector<std::int64_t> indices;
      indices.reserve(store.indices.size());
      for (const PrimExpr& index : store.indices) {
        indices.push_back(eval_index(index, env, stmt, "the index"));
      }
      const auto it = env.find(store.dest.get());
      if (it == env.end()) {
        fail(stmt, "the tensor " + detail::var_str(store.dest.get()) + " is not bound here");
      }
      if (!it->second.is_tensor()) {
        fail(stmt, detail::var_str(store.dest.get()) + " is a " +
                       std::string(Value::kind_name(it->second.kind())) + ", not a tensor");
      }
      const std::size_t flat = flat_index(it->second.as_tensor(), indices, store.dest.get(), stmt);
      if (value.dtype != it->second.as_tensor().dtype()) {
        fail(stmt, "stores a " + value.dtype.str() + " value into " +
                       detail::var_str(store.dest.get()) + " of dtype " +
                       it->second.as_tensor().dtype().str() + " (insert a cast)");
      }
      write_element(it->second.mutable_tensor(), flat, value);
      return;
    }
    case BindNode::type_index: {
      const auto& bind = static_cast<const BindNode&>(*stmt);
      if (!bind.var.defined()) {
        fail(stmt, "the let has no variable");
      }
      const Scalar value = eval_scalar(bind.value.get(), env, current_prim_);
      if (const auto* prim = bind.var->ty.as<PrimTypeNode>(); prim && prim->dtype != value.dtype) {
        fail(stmt, "binds a " + value.dtype.str() + " value to " + detail::var_str(bind.var.get()) +
                       " of type " + prim->dtype.str());
      }
      env[bind.var.get()] = value;
      return;
    }
    case IfThenElseNode::type_index: {
      const auto& branch = static_cast<const IfThenElseNode&>(*stmt);
      const bool cond = eval_scalar(branch.cond.get(), env, current_prim_).truthy();
      const SeqStmtNode* next = cond ? branch.then_case.get() : branch.else_case.get();
      if (next != nullptr) {
        stack.push_back({next, 0, 0, 0});
      }
      return;
    }
    case AllocateNode::type_index: {
      const auto& alloc = static_cast<const AllocateNode&>(*stmt);
      if (!alloc.buffer.defined()) {
        fail(stmt, "the allocation has no buffer");
      }
      env[alloc.buffer.get()] = Value(allocate(
          alloc.buffer->ty, env, stmt, "the buffer " + detail::var_str(alloc.buffer.get())));
      return;
    }
    default:
      fail(stmt, "cannot run a " + std::string(stmt->dynamic_type_key()) + " statement");
    }
  }

  /// The row-major offset of `indices` in `tensor`; an error names the first index out
  /// of bounds.
  std::size_t flat_index(const TensorData& tensor, const std::vector<std::int64_t>& indices,
                         const VarNode* var, const Object* node) {
    if (indices.size() != tensor.ndim()) {
      fail(node, detail::var_str(var) + " has rank " + std::to_string(tensor.ndim()) + ", but " +
                     std::to_string(indices.size()) + " indices were given");
    }
    std::size_t flat = 0;
    for (std::size_t d = 0; d < indices.size(); ++d) {
      const std::int64_t extent = tensor.shape()[d];
      if (indices[d] < 0 || indices[d] >= extent) {
        fail(node, "index " + std::to_string(indices[d]) + " is out of bounds for dimension " +
                       std::to_string(d) + " of " + detail::var_str(var) + " (size " +
                       std::to_string(extent) + ")");
      }
      flat = flat * static_cast<std::size_t>(extent) + static_cast<std::size_t>(indices[d]);
    }
    return flat;
  }

  // ---------------------------------------------------------------------------------
  // Scalar expressions, with an explicit stack

  struct ScalarTask {
    const PrimExprNode* node;
    std::uint8_t stage;
  };

  Scalar eval_scalar(const PrimExprNode* root, const detail::Env& env, std::string_view fname) {
    const std::size_t task_base = scalar_tasks_.size();
    const std::size_t value_base = scalar_values_.size();
    scalar_tasks_.push_back({root, 0});
    try {
      while (scalar_tasks_.size() > task_base) {
        const ScalarTask task = scalar_tasks_.back();
        scalar_tasks_.pop_back();
        step_scalar(task, env, fname);
      }
    } catch (...) {
      scalar_tasks_.resize(task_base);
      scalar_values_.resize(value_base);
      throw;
    }
    const Scalar result = scalar_values_.back();
    scalar_values_.resize(value_base);
    return result;
  }

  Scalar pop_scalar() {
    const Scalar value = scalar_values_.back();
    scalar_values_.pop_back();
    return value;
  }

  void step_scalar(const ScalarTask& task, const detail::Env& env, std::string_view fname) {
    const PrimExprNode* node = task.node;
    if (node == nullptr) {
      fail(nullptr, "a scalar expression is missing (a null field)", fname);
    }
    BinaryOp op{};
    const PrimExprNode* a = nullptr;
    const PrimExprNode* b = nullptr;
    if (detail::view_binary(*node, op, a, b)) {
      const bool logical = op == BinaryOp::logical_and || op == BinaryOp::logical_or;
      if (task.stage == 0) {
        scalar_tasks_.push_back({node, 1});
        if (!logical) {
          scalar_tasks_.push_back({b, 0});
        }
        scalar_tasks_.push_back({a, 0});
        return;
      }
      if (logical && task.stage == 1) {
        // Short-circuit: the right operand runs only when the left does not decide.
        const bool left = pop_scalar().truthy();
        if (left == (op == BinaryOp::logical_or)) {
          scalar_values_.push_back(Scalar::boolean(left));
          return;
        }
        scalar_tasks_.push_back({node, 2});
        scalar_tasks_.push_back({b, 0});
        return;
      }
      if (logical) {
        scalar_values_.push_back(Scalar::boolean(pop_scalar().truthy()));
        return;
      }
      const Scalar y = pop_scalar();
      const Scalar x = pop_scalar();
      try {
        scalar_values_.push_back(binary(op, x, y));
      } catch (const Error& e) {
        fail(node, e.what(), fname);
      }
      tick(node, fname);
      return;
    }
    tick(node, fname);
    switch (node->dynamic_type_index()) {
    case IntImmNode::type_index: {
      const auto& imm = static_cast<const IntImmNode&>(*node);
      scalar_values_.push_back(Scalar::make_int(imm.dtype, imm.value));
      return;
    }
    case FloatImmNode::type_index: {
      const auto& imm = static_cast<const FloatImmNode&>(*node);
      scalar_values_.push_back(Scalar::make_float(imm.dtype, imm.value));
      return;
    }
    case VarNode::type_index: {
      const auto* var = static_cast<const VarNode*>(node);
      const auto it = env.find(var);
      if (it == env.end()) {
        fail(node, "the variable has no value (it is not bound here)", fname);
      }
      if (it->second.is_scalar()) {
        scalar_values_.push_back(it->second.as_scalar());
      } else if (it->second.is_tensor() && it->second.as_tensor().ndim() == 0) {
        scalar_values_.push_back(read_element(it->second.as_tensor(), 0));
      } else {
        fail(node,
             detail::var_str(var) + " is a " +
                 (it->second.is_tensor() ? type_str(it->second.type())
                                         : std::string(Value::kind_name(it->second.kind()))) +
                 ", not a scalar" + (it->second.is_tensor() ? " (load an element)" : ""),
             fname);
      }
      return;
    }
    case NotNode::type_index:
    case NegNode::type_index:
    case CastNode::type_index: {
      if (task.stage == 0) {
        scalar_tasks_.push_back({node, 1});
        const PrimExprNode* operand = node->dynamic_type_index() == NotNode::type_index
                                          ? static_cast<const NotNode&>(*node).a.get()
                                      : node->dynamic_type_index() == NegNode::type_index
                                          ? static_cast<const NegNode&>(*node).a.get()
                                          : static_cast<const CastNode&>(*node).value.get();
        scalar_tasks_.push_back({operand, 0});
        return;
      }
      const Scalar x = pop_scalar();
      if (node->dynamic_type_index() == NotNode::type_index) {
        scalar_values_.push_back(logical_not(x));
      } else if (node->dynamic_type_index() == NegNode::type_index) {
        scalar_values_.push_back(negate(x));
      } else {
        scalar_values_.push_back(cast(static_cast<const CastNode&>(*node).dtype, x));
      }
      return;
    }
    case SelectNode::type_index: {
      const auto& select = static_cast<const SelectNode&>(*node);
      if (task.stage == 0) {
        scalar_tasks_.push_back({node, 1});
        scalar_tasks_.push_back({select.false_value.get(), 0});
        scalar_tasks_.push_back({select.true_value.get(), 0});
        scalar_tasks_.push_back({select.cond.get(), 0});
        return;
      }
      const Scalar f = pop_scalar();
      const Scalar t = pop_scalar();
      const Scalar c = pop_scalar();
      if (t.is_float() != f.is_float()) {
        fail(node,
             "the branches have dtypes " + t.dtype.str() + " and " + f.dtype.str() +
                 "; one is a float and the other not (insert a cast)",
             fname);
      }
      scalar_values_.push_back(c.truthy() ? t : cast(t.dtype, f));
      return;
    }
    case TensorLoadNode::type_index: {
      const auto& load = static_cast<const TensorLoadNode&>(*node);
      if (task.stage == 0) {
        scalar_tasks_.push_back({node, 1});
        for (std::size_t k = load.indices.size(); k-- > 0;) {
          scalar_tasks_.push_back({load.indices[k].get(), 0});
        }
        return;
      }
      std::vector<std::int64_t> indices(load.indices.size());
      for (std::size_t k = load.indices.size(); k-- > 0;) {
        const Scalar index = pop_scalar();
        if (index.is_float()) {
          fail(node,
               "index " + std::to_string(k) + " is a " + index.dtype.str() + ", not an integer",
               fname);
        }
        indices[k] = index.i;
      }
      const auto it = env.find(load.source.get());
      if (it == env.end()) {
        fail(node, "the tensor " + detail::var_str(load.source.get()) + " is not bound here",
             fname);
      }
      if (!it->second.is_tensor()) {
        fail(node,
             detail::var_str(load.source.get()) + " is a " +
                 std::string(Value::kind_name(it->second.kind())) + ", not a tensor",
             fname);
      }
      const TensorData& tensor = it->second.as_tensor();
      scalar_values_.push_back(
          read_element(tensor, flat_index(tensor, indices, load.source.get(), node)));
      return;
    }
    default:
      fail(node,
           "cannot evaluate a " + std::string(node->dynamic_type_key()) +
               " node as a scalar expression",
           fname);
    }
  }

  IRModule module_;
  InterpreterOptions options_;
  std::vector<Frame> frames_;
  std::vector<Task> tasks_;
  std::vector<Value> values_;
  std::vector<ScalarTask> scalar_tasks_;
  std::vector<Scalar> scalar_values_;
  /// Constant nodes as values (the module keeps the nodes alive).
  std::unordered_map<const Object*, Value> constants_;
  /// The variables each closure mentions: what it may capture.
  std::unordered_map<const FunctionNode*, std::vector<const VarNode*>> free_vars_;
  /// The tensor-level function running now (for messages), empty at graph level.
  std::string current_prim_;
  std::uint64_t steps_ = 0;
};

} // namespace ctir::eval
