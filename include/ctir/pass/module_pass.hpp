// Module passes made from a function (a lambda): the name and opt_level they are given.
#pragma once

#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

#include <string_view>
#include <type_traits>
#include <utility>

namespace ctir {

/// A function usable as the body of a module pass: `IRModule(IRModule, const
/// PassContext&)` or `IRModule(IRModule)`.
template <class F>
concept module_pass_function = std::copy_constructible<F> &&
    (std::is_invocable_r_v<IRModule, const F&, IRModule, const PassContext&> ||
     std::is_invocable_r_v<IRModule, const F&, IRModule>);

/// A module pass whose rewrite is a function object.
template <class F>
class ModulePass : public pass_interface<ModulePass<F>> {
public:
  constexpr ModulePass(PassInfo info, F function)
      : info_(detail::stable_info(detail::named_info(info, "ctir::ModulePass"))),
        function_(std::move(function)) {}

  constexpr const PassInfo& info() const noexcept { return info_; }
  /// The bare rewrite (run it through `pass(mod)` to get instruments and error reports).
  IRModule transform_module(IRModule mod, const PassContext& ctx) const {
    if constexpr (std::is_invocable_r_v<IRModule, const F&, IRModule, const PassContext&>) {
      return function_(std::move(mod), ctx);
    } else {
      static_cast<void>(ctx);
      return function_(std::move(mod));
    }
  }
  constexpr const F& function() const noexcept { return function_; }

private:
  PassInfo info_;
  F function_;
};

/// A module pass from a function: `make_module_pass({.name = "Dce", .opt_level = 1}, f)`.
template <class F>
constexpr ModulePass<std::decay_t<F>> make_module_pass(PassInfo info, F&& function) {
  // An error here means `function` cannot be called as IRModule(IRModule, const PassContext&)
  // or IRModule(IRModule) on a const object.
  static_assert(module_pass_function<std::decay_t<F>>,
                "ctir::make_module_pass: the function must be callable (const) as "
                "IRModule(IRModule, const PassContext&) or IRModule(IRModule)");
  return ModulePass<std::decay_t<F>>(info, std::forward<F>(function));
}
/// A module pass from a function: `make_module_pass("Dce", 1, f)`.
template <class F>
constexpr ModulePass<std::decay_t<F>> make_module_pass(std::string_view name, int opt_level,
                                                       F&& function) {
  return make_module_pass(PassInfo{.name = name, .opt_level = opt_level},
                          std::forward<F>(function));
}

} // namespace ctir
