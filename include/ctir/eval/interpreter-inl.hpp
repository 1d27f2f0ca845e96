// Definitions of <ctir/eval/interpreter.hpp>: the entry points; the evaluation itself is
// in detail/graph_eval-inl.hpp, detail/tensor_eval-inl.hpp and detail/check_args-inl.hpp.
#pragma once

#include <ctir/eval/interpreter.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/kernels.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::eval {

namespace detail {

CTIR_INLINE std::string without_prefix(std::string_view message) {
  constexpr std::string_view prefix = "ctir: ";
  if (message.substr(0, prefix.size()) == prefix) {
    message.remove_prefix(prefix.size());
  }
  return std::string(message);
}

} // namespace detail

CTIR_INLINE Interpreter::Interpreter(IRModule module, InterpreterOptions options)
    : module_(std::move(module)), options_(options) {
  ensure_builtin_kernels();
}

CTIR_INLINE std::vector<Value> Interpreter::call(std::string_view name, std::vector<Value> args) {
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

CTIR_INLINE std::vector<Value> Interpreter::call(const BaseFunc& function, std::vector<Value> args,
                                                 std::string_view name) {
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

CTIR_INLINE Value Interpreter::evaluate(const Expr& expr,
                                        const std::vector<std::pair<Var, Value>>& bindings) {
  reset();
  frames_.emplace_back();
  for (const auto& [var, value] : bindings) {
    frames_.back().env[var.get()] = value;
  }
  tasks_.push_back({Step::eval, expr.get()});
  run_graph();
  return graph_value(std::move(values_.back()));
}

CTIR_INLINE void Interpreter::reset() {
  frames_.clear();
  tasks_.clear();
  values_.clear();
  steps_ = 0;
}

CTIR_INLINE void Interpreter::fail(const Object* node, std::string_view what) const {
  throw detail::make_error(node, what, current_name());
}

CTIR_INLINE void Interpreter::fail(const Object* node, std::string_view what,
                                   std::string_view fname) const {
  throw detail::make_error(node, what, fname);
}

CTIR_INLINE std::string_view Interpreter::current_name() const {
  return !current_prim_.empty() || frames_.empty() ? std::string_view(current_prim_)
                                                   : std::string_view(frames_.back().name);
}

} // namespace ctir::eval
