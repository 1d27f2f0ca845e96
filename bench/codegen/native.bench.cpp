// The native backend against the interpreter and against the same loops written by hand in
// C, compiled with the same compiler and flags: matmul 256x256x256 (float32) and an
// elementwise chain on 1M float32 elements (the interpreter's matmul is 64x64x64).
#include <ctir/codegen/module.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/random_inputs.hpp>
#include <ctir/text/parser.hpp>

#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using ctir::eval::Value;

constexpr const char* kernels = R"(
prim @matmul(%A: Tensor[(256, 256), float32], %B: Tensor[(256, 256), float32], %C: Tensor[(256, 256), float32]) {
  for %i in range(0, 256) {
    for %j in range(0, 256) {
      %C[%i, %j] = 0f;
      for %k in range(0, 256) {
        %C[%i, %j] = %C[%i, %j] + %A[%i, %k] * %B[%k, %j];
      }
    }
  }
}
prim @matmul64(%A: Tensor[(64, 64), float32], %B: Tensor[(64, 64), float32], %C: Tensor[(64, 64), float32]) {
  for %i in range(0, 64) {
    for %j in range(0, 64) {
      %C[%i, %j] = 0f;
      for %k in range(0, 64) {
        %C[%i, %j] = %C[%i, %j] + %A[%i, %k] * %B[%k, %j];
      }
    }
  }
}
prim @chain(%A: Tensor[(1048576), float32], %B: Tensor[(1048576), float32]) {
  for %i in range(0, 1048576) {
    %B[%i] = (%A[%i] * 2f + 1f) * %A[%i] - 3f;
  }
}
)";

/// The same loops, as a C programmer would write them.
constexpr const char* hand_written = R"(
void matmul(const float* A, const float* B, float* C) {
  for (long i = 0; i < 256; ++i)
    for (long j = 0; j < 256; ++j) {
      C[i * 256 + j] = 0.0f;
      for (long k = 0; k < 256; ++k)
        C[i * 256 + j] = C[i * 256 + j] + A[i * 256 + k] * B[k * 256 + j];
    }
}
void chain(const float* A, float* B) {
  for (long i = 0; i < 1048576; ++i)
    B[i] = (A[i] * 2.0f + 1.0f) * A[i] - 3.0f;
}
)";

const ctir::IRModule& module() {
  static const ctir::IRModule mod = ctir::parse_module(kernels);
  return mod;
}

const ctir::codegen::NativeModule& native(bool checked) {
  static const auto build = [](bool bounds) {
    ctir::codegen::BuildOptions options;
    options.codegen.bounds_checks = bounds;
    return ctir::build(module(), options);
  };
  static const ctir::codegen::NativeModule with_checks = build(true);
  static const ctir::codegen::NativeModule without_checks = build(false);
  return checked ? with_checks : without_checks;
}

/// The hand-written C compiled as the backend compiles (-O2 -shared -fPIC
/// -ffp-contract=off) and loaded.
void* hand_written_library() {
  static void* handle = [] {
    const auto dir = std::filesystem::temp_directory_path() / "ctir-bench-hand-written";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "hand.c") << hand_written;
    const std::string command = ctir::codegen::default_c_compiler() +
                                " -O2 -shared -fPIC -ffp-contract=off -o " +
                                (dir / "hand.so").string() + " " + (dir / "hand.c").string();
    if (std::system(command.c_str()) != 0) {
      throw std::runtime_error("cannot compile the hand-written C");
    }
    void* h = dlopen((dir / "hand.so").c_str(), RTLD_NOW);
    std::filesystem::remove_all(dir);
    if (h == nullptr) {
      throw std::runtime_error("cannot load the hand-written C");
    }
    return h;
  }();
  return handle;
}

void run_native(benchmark::State& state, const char* name, bool checked) {
  const ctir::codegen::NativeFunction function = native(checked).get_function(name);
  std::vector<Value> args = ctir::eval::random_inputs(module(), name, 1);
  for (auto _ : state) {
    // The outputs become the next inputs: each tensor has one owner, so nothing is copied.
    args = function(std::move(args));
    benchmark::DoNotOptimize(args.data());
  }
}

void run_interpreter(benchmark::State& state, const char* name) {
  ctir::eval::Interpreter interpreter(module());
  std::vector<Value> args = ctir::eval::random_inputs(module(), name, 1);
  for (auto _ : state) {
    args = interpreter.call(name, std::move(args));
    benchmark::DoNotOptimize(args.data());
  }
}

void matmul_native_checked(benchmark::State& state) { run_native(state, "matmul", true); }
void matmul_native_unchecked(benchmark::State& state) { run_native(state, "matmul", false); }
// The interpreter takes seconds for 256^3 (too long for the benchmarks' smoke test): it
// runs 64^3, 1/64 of the multiply-adds, next to the native code on the same size.
void matmul64_interpreter(benchmark::State& state) { run_interpreter(state, "matmul64"); }
void matmul64_native_checked(benchmark::State& state) { run_native(state, "matmul64", true); }
void matmul_hand_written(benchmark::State& state) {
  using Fn = void (*)(const float*, const float*, float*);
  const auto fn = reinterpret_cast<Fn>(dlsym(hand_written_library(), "matmul"));
  std::vector<float> a(256 * 256, 0.5f), b(256 * 256, 0.25f), c(256 * 256);
  for (auto _ : state) {
    fn(a.data(), b.data(), c.data());
    benchmark::DoNotOptimize(c.data());
  }
}

void chain_native_checked(benchmark::State& state) { run_native(state, "chain", true); }
void chain_native_unchecked(benchmark::State& state) { run_native(state, "chain", false); }
void chain_interpreter(benchmark::State& state) { run_interpreter(state, "chain"); }
void chain_hand_written(benchmark::State& state) {
  using Fn = void (*)(const float*, float*);
  const auto fn = reinterpret_cast<Fn>(dlsym(hand_written_library(), "chain"));
  std::vector<float> a(1048576, 0.5f), b(1048576);
  for (auto _ : state) {
    fn(a.data(), b.data());
    benchmark::DoNotOptimize(b.data());
  }
}

BENCHMARK(matmul_hand_written)->Unit(benchmark::kMillisecond);
BENCHMARK(matmul_native_unchecked)->Unit(benchmark::kMillisecond);
BENCHMARK(matmul_native_checked)->Unit(benchmark::kMillisecond);
BENCHMARK(matmul64_native_checked)->Unit(benchmark::kMillisecond);
BENCHMARK(matmul64_interpreter)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(chain_hand_written)->Unit(benchmark::kMillisecond);
BENCHMARK(chain_native_unchecked)->Unit(benchmark::kMillisecond);
BENCHMARK(chain_native_checked)->Unit(benchmark::kMillisecond);
BENCHMARK(chain_interpreter)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
