// What a pass is (concepts), and running one pass with its context's instruments.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/detail/function_ref.hpp>
#include <ctir/pass/detail/functions.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instrument.hpp>

#include <concepts>
#include <optional>
#include <type_traits>
#include <utility>

namespace ctir {

/// `p.info()` gives the pass's PassInfo.
template <class P>
concept has_pass_info = requires(const P& p) {
  { p.info() } -> std::convertible_to<PassInfo>;
};

/// `p.transform_module(mod, ctx)` rewrites a module (a module pass).
template <class P>
concept has_transform_module = requires(const P& p, IRModule mod, const PassContext& ctx) {
  { p.transform_module(std::move(mod), ctx) } -> std::same_as<IRModule>;
};

/// `p.transform_function(f, mod, ctx)` rewrites one graph-level function.
template <class P>
concept has_graph_transform_function = requires(const P& p, Function f, const IRModule& mod,
                                                const PassContext& ctx) {
  { p.transform_function(std::move(f), mod, ctx) } -> std::convertible_to<Function>;
};

/// `p.transform_function(f, mod, ctx)` rewrites one tensor-level function (null deletes it).
template <class P>
concept has_tensor_transform_function = requires(const P& p, PrimFunc f, const IRModule& mod,
                                                 const PassContext& ctx) {
  { p.transform_function(std::move(f), mod, ctx) } -> std::convertible_to<PrimFunc>;
};

/// `p(mod, ctx)` rewrites a module (a plain callable class used as a module pass).
template <class P>
concept has_module_call = requires(const P& p, IRModule mod, const PassContext& ctx) {
  { p(std::move(mod), ctx) } -> std::same_as<IRModule>;
};

/// A static pass: a copyable type with `info()` and one way of rewriting a module:
/// `transform_module(IRModule, const PassContext&)`, `transform_function(Function, const
/// IRModule&, const PassContext&)` (graph-level function pass), `transform_function(PrimFunc,
/// ...)` (tensor-level function pass), or `operator()(IRModule, const PassContext&)`.
///
/// These members are the bare rewrite. Running a pass through the infrastructure
/// (`run_pass`, a sequential, a `Pass`, or the call operators of the library's pass types)
/// adds instruments and error reporting.
/// One of the ways a pass rewrites a module.
template <class P>
concept has_rewrite = has_transform_module<P> || has_graph_transform_function<P> ||
    has_tensor_transform_function<P> || has_module_call<P>;

// copy_constructible comes last: it looks at converting constructors, which may in turn ask
// whether something is a pass (Pass itself has one).
template <class P>
concept pass = has_pass_info<P> && has_rewrite<P> && std::copy_constructible<P>;

/// A pass over a whole module.
template <class P>
concept module_pass =
    pass<P> && !has_graph_transform_function<P> && !has_tensor_transform_function<P>;
/// A pass over each graph-level function (FunctionNode).
template <class P>
concept function_pass = pass<P> && has_graph_transform_function<P>;
/// A pass over each tensor-level function (PrimFuncNode).
template <class P>
concept prim_func_pass = pass<P> && has_tensor_transform_function<P>;

/// A pass whose `info()` is a static member function usable in constant expressions, so
/// that a static pipeline can check its requirements at compile time.
template <class P>
concept has_static_info = pass<P> && requires {
  typename std::integral_constant<int, P::info().opt_level>;
};

/// A list of pass types, used by a pass to name the passes that provide its requirements:
/// `using required_passes = ctir::pass_list<InferType>;`.
template <class... Ps>
struct pass_list {};

namespace detail {

/// The PassInfo of a pass with a static constexpr info(), as a constant (never rebuilt).
template <class P>
inline constexpr PassInfo static_info_v = P::info();

/// The PassInfo of `p`: a reference to a constant for a static info(), else what info()
/// returns (bind the result to `const PassInfo&`).
template <class P>
requires has_static_info<P>
constexpr const PassInfo& info_of(const P&) noexcept { return static_info_v<P>; }
template <class P>
requires(!has_static_info<P>) constexpr decltype(auto)
    info_of(const P& p) noexcept(noexcept(p.info())) {
  return p.info();
}

/// Runs the bare rewrite of `p` (no instruments, no error wrapping).
template <class P, class Ctx>
CTIR_DETAIL_ALWAYS_INLINE IRModule invoke_raw(const P& p, IRModule&& mod, const Ctx& ctx) {
  if constexpr (requires { p.transform_module(std::move(mod), ctx); }) {
    return p.transform_module(std::move(mod), ctx);
  } else if constexpr (has_graph_transform_function<P> || has_tensor_transform_function<P>) {
    const PassContext& base = ctx;
    if constexpr (has_graph_transform_function<P>) {
      mod = map_functions<FunctionNode>(std::move(mod), info_of(p).name, true, false, base,
                                        [&](Function f, const IRModule& m) -> Function {
                                          return p.transform_function(std::move(f), m, base);
                                        });
    }
    if constexpr (has_tensor_transform_function<P>) {
      mod = map_functions<PrimFuncNode>(std::move(mod), info_of(p).name, false, true, base,
                                        [&](PrimFunc f, const IRModule& m) -> PrimFunc {
                                          return p.transform_function(std::move(f), m, base);
                                        });
    }
    return mod;
  } else {
    return p(std::move(mod), static_cast<const PassContext&>(ctx));
  }
}

/// The bare rewrite, an exception reported as a PassError (the run without instruments).
template <class P, class Ctx>
CTIR_DETAIL_ALWAYS_INLINE IRModule invoke_checked(const P& p, IRModule&& mod, const Ctx& ctx) {
  try {
    return invoke_raw(p, std::move(mod), ctx);
  } catch (...) {
    rethrow_as_pass_error(info_of(p).name);
  }
}

/// Whether the failure hooks may need the failed pass's input.
template <class Ctx>
bool keeps_failed_input(const Ctx& ctx) noexcept {
  if constexpr (requires { Ctx::has_failure_hooks; }) {
    return Ctx::has_failure_hooks || ctx.instruments().size() > ctx.static_instrument_count();
  } else {
    static_cast<void>(ctx);
    return true;
  }
}

/// The instrumented run: should_run, run_before_pass, the pass (`rewrite(mod)`), then
/// run_after_pass or run_after_pass_failed. `ran` tells whether the pass ran (instruments
/// may veto it).
template <class Ctx, class Rewrite>
IRModule run_instrumented_with(const PassInfo& info, IRModule&& mod, const Ctx& ctx, bool& ran,
                               const Rewrite& rewrite) {
  bool should_run = true;
  if (!ctx.has_pass_lists() || !ctx.is_required(info.name)) {
    ctx.for_each_instrument([&](auto& instrument) {
      // Every instrument is asked, even after a no (TVM does the same).
      const bool yes = guard_hook(instrument, "should_run", info.name,
                                  [&] { return call_should_run(instrument, mod, info); });
      should_run = should_run && yes;
    });
  }
  if (!should_run) {
    ran = false;
    return std::move(mod);
  }
  ctx.for_each_instrument([&](auto& instrument) {
    guard_hook(instrument, "run_before_pass", info.name,
               [&] { call_run_before_pass(instrument, mod, info); });
  });
  std::optional<IRModule> input;
  if (keeps_failed_input(ctx)) {
    input.emplace(mod);
  }
  std::optional<IRModule> result;
  try {
    result.emplace(rewrite(std::move(mod)));
  } catch (...) {
    try {
      rethrow_as_pass_error(info.name, input ? ObjectRef(input->node()) : ObjectRef());
    } catch (const Error& error) {
      const IRModule failed_input = input ? *input : IRModule();
      ctx.for_each_instrument([&](auto& instrument) {
        // The pass's error is the one to report; a hook failing now is only recorded.
        try {
          call_run_after_pass_failed(instrument, failed_input, info, error);
        } catch (...) {
          context_access::record_swallowed(ctx, "instrument " + display_name(instrument) +
                                                    " failed in run_after_pass_failed of pass " +
                                                    std::string(info.name) + ": " +
                                                    current_exception_message());
        }
      });
      throw;
    }
  }
  ctx.for_each_instrument([&](auto& instrument) {
    guard_hook(instrument, "run_after_pass", info.name,
               [&] { call_run_after_pass(instrument, *result, info); });
  });
  ran = true;
  return std::move(*result);
}

/// The instrumented run under a run-time PassContext: compiled once for every pass (in the
/// library, in compiled mode), the pass called through `rewrite`.
IRModule run_instrumented_erased(const PassInfo& info, IRModule&& mod, const PassContext& ctx,
                                 bool& ran, function_ref<IRModule(IRModule&&)> rewrite);

/// The instrumented run of `p`. Under a context whose instruments are static types, all of
/// it is compiled for the pass, so that their hooks inline.
template <class P, class Ctx>
[[gnu::noinline]] IRModule run_instrumented(const P& p, IRModule&& mod, const Ctx& ctx, bool& ran) {
  auto rewrite = [&](IRModule&& input) { return invoke_raw(p, std::move(input), ctx); };
  if constexpr (std::is_same_v<Ctx, PassContext>) {
    return run_instrumented_erased(info_of(p), std::move(mod), ctx, ran,
                                   function_ref<IRModule(IRModule &&)>(rewrite));
  } else {
    return run_instrumented_with(info_of(p), std::move(mod), ctx, ran, rewrite);
  }
}

/// Runs `p` on `mod` under `ctx`: its instruments (if any) around the bare rewrite, and an
/// exception from the pass reported once as a PassError.
template <class P, class Ctx>
CTIR_DETAIL_ALWAYS_INLINE IRModule run_pass_reporting(const P& p, IRModule&& mod, const Ctx& ctx,
                                                      bool& ran) {
  if (!ctx.has_instruments()) [[likely]] {
    ran = true;
    return invoke_checked(p, std::move(mod), ctx);
  }
  return run_instrumented(p, std::move(mod), ctx, ran);
}

/// run_pass_reporting as a call of its own: the steps of a sequential that are not its
/// all-enabled fast path (a pass left out by the opt_level, a context with instruments or
/// pass lists, requirements tracked) share one copy per pass.
template <class P, class Ctx>
[[gnu::noinline]] IRModule run_pass_reporting_step(const P& p, IRModule&& mod, const Ctx& ctx,
                                                   bool& ran) {
  return run_pass_reporting(p, std::move(mod), ctx, ran);
}

} // namespace detail

/// Runs pass `p` on `mod` under `ctx` (or PassContext::current()): the context's
/// instruments are called around it and an exception from the pass reaches the caller once,
/// as a PassError. PassEnabled is not consulted: calling a pass directly runs it (unless an
/// instrument's should_run says no).
template <pass P, pass_context Ctx>
CTIR_DETAIL_ALWAYS_INLINE IRModule run_pass(const P& p, IRModule mod, const Ctx& ctx) {
  bool ran = false;
  return detail::run_pass_reporting(p, std::move(mod), ctx, ran);
}
template <pass P>
IRModule run_pass(const P& p, IRModule mod) {
  return run_pass(p, std::move(mod), PassContext::current());
}

/// Gives a pass class the call operators `pass(mod)` and `pass(mod, ctx)` (= run_pass).
///
///     struct Inline : ctir::pass_interface<Inline> {
///       static constexpr PassInfo info() { return {"Inline", 1}; }
///       IRModule transform_module(IRModule mod, const PassContext& ctx) const;
///     };
///     mod = Inline{}(mod);
template <class Derived>
class pass_interface {
public:
  IRModule operator()(IRModule mod) const { return run_pass(self(), std::move(mod)); }
  template <pass_context Ctx>
  CTIR_DETAIL_ALWAYS_INLINE IRModule operator()(IRModule mod, const Ctx& ctx) const {
    return run_pass(self(), std::move(mod), ctx);
  }

private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/run-inl.hpp>
#endif
