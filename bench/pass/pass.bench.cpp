// Pass infrastructure overhead in time: a static sequential of 10 passes against the 10
// direct calls, and the runtime pipeline (Pass, type-erased) with and without instruments.
// The same passes in instructions: bash bench/pass/callgrind.sh.
#include "support/ten_passes.hpp"

#include <ctir/pass/instruments/timing.hpp>
#include <ctir/pass/pass.hpp>
#include <ctir/runtime/pass.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::bench;

namespace {

/// A static instrument whose hooks cost nothing.
struct NoOpInstrument {
  void run_before_pass(const IRModule&, const PassInfo&) const {}
  void run_after_pass(const IRModule&, const PassInfo&) const {}
};

template <template <int> class P>
std::vector<Pass> ten_erased() {
  return {P<0>{}, P<1>{}, P<2>{}, P<3>{}, P<4>{}, P<5>{}, P<6>{}, P<7>{}, P<8>{}, P<9>{}};
}

template <template <int> class P>
[[gnu::noinline]] IRModule run_static_current(IRModule mod) {
  return ten<P>(std::move(mod));
}

[[gnu::noinline]] IRModule run_runtime(const Pass& pipeline, IRModule mod, const PassContext& ctx) {
  return pipeline(std::move(mod), ctx);
}

template <template <int> class P>
void direct(benchmark::State& state) {
  IRModule mod = make_module(module_size);
  const PassContext ctx;
  for (auto _ : state) {
    mod = run_direct<P>(std::move(mod), ctx);
  }
  state.counters["per_pass_ns"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 10,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <template <int> class P>
void static_sequential(benchmark::State& state) {
  IRModule mod = make_module(module_size);
  const PassContext ctx;
  for (auto _ : state) {
    mod = run_static<P>(std::move(mod), ctx);
  }
  state.counters["per_pass_ns"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 10,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <template <int> class P>
void static_sequential_current(benchmark::State& state) {
  IRModule mod = make_module(module_size);
  for (auto _ : state) {
    mod = run_static_current<P>(std::move(mod));
  }
}

template <template <int> class P>
void static_sequential_static_instrument(benchmark::State& state) {
  IRModule mod = make_module(module_size);
  const InstrumentedPassContext ctx{{}, NoOpInstrument{}};
  for (auto _ : state) {
    mod = run_static<P>(std::move(mod), ctx);
  }
}

template <template <int> class P>
void runtime_pipeline(benchmark::State& state) {
  IRModule mod = make_module(module_size);
  const Pass pipeline = sequential(ten_erased<P>());
  const PassContext ctx;
  for (auto _ : state) {
    mod = run_runtime(pipeline, std::move(mod), ctx);
  }
  state.counters["per_pass_ns"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 10,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <template <int> class P>
void runtime_pipeline_timing(benchmark::State& state) {
  IRModule mod = make_module(module_size);
  const Pass pipeline = sequential(ten_erased<P>());
  TimingInstrument timing;
  PassContext ctx{{.instruments = {timing}}};
  auto scope = ctx.enter();
  for (auto _ : state) {
    mod = run_runtime(pipeline, std::move(mod), ctx);
    timing.clear(); // keep the record tree from growing across iterations
  }
  state.counters["per_pass_ns"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 10,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(direct<Work>)->Name("work/direct_calls");
BENCHMARK(static_sequential<Work>)->Name("work/static_sequential");
BENCHMARK(static_sequential_current<Work>)->Name("work/static_sequential_current_context");
BENCHMARK(static_sequential_static_instrument<Work>)
    ->Name("work/static_sequential_static_instrument");
BENCHMARK(runtime_pipeline<Work>)->Name("work/runtime_pipeline");
BENCHMARK(runtime_pipeline_timing<Work>)->Name("work/runtime_pipeline_timing");

BENCHMARK(direct<Nothing>)->Name("nothing/direct_calls");
BENCHMARK(static_sequential<Nothing>)->Name("nothing/static_sequential");
BENCHMARK(static_sequential_current<Nothing>)->Name("nothing/static_sequential_current_context");
BENCHMARK(static_sequential_static_instrument<Nothing>)
    ->Name("nothing/static_sequential_static_instrument");
BENCHMARK(runtime_pipeline<Nothing>)->Name("nothing/runtime_pipeline");
BENCHMARK(runtime_pipeline_timing<Nothing>)->Name("nothing/runtime_pipeline_timing");

} // namespace
