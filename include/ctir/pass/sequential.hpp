// Static sequentials: a pipeline of static passes that compiles to direct calls, with
// TVM's PassEnabled and transitive requirement resolution.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/requirements.hpp>
#include <ctir/pass/run.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ctir {

namespace detail {
/// The instance of a provider named by type in `required_passes`.
template <class P>
inline constexpr P provider_instance{};
} // namespace detail

/// Runs passes in order, as a pass itself (instruments see the sequential and, nested in
/// it, each pass it runs).
///
/// - A pass runs only if the context's PassEnabled says so (disabled wins, then the
///   context's required list, then `ctx.opt_level() >= info.opt_level`).
/// - Before a pass runs, each result it requires is made valid: if no pass that ran
///   since the last invalidation established it, the pass that provides it runs first
///   (its own requirements resolved the same way, transitively; PassEnabled is not
///   consulted for it, as in TVM). Providers are the sequential's own passes (not nested
///   sequentials) and the types named by `required_passes`. Nested sequentials share the
///   valid results of the one they run in.
/// - A provider missing or a cycle of requirements is a compile error when every pass has a
///   static constexpr info(), else an error (PipelineError) when the sequential is made.
///
/// Without instruments and requirements, running a sequential whose passes are all enabled
/// by the context's opt_level is one test (no instruments, no required/disabled lists, an
/// opt_level at least the passes' highest) and the direct calls: no virtual call, no
/// allocation, no std::function; else one branch and the opt_level comparison per pass. Static
/// instruments (InstrumentedPassContext) are called directly, also without allocation.
template <class... Ps>
class Sequential : public pass_interface<Sequential<Ps...>> {
  using pool = detail::requirement_pool_t<Ps...>;
  static constexpr std::size_t member_count = sizeof...(Ps);
  static constexpr std::size_t pool_size = pool::size;

  // An error in here names the passes: a requirement nothing provides, or a cycle.
  static_assert(detail::check_static_requirements<pool>());

public:
  constexpr explicit Sequential(PassInfo info, Ps... passes)
      : info_(detail::stable_info(detail::sequential_info(info))), passes_(std::move(passes)...) {
    std::apply(
        [](const auto&... members) {
          (static_cast<void>(detail::named_info(
               detail::info_of(members),
               detail::pass_class_name<std::remove_cvref_t<decltype(members)>>())),
           ...);
        },
        passes_);
    plan();
  }

  constexpr const PassInfo& info() const noexcept { return info_; }
  static constexpr bool is_sequential() noexcept { return true; }
  /// The passes, in order.
  constexpr const std::tuple<Ps...>& passes() const noexcept { return passes_; }

  /// The bare run: the passes in order (each through run_pass, so with instruments).
  template <pass_context Ctx>
  CTIR_DETAIL_ALWAYS_INLINE IRModule transform_module(IRModule mod, const Ctx& ctx) const {
    detail::RequirementState* outer = detail::active_requirements;
    if (!tracking_ && outer == nullptr) [[likely]] {
      return run_plain(std::move(mod), ctx, std::index_sequence_for<Ps...>{});
    }
    return run_tracked(std::move(mod), ctx, outer, std::index_sequence_for<Ps...>{});
  }

private:
  template <std::size_t I>
  constexpr const auto& entry() const noexcept {
    if constexpr (I < member_count) {
      return std::get<I>(passes_);
    } else {
      using Dependency = list_element_t<I, pool>;
      // An error here means a type named in `required_passes` is not a pass that can be
      // made in a constant expression by its default constructor (a stateless pass).
      static_assert(pass<Dependency> && std::is_default_constructible_v<Dependency>,
                    "ctir: a type in `required_passes` must be a stateless pass: default "
                    "constructible, usable in constant expressions");
      return detail::provider_instance<Dependency>;
    }
  }

  constexpr void plan() {
    std::array<PassInfo, pool_size> infos{};
    std::array<bool, pool_size> can_provide{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((infos[I] = detail::info_of(entry<I>()),
        can_provide[I] = !detail::is_sequential(entry<I>())),
       ...);
    }
    (std::make_index_sequence<pool_size>{});
    std::array<std::size_t, pool_size> color{};
    std::array<std::size_t, pool_size> stack{};
    std::array<std::size_t, pool_size> next{};
    const detail::PlanProblem problem =
        detail::plan_requirements(infos, can_provide, providers_, color, stack, next);
    if (problem.kind != detail::PlanProblem::Kind::none) {
      throw PipelineError(detail::describe_problem(problem, infos));
    }
    for (std::size_t i = 0; i < member_count; ++i) {
      tracking_ = tracking_ || !infos[i].required.empty();
      highest_opt_level_ =
          infos[i].opt_level > highest_opt_level_ ? infos[i].opt_level : highest_opt_level_;
    }
  }

