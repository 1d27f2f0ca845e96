// Runs a per-function rewrite over the functions of one kind in a module (function passes).
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/detail/function_ref.hpp>
#include <ctir/pass/error.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// Calls `rewrite(function)` for every function of node type FuncNode in `mod` (in module
/// order, each seeing the module as it was on entry) and applies the results: a new
/// function replaces the old one, the same one changes nothing, null deletes the function
/// when `may_delete` (tensor-level passes) and is an error otherwise. Graph-level
/// functions whose attribute SkipOptimization is true are left alone when
/// `honour_skip_optimization`. Returns `mod` itself when nothing changed.
///
/// One function per kind of function for every pass (the rewrite is called through a
/// function_ref), compiled in the library in compiled mode.
template <class FuncNode>
IRModule map_functions_of(IRModule mod, std::string_view pass_name, bool honour_skip_optimization,
                          bool may_delete,
                          function_ref<Ref<FuncNode>(Ref<FuncNode>, const IRModule&)> rewrite) {
  // Updates are applied after the loop, so the pass sees an unchanged module and a module
  // the pipeline owns alone is then updated in place.
  std::vector<std::pair<GlobalVar, Ref<FuncNode>>> updates;
  const std::size_t count = mod.size();
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
      throw Error("ctir: function pass " + std::string(pass_name) + " returned no function for @" +
                  mod.global_at(i)->name +
                  " (only tensor-level function passes may delete functions)");
    }
    if (!updated.same_as(function)) {
      updates.emplace_back(mod.global_at(i), std::move(updated));
    }
  }
  for (auto& [global, function] : updates) {
    if (function.defined()) {
      mod.update(global->name, std::move(function));
    } else {
      mod.remove(global->name);
    }
  }
  return mod;
}

#ifndef CTIR_HEADER_ONLY
extern template IRModule
map_functions_of<FunctionNode>(IRModule, std::string_view, bool, bool,
                               function_ref<Ref<FunctionNode>(Ref<FunctionNode>, const IRModule&)>);
extern template IRModule
map_functions_of<PrimFuncNode>(IRModule, std::string_view, bool, bool,
                               function_ref<Ref<PrimFuncNode>(Ref<PrimFuncNode>, const IRModule&)>);
#endif

/// map_functions_of with any callable `rewrite(Ref<FuncNode>, const IRModule&)`.
template <class FuncNode, class Rewrite>
IRModule map_functions(IRModule mod, std::string_view pass_name, bool honour_skip_optimization,
                       bool may_delete, const Rewrite& rewrite) {
  auto call = [&](Ref<FuncNode> function, const IRModule& m) -> Ref<FuncNode> {
    return rewrite(std::move(function), m);
  };
  return map_functions_of<FuncNode>(
      std::move(mod), pass_name, honour_skip_optimization, may_delete,
      function_ref<Ref<FuncNode>(Ref<FuncNode>, const IRModule&)>(call));
}

} // namespace ctir::detail
