// Every standard pass is linear in the size of its input: each pass on generated graph
// functions (a long chain, wide fan-out, a DAG whose bindings are each used twice, many small
// functions, deeply nested lets) and tensor functions (many statements), at 10k, 100k and
// 1M nodes, reported as time per node. A growth of time by more than 12 per 10 times the
// nodes is a bug.
//
//     build/.../ctir_bench_scale --benchmark_filter=fibonacci
//
// The sizes are 10k, 100k and 1M with CTIR_BENCH_SCALE=full in the environment; 1k and 10k
// otherwise (the test suite's smoke run).
#include <ctir/pass/context.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace ctir;

namespace {

using Generator = std::string (*)(std::int64_t);

std::string name(std::int64_t k) { return "%" + std::to_string(k); }

const char* const tensor2 = "Tensor[(2), float32]";

std::string graph_head(std::string_view fn, std::string_view params) {
  return "def @" + std::string(fn) + "(" + std::string(params) + ") -> " + tensor2 + " {\n";
}

/// `%k = exp(%k-1)`: a chain, each value used once.
std::string chain(std::int64_t n) {
  std::string text = graph_head("main", std::string("%x: ") + tensor2);
  std::string previous = "%x";
  for (std::int64_t k = 0; k < n; ++k) {
    text += "  " + name(k) + " = exp(" + previous + ");\n";
    previous = name(k);
  }
  return text + "  " + previous + "\n}\n";
}

/// `%k = add(%x, %x)` for every k, summed pairwise at the end: wide fan-out of %x.
std::string fan_out(std::int64_t n) {
  std::string text = graph_head("main", std::string("%x: ") + tensor2);
  const std::int64_t leaves = n / 2;
  for (std::int64_t k = 0; k < leaves; ++k) {
    text += "  " + name(k) + " = multiply(%x, " + std::to_string(k % 7 + 1) + "f);\n";
  }
  std::string sum = name(0);
  for (std::int64_t k = 1; k < leaves; ++k) {
    text += "  " + name(leaves + k) + " = add(" + sum + ", " + name(k) + ");\n";
    sum = name(leaves + k);
  }
  return text + "  " + sum + "\n}\n";
}

/// `%k = add(%k-1, %k-2)`: every value used twice, 2^n paths from the result.
std::string fibonacci(std::int64_t n) {
  std::string text = graph_head("main", std::string("%a: ") + tensor2 + ", %b: " + tensor2);
  std::string older = "%a";
  std::string newer = "%b";
  for (std::int64_t k = 0; k < n; ++k) {
    text += "  " + name(k) + " = add(" + newer + ", " + older + ");\n";
    older = newer;
    newer = name(k);
  }
  return text + "  " + newer + "\n}\n";
}

/// The name of function f of many_functions: @main calls @f1, which calls @f2, ...
std::string function_name(std::int64_t f) { return f == 0 ? "main" : "f" + std::to_string(f); }

/// n/10 functions of 10 bindings each, each calling the next, from @main.
std::string many_functions(std::int64_t n) {
  const std::int64_t count = n / 10;
  std::string text;
  for (std::int64_t f = 0; f < count; ++f) {
    text += graph_head(function_name(f), std::string("%x: ") + tensor2);
    std::string previous = "%x";
    for (std::int64_t k = 0; k < 9; ++k) {
      text += "  " + name(k) + " = negative(" + previous + ");\n";
      previous = name(k);
    }
    if (f + 1 < count) {
      text += "  @" + function_name(f + 1) + "(" + previous + ")\n}\n\n";
    } else {
      text += "  exp(" + previous + ")\n}\n\n";
    }
  }
  return text;
}

/// `let %vk = exp(%vk-1);` n deep: nested scopes.
std::string nested_lets(std::int64_t n) {
  std::string text = graph_head("main", std::string("%x: ") + tensor2);
  std::string previous = "%x";
  for (std::int64_t k = 0; k < n; ++k) {
    const std::string v = "%v" + std::to_string(k);
    text += "  let " + v + " = exp(" + previous + ");\n";
    previous = v;
  }
  return text + "  " + previous + "\n}\n";
}

/// A tensor function of n statements: stores to one buffer, in loops of ten.
std::string statements(std::int64_t n) {
  std::string text = "prim @main(%A: Tensor[(10), float32], %B: Tensor[(10), float32]) {\n";
  for (std::int64_t k = 0; k < n / 10; ++k) {
    text += "  for %i" + std::to_string(k) + " in range(0, 10) {\n";
    for (std::int64_t s = 0; s < 9; ++s) {
      text += "    %B[%i" + std::to_string(k) + "] = %A[%i" + std::to_string(k) + "] * " +
              std::to_string(s + 1) + "f + 0f;\n";
    }
    text += "  }\n";
  }
  return text + "}\n";
}

/// The module of a shape and size, parsed once per process.
const IRModule& input(const char* shape, Generator generate, std::int64_t n) {
  static std::map<std::pair<std::string, std::int64_t>, IRModule> cache;
  auto [it, fresh] = cache.try_emplace({shape, n});
  if (fresh) {
    it->second = parse_module(generate(n));
  }
  return it->second;
}

void run_pass(benchmark::State& state, const char* shape, Generator generate,
              const char* pass_name) {
  passes::register_standard_passes();
  const std::int64_t n = state.range(0);
  const IRModule& mod = input(shape, generate, n);
  const Pass pass = PassRegistry::global().create(pass_name);
  PassContext ctx{{.opt_level = 3}};
  const PassContextScope scope = ctx.enter();
  for (auto _ : state) {
    IRModule out = pass(mod, ctx);
    benchmark::DoNotOptimize(out);
  }
  // Seconds per node, printed with an SI prefix (n for nanoseconds).
  state.counters["per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void sizes(benchmark::internal::Benchmark* b) {
  const char* scale = std::getenv("CTIR_BENCH_SCALE");
  const bool full = scale != nullptr && std::string_view(scale) == "full";
  for (std::int64_t n : full ? std::vector<std::int64_t>{10'000, 100'000, 1'000'000}
                             : std::vector<std::int64_t>{1'000, 10'000}) {
    b->Arg(n);
  }
  b->Unit(benchmark::kMillisecond)->Iterations(1);
}

struct Shape {
  const char* name;
  Generator generate;
  std::vector<const char*> passes;
};

const std::vector<const char*> graph_passes = {
    "InferType",           "SimplifyExpr",  "FoldConstant",          "EliminateCommonSubexpr",
    "DeadCodeElimination", "ToANormalForm", "RemoveUnusedFunctions", "LegalizeOps",
    "DefaultPipeline"};
const std::vector<const char*> tensor_passes = {"Simplify", "RemoveNoOp", "UnrollLoop",
                                                "FlattenBuffer", "DefaultPipeline"};

[[maybe_unused]] const bool registered = [] {
  const std::vector<Shape> shapes = {{"chain", chain, graph_passes},
                                     {"fan_out", fan_out, graph_passes},
                                     {"fibonacci", fibonacci, graph_passes},
                                     {"many_functions", many_functions, graph_passes},
                                     {"nested_lets", nested_lets, graph_passes},
                                     {"statements", statements, tensor_passes}};
  for (const Shape& shape : shapes) {
    for (const char* pass : shape.passes) {
      const std::string label = std::string(shape.name) + "/" + pass;
      benchmark::RegisterBenchmark(label.c_str(), run_pass, shape.name, shape.generate, pass)
          ->Apply(sizes);
    }
  }
  return true;
}();

} // namespace
