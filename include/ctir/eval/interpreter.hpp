// The reference interpreter: runs graph-level and tensor-level functions of a module on
// concrete values, without recursion on the native stack.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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
std::string without_prefix(std::string_view message);

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
  explicit Interpreter(IRModule module, InterpreterOptions options = {});

  /// Calls the module's function `name` with `args` (see the class comment for what it
  /// returns).
  std::vector<Value> call(std::string_view name, std::vector<Value> args);

  /// Calls `function`, which need not be in the module (its global calls resolve in the
  /// module); `name` is used in messages.
  std::vector<Value> call(const BaseFunc& function, std::vector<Value> args,
                          std::string_view name = "");

  /// Evaluates a graph-level expression with `bindings` for its free variables (global
  /// calls resolve in the module).
  Value evaluate(const Expr& expr, const std::vector<std::pair<Var, Value>>& bindings = {});

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

  void reset();
  std::string_view current_name() const;
  [[noreturn]] void fail(const Object* node, std::string_view what) const;
  [[noreturn]] void fail(const Object* node, std::string_view what, std::string_view fname) const;

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
  // Graph level (detail/graph_eval-inl.hpp)

  void push_value(Value value) { values_.push_back(std::move(value)); }
  std::vector<Value> pop_values(std::size_t count);
  Value pop_value() {
    Value value = std::move(values_.back());
    values_.pop_back();
    return value;
  }
  void memoize(const Object* node, const Value& value) { frames_.back().memo[node] = value; }

  void run_graph();
  bool truth(const Value& cond, const Object* node);
  void eval(const Object* node);
  void apply_call(const CallNode& call);
  void enter(const CallNode& call, const FunctionNode& function,
             const std::vector<std::pair<Var, Value>>& captured, std::vector<Value> args,
             std::string name);
  void finish_call(const Object* call);
  Value apply_op(const CallNode& call, const OpNode& op, std::vector<Value> args);
  void call_dps(const CallDpsNode& call);

  // ---------------------------------------------------------------------------------
  // Types and parameters (detail/check_args-inl.hpp)

  /// Whether `value` fits `type`, binding unbound shape variables of `type` when `bind`;
  /// `why` says what differs.
  bool matches(const Type& type, const Value& value, detail::Env& env, bool bind, std::string& why);

  /// Binds the unbound shape variables that are whole dimensions of `type` to the
  /// dimensions of `value`, where the ranks agree; checks nothing.
  static void bind_dims(const Type& type, const Value& value, detail::Env& env);

  void check_type(const Type& type, const Value& value, detail::Env& env, const Object* node,
                  const std::string& what);

  /// Binds `params` to `args` in `env`: shape variables first (by the first parameter
  /// that mentions each), then every parameter checked against its type.
  void bind_params(detail::Env& env, const std::vector<Var>& params, std::vector<Value>& args,
                   bool tensor_level, const Object* site, std::string_view fname);

  // ---------------------------------------------------------------------------------
  // Tensor level: statements, buffers, scalar expressions (detail/tensor_eval-inl.hpp)

  std::vector<Value> run_prim(const PrimFuncNode& function, std::vector<Value> args,
                              const std::string& name, const Object* site);

  struct StmtFrame {
    const StmtNode* stmt;
    std::size_t next;
    std::int64_t current;
    std::int64_t end;
  };

  /// An integer scalar from `expr` (loop bounds, indices).
  std::int64_t eval_index(const PrimExpr& expr, const detail::Env& env, const Object* node,
                          std::string_view what);

  void exec(const SeqStmtNode* body, detail::Env& env);

  /// Runs `stmt`, or pushes a frame for it when it has a body to run.
  void start(const StmtNode* stmt, detail::Env& env, std::vector<StmtFrame>& stack);

  /// The row-major offset of `indices` in `tensor`; an error names the first index out
  /// of bounds.
  std::size_t flat_index(const TensorData& tensor, const std::vector<std::int64_t>& indices,
                         const VarNode* var, const Object* node);

  /// A zero-filled tensor of `type`, its dimensions evaluated in `env`.
  TensorData allocate(const Type& type, const detail::Env& env, const Object* node,
                      std::string_view what);

  // Scalar expressions, with an explicit stack.
  struct ScalarTask {
    const PrimExprNode* node;
    std::uint8_t stage;
  };

  Scalar eval_scalar(const PrimExprNode* root, const detail::Env& env, std::string_view fname);

  Scalar pop_scalar() {
    const Scalar value = scalar_values_.back();
    scalar_values_.pop_back();
    return value;
  }

  void step_scalar(const ScalarTask& task, const detail::Env& env, std::string_view fname);

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

#ifdef CTIR_HEADER_ONLY
#include <ctir/eval/detail/check_args-inl.hpp>
#include <ctir/eval/detail/graph_eval-inl.hpp>
#include <ctir/eval/detail/tensor_eval-inl.hpp>
#include <ctir/eval/interpreter-inl.hpp>
#endif