  template <class Ctx, std::size_t... I>
  CTIR_DETAIL_ALWAYS_INLINE IRModule run_plain(IRModule&& mod, const Ctx& ctx,
                                               std::index_sequence<I...>) const {
    if (ctx.is_plain() && ctx.opt_level() >= highest_opt_level_) [[likely]] {
      // Every pass is enabled: one test for the whole run, then the direct calls. The
      // module travels in a local that nothing else sees, so that the compiler knows a
      // moved-from module is empty and drops the dead releases. One handler for all of
      // them (the index says which pass failed), not one per pass.
      IRModule current = std::move(mod);
      std::size_t running = 0;
      try {
        ((running = I, current = detail::invoke_raw(std::get<I>(passes_), std::move(current), ctx)),
         ...);
      } catch (...) {
        const std::array<std::string_view, member_count> names{
            detail::info_of(std::get<I>(passes_)).name...};
        detail::rethrow_as_pass_error(names[running]);
      }
      return IRModule(std::move(current)); // not the return slot, which others can see
    }
    return run_stepwise(std::move(mod), ctx, std::index_sequence<I...>{});
  }
  /// The passes one by one, each asked whether it is enabled: a call of its own, so that
  /// the sequential's inlined entry points (run_pass and the instrumented run) do not each
  /// hold a copy.
  template <class Ctx, std::size_t... I>
  [[gnu::noinline]] IRModule run_stepwise(IRModule&& mod, const Ctx& ctx,
                                          std::index_sequence<I...>) const {
    (plain_step<I>(mod, ctx), ...);
    return std::move(mod);
  }
  template <std::size_t I, class Ctx>
  void plain_step(IRModule& mod, const Ctx& ctx) const {
    const auto& p = std::get<I>(passes_);
    const PassInfo& info = detail::info_of(p);
    // Without required/disabled lists and instruments, PassEnabled is the opt_level test.
    if (ctx.is_plain() ? ctx.opt_level() >= info.opt_level : ctx.pass_enabled(info)) {
      bool ran = false;
      mod = detail::run_pass_reporting_step(p, std::move(mod), ctx, ran);
    }
  }

  template <class Ctx, std::size_t... I>
  [[gnu::noinline]] IRModule run_tracked(IRModule&& mod, const Ctx& ctx,
                                         detail::RequirementState* outer,
                                         std::index_sequence<I...>) const {
    detail::RequirementState local;
    detail::RequirementState& state = outer != nullptr ? *outer : local;
    detail::ActiveRequirements active(&state);
    ((mod = tracked_step<I>(*this, std::move(mod), ctx, state, true)), ...);
    return std::move(mod);
  }

  template <class Ctx>
  using tracked_step_fn = IRModule (*)(const Sequential&, IRModule, const Ctx&,
                                       detail::RequirementState&, bool);

  /// Runs pool entry I after making its requirements valid; `check_enabled` for the
  /// sequential's own passes, not for providers. A provider is run through a table of these
  /// steps, so that the tracked path compiles one step per pool entry, not one per pair of
  /// entries.
  template <std::size_t I, class Ctx>
  static IRModule tracked_step(const Sequential& self, IRModule mod, const Ctx& ctx,
                               detail::RequirementState& state, bool check_enabled) {
    const auto& p = self.entry<I>();
    const PassInfo& info = detail::info_of(p);
    if (check_enabled && !ctx.pass_enabled(info)) {
      return mod;
    }
    for (std::size_t k = 0; k < info.required.size(); ++k) {
      if (!state.contains(info.required[k])) {
        const auto provider = static_cast<std::size_t>(self.providers_[I][k]);
        mod = tracked_steps<Ctx>[provider](self, std::move(mod), ctx, state, false);
      }
    }
    bool ran = false;
    mod = detail::run_pass_reporting_step(p, std::move(mod), ctx, ran);
    if (ran) {
      state.apply(info);
    }
    return mod;
  }

  template <class Ctx>
  static constexpr std::array<tracked_step_fn<Ctx>, pool_size> tracked_steps = [
  ]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<tracked_step_fn<Ctx>, pool_size>{&tracked_step<I, Ctx>...};
  }
  (std::make_index_sequence<pool_size>{});

  PassInfo info_;
  std::tuple<Ps...> passes_;
  std::array<std::array<std::int16_t, NameList::capacity>, pool_size> providers_{};
  bool tracking_ = false;
  int highest_opt_level_ = 0; ///< the highest opt_level of the sequential's own passes
};

/// A static sequential named "sequential" (opt_level 0) of the given passes:
///
///     constexpr auto pipeline = sequential(InferType{}, FoldConstant{});
///     mod = pipeline(mod);
template <class... Ps>
requires((!std::is_same_v<std::decay_t<Ps>, PassInfo> &&
          ...)) constexpr auto sequential(Ps&&... passes) {
  // An error here means an argument is not a pass: a type with info() and
  // transform_module(IRModule, const PassContext&), transform_function(...), or
  // operator()(IRModule, const PassContext&).
  static_assert((pass<std::decay_t<Ps>> && ...),
                "ctir::sequential: every argument must be a pass (a type with info() and "
                "transform_module, transform_function or operator()(IRModule, const "
                "PassContext&))");
  return Sequential<std::decay_t<Ps>...>(PassInfo{.name = "sequential"},
                                         std::forward<Ps>(passes)...);
}

/// A static sequential with its own name and opt_level:
/// `sequential(PassInfo{.name = "O2"}, InferType{}, FoldConstant{})`.
template <class... Ps>
constexpr auto sequential(PassInfo info, Ps&&... passes) {
  static_assert((pass<std::decay_t<Ps>> && ...),
                "ctir::sequential: every argument after the PassInfo must be a pass (a type with "
                "info() and transform_module, transform_function or operator()(IRModule, const "
                "PassContext&))");
  return Sequential<std::decay_t<Ps>...>(info, std::forward<Ps>(passes)...);
}

} // namespace ctir
