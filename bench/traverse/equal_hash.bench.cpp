// Benchmarks of structural equality and hashing: ctir's static and runtime layers against a
// hand-written comparator and hasher (the limit) and TVM-style virtual functors, on generated
// trees of ~16k and ~1M nodes.
//
// Equality compares a tree with an alpha-renamed copy of itself (same structure, every
// variable fresh, no node shared), so every node is compared and every variable paired.
#include "baselines/hand_equal_hash.hpp"
#include "baselines/virtual_visitor.hpp"
#include "support/tree_gen.hpp"

#include <ctir/runtime/structural_equal.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>

namespace {

using namespace ctir;
namespace cb = ctir::bench;

/// A generated tree and its alpha-renamed copy, built once per size.
const std::pair<PrimFunc, PrimFunc>& trees(std::int64_t nodes) {
  static std::map<std::int64_t, std::pair<PrimFunc, PrimFunc>> cache;
  auto& slot = cache[nodes];
  if (!slot.first.defined()) {
    slot.first = cb::make_tree(static_cast<std::size_t>(nodes));
    slot.second = cb::alpha_renamed(slot.first);
  }
  return slot;
}

void set_rate(benchmark::State& state, const PrimFunc& func) {
  const auto nodes = static_cast<std::int64_t>(cb::count_nodes(func.get()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * nodes);
}

template <class Equal>
void run_equal(benchmark::State& state, Equal equal) {
  const auto& [a, b] = trees(state.range(0));
  if (!equal(a, b)) {
    state.SkipWithError("alpha-renamed copies compared unequal");
    return;
  }
  for (auto _ : state) {
    bool result = equal(a, b);
    benchmark::DoNotOptimize(result);
  }
  set_rate(state, a);
}

template <class Hash>
void run_hash(benchmark::State& state, Hash hash) {
  const auto& [a, b] = trees(state.range(0));
  if (hash(a) != hash(b)) {
    state.SkipWithError("alpha-renamed copies hashed differently");
    return;
  }
  for (auto _ : state) {
    std::uint64_t result = hash(a);
    benchmark::DoNotOptimize(result);
  }
  set_rate(state, a);
}

void equal_hand_written(benchmark::State& state) {
  run_equal(state,
            [](const PrimFunc& a, const PrimFunc& b) { return cb::hand::structural_equal(a, b); });
}
void equal_ctir_static(benchmark::State& state) {
  run_equal(state, [](const PrimFunc& a, const PrimFunc& b) { return structural_equal(a, b); });
}
void equal_ctir_runtime(benchmark::State& state) {
  run_equal(state, [](const PrimFunc& a, const PrimFunc& b) {
    return ctir::runtime::structural_equal(a, b);
  });
}
void equal_virtual_visitor(benchmark::State& state) {
  run_equal(state, [](const PrimFunc& a, const PrimFunc& b) {
    return cb::tvm_style::structural_equal(a, b);
  });
}

void hash_hand_written(benchmark::State& state) {
  run_hash(state, [](const PrimFunc& f) { return cb::hand::structural_hash(f); });
}
void hash_ctir_static(benchmark::State& state) {
  run_hash(state, [](const PrimFunc& f) { return structural_hash(f); });
}
void hash_ctir_runtime(benchmark::State& state) {
  run_hash(state, [](const PrimFunc& f) { return ctir::runtime::structural_hash(f); });
}
void hash_virtual_visitor(benchmark::State& state) {
  run_hash(state, [](const PrimFunc& f) { return cb::tvm_style::structural_hash(f); });
}

constexpr auto small = static_cast<std::int64_t>(cb::small_tree_nodes);
constexpr auto large = static_cast<std::int64_t>(cb::large_tree_nodes);

} // namespace

BENCHMARK(equal_hand_written)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(equal_ctir_static)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(equal_ctir_runtime)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(equal_virtual_visitor)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(hash_hand_written)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(hash_ctir_static)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(hash_ctir_runtime)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(hash_virtual_visitor)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
