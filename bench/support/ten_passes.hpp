// The passes of the pass-infrastructure benchmarks (bench/pass): ten passes run as ten
// direct calls or as a static sequential, over a module of functions.
#pragma once

#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/pass/pass.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace ctir::bench {

/// Keeps a value alive for the optimiser without generating code.
template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

/// A cheap analysis: looks at every function of the module.
template <int I>
struct Work {
  static constexpr PassInfo info() { return {.name = "Work", .opt_level = 0}; }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < mod.size(); ++i) {
      count += mod.function_at(i)->attrs.size() + static_cast<std::size_t>(I);
    }
    keep(count);
    return mod;
  }
};

/// A pass that does nothing: all that is measured is the infrastructure around it.
template <int I>
struct Nothing {
  static constexpr PassInfo info() { return {.name = "Nothing", .opt_level = 0}; }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    keep(mod.node().get());
    return mod;
  }
};

/// The ten passes P<0> .. P<9> as a static sequential.
template <template <int> class P>
constexpr auto ten = sequential(P<0>{}, P<1>{}, P<2>{}, P<3>{}, P<4>{}, P<5>{}, P<6>{}, P<7>{},
                                P<8>{}, P<9>{});

/// The ten passes as the direct calls a user would write.
template <template <int> class P>
[[gnu::noinline]] IRModule run_direct(IRModule mod, const PassContext& ctx) {
  mod = P<0>{}.transform_module(std::move(mod), ctx);
  mod = P<1>{}.transform_module(std::move(mod), ctx);
  mod = P<2>{}.transform_module(std::move(mod), ctx);
  mod = P<3>{}.transform_module(std::move(mod), ctx);
  mod = P<4>{}.transform_module(std::move(mod), ctx);
  mod = P<5>{}.transform_module(std::move(mod), ctx);
  mod = P<6>{}.transform_module(std::move(mod), ctx);
  mod = P<7>{}.transform_module(std::move(mod), ctx);
  mod = P<8>{}.transform_module(std::move(mod), ctx);
  mod = P<9>{}.transform_module(std::move(mod), ctx);
  return mod;
}

/// The ten passes as a static sequential, under the given context.
template <template <int> class P, class Ctx>
[[gnu::noinline]] IRModule run_static(IRModule mod, const Ctx& ctx) {
  return ten<P>(std::move(mod), ctx);
}

/// A module of `functions` small graph-level functions.
inline IRModule make_module(int functions) {
  IRModule mod;
  for (int i = 0; i < functions; ++i) {
    const Var x = Var::make("x", tensor_type({2}, DataType::float32()));
    mod.add("f" + std::to_string(i),
            Function::make({x}, x, {}, {{"index", std::int64_t{i}}}, "f" + std::to_string(i)));
  }
  return mod;
}

/// The size of the benchmarks' module.
inline constexpr int module_size = 32;

} // namespace ctir::bench
