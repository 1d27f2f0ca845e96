// Definitions of <ctir/eval/interpreter.hpp>: tensor-level evaluation (statements, buffers,
// scalar expressions) on explicit stacks.
#pragma once

#include <ctir/eval/interpreter.hpp>
#include <ctir/ir/tensor/binary_view.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::eval {

CTIR_INLINE TensorData Interpreter::allocate(const Type& type, const detail::Env& env,
                                             const Object* node, std::string_view what) {
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

CTIR_INLINE std::vector<Value> Interpreter::run_prim(const PrimFuncNode& function,
                                                     std::vector<Value> args,
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

CTIR_INLINE std::int64_t Interpreter::eval_index(const PrimExpr& expr, const detail::Env& env,
                                                 const Object* node, std::string_view what) {
  const Scalar value = eval_scalar(expr.get(), env, current_prim_);
  if (value.is_float()) {
    fail(node, std::string(what) + " " + prim_expr_str(expr) + " is a " + value.dtype.str() +
                   ", not an integer");
  }
  return value.i;
}

CTIR_INLINE void Interpreter::exec(const SeqStmtNode* body, detail::Env& env) {
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

CTIR_INLINE void Interpreter::start(const StmtNode* stmt, detail::Env& env,
                                    std::vector<StmtFrame>& stack) {
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
    env[alloc.buffer.get()] = Value(
        allocate(alloc.buffer->ty, env, stmt, "the buffer " + detail::var_str(alloc.buffer.get())));
    return;
  }
  default:
    fail(stmt, "cannot run a " + std::string(stmt->dynamic_type_key()) + " statement");
  }
}

CTIR_INLINE std::size_t Interpreter::flat_index(const TensorData& tensor,
                                                const std::vector<std::int64_t>& indices,
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

CTIR_INLINE Scalar Interpreter::eval_scalar(const PrimExprNode* root, const detail::Env& env,
                                            std::string_view fname) {
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

CTIR_INLINE void Interpreter::step_scalar(const ScalarTask& task, const detail::Env& env,
                                          std::string_view fname) {
  const PrimExprNode* node = task.node;
  if (node == nullptr) {
    fail(nullptr, "a scalar expression is missing (a null field)", fname);
  }
  BinaryOp op{};
  const PrimExprNode* a = nullptr;
  const PrimExprNode* b = nullptr;
  if (view_binary(*node, op, a, b)) {
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
        fail(node, "index " + std::to_string(k) + " is a " + index.dtype.str() + ", not an integer",
             fname);
      }
      indices[k] = index.i;
    }
    const auto it = env.find(load.source.get());
    if (it == env.end()) {
      fail(node, "the tensor " + detail::var_str(load.source.get()) + " is not bound here", fname);
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

} // namespace ctir::eval
