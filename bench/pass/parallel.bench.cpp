// A function pass over the 1,000 functions of a module, serial against parallel: the
// standard graph-level EliminateCommonSubexpr and FoldConstant, and the tensor-level
// Simplify, with `pass.num_threads` = 1, 2 and 0 (the hardware's concurrency). Wall-clock
// time (the work is on several threads); the output is the same module in every row.
//
//     build/.../ctir_bench_parallel --benchmark_filter=EliminateCommonSubexpr
#include <ctir/pass/context.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/passes/fold_constant.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/text/parser.hpp>

#include <benchmark/benchmark.h>

#include <string>
#include <utility>

using namespace ctir;

namespace {

constexpr int function_count = 1000;
/// Steps per function: each adds two exp calls of one value (one common subexpression) and
/// a sum of constants.
constexpr int steps = 12;

/// 1,000 graph-level functions, typed (InferType ran), and 1,000 tensor-level ones.
const IRModule& module_of_functions() {
  static const IRModule mod = [] {
    std::string text;
    for (int f = 0; f < function_count; ++f) {
      const std::string n = std::to_string(f);
      text += "def @g" + n + "(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {\n";
      text += "  %v0 = add(%x, " + n + "f);\n";
      for (int s = 1; s <= steps; ++s) {
        const std::string prev = "%v" + std::to_string(s - 1);
        const std::string k = std::to_string(s);
        text += "  %c" + k + " = add(const([1f, 2f, 3f, 4f]), " + k + "f);\n";
        text +=
            "  %v" + k + " = add(multiply(exp(" + prev + "), exp(" + prev + ")), %c" + k + ");\n";
      }
      text += "  %v" + std::to_string(steps) + "\n}\n";
      text += "prim @p" + n + "(%A: Tensor[(64), int32]) {\n";
      text += "  for %i in range(0, 64) {\n";
      text += "    %A[%i] = (%i * 1 + 0) * (2 + 3) + " + n + " * (4 - 4) + (%i - %i);\n";
      text += "  }\n}\n";
    }
    return passes::InferType{}(parse_module(text, "parallel_bench"));
  }();
  return mod;
}

template <class P>
void run(benchmark::State& state) {
  const IRModule& input = module_of_functions();
  const PassContext ctx{{.config = {{"pass.num_threads", static_cast<int>(state.range(0))}}}};
  const P pass{};
  for (auto _ : state) {
    IRModule out = pass(input, ctx);
    benchmark::DoNotOptimize(out.node().get());
  }
  state.counters["functions_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * function_count, benchmark::Counter::kIsRate);
}

} // namespace

// Arg: pass.num_threads (1: serial; 0: the hardware's concurrency).
BENCHMARK(run<passes::EliminateCommonSubexpr>)
    ->Name("EliminateCommonSubexpr/1000_functions/threads")
    ->Arg(1)
    ->Arg(2)
    ->Arg(0)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(run<passes::FoldConstant>)
    ->Name("FoldConstant/1000_functions/threads")
    ->Arg(1)
    ->Arg(2)
    ->Arg(0)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(run<passes::Simplify>)
    ->Name("Simplify/1000_functions/threads")
    ->Arg(1)
    ->Arg(2)
    ->Arg(0)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
