// Function passes made from a function: per graph-level Function or per tensor-level PrimFunc.
#pragma once

#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/detail/functions.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

#include <string_view>
#include <type_traits>
#include <utility>

namespace ctir {

/// A function usable as the body of a function pass over `Func` (Function or PrimFunc):
/// `Func(Func, const IRModule&, const PassContext&)` or `Func(Func)`.
template <class F, class Func>
concept function_pass_function = std::copy_constructible<F> &&
    (std::is_invocable_r_v<Func, const F&, Func, const IRModule&, const PassContext&> ||
     std::is_invocable_r_v<Func, const F&, Func>);

namespace detail {

template <class Func, class F>
Func call_function_rewrite(const F& function, Func f, const IRModule& mod, const PassContext& ctx) {
  if constexpr (std::is_invocable_r_v<Func, const F&, Func, const IRModule&, const PassContext&>) {
    return function(std::move(f), mod, ctx);
  } else {
    static_cast<void>(mod);
    static_cast<void>(ctx);
    return function(std::move(f));
  }
}

/// The pass over every function of node type FuncNode, with its rewrite in F.
template <class FuncNode, class F, class Self>
class PerFunctionPass : public pass_interface<Self> {
public:
  using function_type = Ref<FuncNode>;

  constexpr PerFunctionPass(PassInfo info, F function)
      : info_(stable_info(named_info(info, std::is_same_v<FuncNode, FunctionNode>
                                               ? "ctir::FunctionPass"
                                               : "ctir::PrimFuncPass"))),
        function_(std::move(function)) {}

  constexpr const PassInfo& info() const noexcept { return info_; }
  /// Rewrites one function.
  function_type transform_function(function_type f, const IRModule& mod,
                                   const PassContext& ctx) const {
    return call_function_rewrite<function_type>(function_, std::move(f), mod, ctx);
  }
  /// The bare rewrite of the module: every function of the kind, in order.
  IRModule transform_module(IRModule mod, const PassContext& ctx) const {
    constexpr bool graph_level = std::is_same_v<FuncNode, FunctionNode>;
    return map_functions<FuncNode>(std::move(mod), info_.name, graph_level, !graph_level, ctx,
                                   [&](function_type f, const IRModule& m) -> function_type {
                                     return transform_function(std::move(f), m, ctx);
                                   });
  }
  constexpr const F& function() const noexcept { return function_; }

private:
  PassInfo info_;
  F function_;
};

} // namespace detail

/// A pass over each graph-level function (FunctionNode) of a module. Functions whose
/// attribute SkipOptimization is true are left alone; the rewrite must return a function.
template <class F>
class FunctionPass : public detail::PerFunctionPass<FunctionNode, F, FunctionPass<F>> {
public:
  using detail::PerFunctionPass<FunctionNode, F, FunctionPass<F>>::PerFunctionPass;
};

/// A pass over each tensor-level function (PrimFuncNode) of a module; a rewrite that
/// returns null deletes the function.
template <class F>
class PrimFuncPass : public detail::PerFunctionPass<PrimFuncNode, F, PrimFuncPass<F>> {
public:
  using detail::PerFunctionPass<PrimFuncNode, F, PrimFuncPass<F>>::PerFunctionPass;
};

/// A graph-level function pass from a function:
/// `make_function_pass({.name = "FoldConstant", .opt_level = 2}, f)`.
template <class F>
constexpr FunctionPass<std::decay_t<F>> make_function_pass(PassInfo info, F&& function) {
  // An error here means `function` cannot be called as Function(Function, const IRModule&,
  // const PassContext&) or Function(Function).
  static_assert(function_pass_function<std::decay_t<F>, Function>,
                "ctir::make_function_pass: the function must be callable (const) as "
                "Function(Function, const IRModule&, const PassContext&) or Function(Function)");
  return FunctionPass<std::decay_t<F>>(info, std::forward<F>(function));
}
template <class F>
constexpr FunctionPass<std::decay_t<F>> make_function_pass(std::string_view name, int opt_level,
                                                           F&& function) {
  return make_function_pass(PassInfo{.name = name, .opt_level = opt_level},
                            std::forward<F>(function));
}

/// A tensor-level function pass from a function:
/// `make_prim_func_pass({.name = "UnrollLoop", .opt_level = 2}, f)`.
template <class F>
constexpr PrimFuncPass<std::decay_t<F>> make_prim_func_pass(PassInfo info, F&& function) {
  // An error here means `function` cannot be called as PrimFunc(PrimFunc, const IRModule&,
  // const PassContext&) or PrimFunc(PrimFunc).
  static_assert(function_pass_function<std::decay_t<F>, PrimFunc>,
                "ctir::make_prim_func_pass: the function must be callable (const) as "
                "PrimFunc(PrimFunc, const IRModule&, const PassContext&) or PrimFunc(PrimFunc)");
  return PrimFuncPass<std::decay_t<F>>(info, std::forward<F>(function));
}
template <class F>
constexpr PrimFuncPass<std::decay_t<F>> make_prim_func_pass(std::string_view name, int opt_level,
                                                            F&& function) {
  return make_prim_func_pass(PassInfo{.name = name, .opt_level = opt_level},
                             std::forward<F>(function));
}

} // namespace ctir
