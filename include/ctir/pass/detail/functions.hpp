// Runs a per-function rewrite over the functions of one kind in a module (function passes).
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/detail/function_ref.hpp>
#include <ctir/pass/detail/thread_pool.hpp>
#include <ctir/pass/error.hpp>

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// Applies a function pass's results to `mod`, in order: a function replaces the one of
/// its global, null removes it.
template <class FuncNode>
IRModule apply_function_updates(IRModule mod,
                                std::vector<std::pair<GlobalVar, Ref<FuncNode>>>& updates) {
  for (auto& [global, function] : updates) {
    if (function.defined()) {
      mod.update(global->name, std::move(function));
    } else {
      mod.remove(global->name);
    }
  }
  return mod;
}

/// Calls `rewrite(function)` for every function of node type FuncNode in `mod` (each seeing
/// the module as it was on entry) and applies the results: a new function replaces the old
/// one, the same one changes nothing, null deletes the function when `may_delete`
/// (tensor-level passes) and is an error otherwise. Graph-level functions whose attribute
/// SkipOptimization is true are left alone when `honour_skip_optimization`. Returns `mod`
/// itself when nothing changed.
///
/// The functions run on up to `pass.num_threads` threads of `ctx` (see pass_threads), the
/// results applied in module order, so that the output is the serial run's. A failure
/// (an exception, or null where it is not allowed) is the first one in module order, as
/// in a serial run, and leaves `mod` as it was.
///
/// One function per kind of function for every pass (the rewrite is called through a
/// function_ref), compiled in the library in compiled mode.
template <class FuncNode>
IRModule map_functions_of(IRModule mod, std::string_view pass_name, bool honour_skip_optimization,
                          bool may_delete, const PassContext& ctx,
                          function_ref<Ref<FuncNode>(Ref<FuncNode>, const IRModule&)> rewrite) {
  // Updates are applied after the loop, so the pass sees an unchanged module and a module
  // the pipeline owns alone is then updated in place.
  std::vector<std::pair<GlobalVar, Ref<FuncNode>>> updates;
  const auto no_function = [&](std::size_t i) {
    return Error("ctir: function pass " + std::string(pass_name) + " returned no function for @" +
                 mod.global_at(i)->name +
                 " (only tensor-level function passes may delete functions)");
  };
  const std::size_t count = mod.size();
  const unsigned threads = in_parallel_task() ? 1u : pass_threads(ctx);
  if (threads > 1 && count > 1) {
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < count; ++i) {
      const auto* node = mod.function_at(i).template as<FuncNode>();
      if (node != nullptr && !(honour_skip_optimization && node->skip_optimization())) {
        positions.push_back(i);
      }
    }
    if (positions.size() > 1) {
      const IRModule& input = mod;
      std::vector<Ref<FuncNode>> results(positions.size());
      std::vector<std::exception_ptr> errors(positions.size());
      auto task = [&](std::size_t k) -> bool {
        try {
          Ref<FuncNode> function = ref_of(input.function_at(positions[k]).template as<FuncNode>());
          results[k] = rewrite(std::move(function), input);
          return results[k].defined() || may_delete;
        } catch (...) {
          errors[k] = std::current_exception();
          return false;
        }
      };
      const std::size_t failed =
          run_function_tasks(ctx, positions.size(), threads, function_ref<bool(std::size_t)>(task));
      if (failed < positions.size()) {
        if (errors[failed]) {
          std::rethrow_exception(errors[failed]);
        }
        throw no_function(positions[failed]);
      }
      for (std::size_t k = 0; k < positions.size(); ++k) {
        if (!results[k].same_as(input.function_at(positions[k]))) {
          updates.emplace_back(input.global_at(positions[k]), std::move(results[k]));
        }
      }
      return apply_function_updates(std::move(mod), updates);
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const auto* node = mod.function_at(i).template as<FuncNode>();
    if (node == nullptr) {
      continue;
    }
    if (honour_skip_optimization && node->skip_optimization()) {
      continue;
    }
    Ref<FuncNode> function = ref_of(node);
    Ref<FuncNode> updated = rewrite(function, static_cast<const IRModule&>(mod));
    if (!updated.defined() && !may_delete) {
      throw no_function(i);
    }
    if (!updated.same_as(function)) {
      updates.emplace_back(mod.global_at(i), std::move(updated));
    }
  }
  return apply_function_updates(std::move(mod), updates);
}

#ifndef CTIR_HEADER_ONLY
extern template IRModule
map_functions_of<FunctionNode>(IRModule, std::string_view, bool, bool, const PassContext&,
                               function_ref<Ref<FunctionNode>(Ref<FunctionNode>, const IRModule&)>);
extern template IRModule
map_functions_of<PrimFuncNode>(IRModule, std::string_view, bool, bool, const PassContext&,
                               function_ref<Ref<PrimFuncNode>(Ref<PrimFuncNode>, const IRModule&)>);
#endif

/// map_functions_of with any callable `rewrite(Ref<FuncNode>, const IRModule&)`.
template <class FuncNode, class Rewrite>
IRModule map_functions(IRModule mod, std::string_view pass_name, bool honour_skip_optimization,
                       bool may_delete, const PassContext& ctx, const Rewrite& rewrite) {
  auto call = [&](Ref<FuncNode> function, const IRModule& m) -> Ref<FuncNode> {
    return rewrite(std::move(function), m);
  };
  return map_functions_of<FuncNode>(
      std::move(mod), pass_name, honour_skip_optimization, may_delete, ctx,
      function_ref<Ref<FuncNode>(Ref<FuncNode>, const IRModule&)>(call));
}

} // namespace ctir::detail
