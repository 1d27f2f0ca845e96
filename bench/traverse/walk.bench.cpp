// Benchmarks of walk: ctir's static and runtime walks against a hand-written switch visitor (the
// limit), a TVM-style virtual visitor and a std::function walker, on generated trees of ~16k and
// ~1M nodes.
//
// Two walks: counting Add nodes (a full walk for every implementation), and counting For
// loops, where ctir prunes at compile time every field that cannot hold a loop while the
// baselines walk everything (hand_pruned is the same walk pruned by hand). Items/s count
// the tree's nodes, so rates compare across implementations.
#include "baselines/function_walker.hpp"
#include "baselines/hand_written.hpp"
#include "baselines/virtual_visitor.hpp"
#include "support/tree_gen.hpp"

#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/walk.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace {

using namespace ctir;
namespace cb = ctir::bench;

/// The generated tree of about `nodes` nodes, built once per size.
const PrimFunc& tree(std::int64_t nodes) {
  static std::map<std::int64_t, PrimFunc> trees;
  PrimFunc& slot = trees[nodes];
  if (!slot.defined()) {
    slot = cb::make_tree(static_cast<std::size_t>(nodes));
  }
  return slot;
}

/// Runs `op(tree)` per iteration after checking it against the hand-written answer.
template <class Op>
void run_walk(benchmark::State& state, std::size_t expected, Op op) {
  const PrimFunc& func = tree(state.range(0));
  const std::size_t got = op(func);
  if (got != expected) {
    state.SkipWithError(
        ("wrong result: " + std::to_string(got) + " instead of " + std::to_string(expected))
            .c_str());
    return;
  }
  for (auto _ : state) {
    std::size_t result = op(func);
    benchmark::DoNotOptimize(result);
  }
  const auto nodes = static_cast<std::int64_t>(cb::count_nodes(func.get()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * nodes);
  state.counters["nodes"] = static_cast<double>(nodes);
}

std::size_t ctir_count_add(const PrimFunc& func) {
  std::size_t count = 0;
  ctir::walk(func, [&count](const Add&) { ++count; });
  return count;
}

std::size_t ctir_count_for(const PrimFunc& func) {
  std::size_t count = 0;
  ctir::walk(func, [&count](const For&) { ++count; });
  return count;
}

/// The runtime layer: callbacks registered by type key, built once (as a pass would), and
/// every node walked through its type's field table.
class RuntimeCounter {
public:
  explicit RuntimeCounter(std::string_view type_key) {
    callbacks_.on(type_key, [this](const ObjectRef&) { ++count_; });
  }
  std::size_t operator()(const PrimFunc& func) {
    count_ = 0;
    runtime::walk(func, callbacks_);
    return count_;
  }

private:
  runtime::Callbacks callbacks_;
  std::size_t count_ = 0;
};

std::size_t expected_add(benchmark::State& state) {
  return cb::hand::count_add(tree(state.range(0)));
}
std::size_t expected_for(benchmark::State& state) {
  return cb::hand::count_for(tree(state.range(0)));
}

void walk_add_hand_written(benchmark::State& state) {
  run_walk(state, expected_add(state), [](const PrimFunc& f) { return cb::hand::count_add(f); });
}
void walk_add_ctir_static(benchmark::State& state) {
  run_walk(state, expected_add(state), ctir_count_add);
}
void walk_add_ctir_runtime(benchmark::State& state) {
  RuntimeCounter counter("ir.Add");
  run_walk(state, expected_add(state), [&counter](const PrimFunc& f) { return counter(f); });
}
void walk_add_virtual_visitor(benchmark::State& state) {
  run_walk(state, expected_add(state),
           [](const PrimFunc& f) { return cb::tvm_style::count_add(f); });
}
void walk_add_std_function(benchmark::State& state) {
  run_walk(state, expected_add(state),
           [](const PrimFunc& f) { return cb::function_walker::count_add(f); });
}

void walk_for_hand_written(benchmark::State& state) {
  run_walk(state, expected_for(state), [](const PrimFunc& f) { return cb::hand::count_for(f); });
}
void walk_for_hand_pruned(benchmark::State& state) {
  run_walk(state, expected_for(state),
           [](const PrimFunc& f) { return cb::hand::count_for_pruned(f); });
}
void walk_for_ctir_static(benchmark::State& state) {
  run_walk(state, expected_for(state), ctir_count_for);
}
void walk_for_ctir_runtime(benchmark::State& state) {
  RuntimeCounter counter("ir.For");
  run_walk(state, expected_for(state), [&counter](const PrimFunc& f) { return counter(f); });
}
void walk_for_virtual_visitor(benchmark::State& state) {
  run_walk(state, expected_for(state),
           [](const PrimFunc& f) { return cb::tvm_style::count_for(f); });
}
void walk_for_std_function(benchmark::State& state) {
  run_walk(state, expected_for(state),
           [](const PrimFunc& f) { return cb::function_walker::count_for(f); });
}

constexpr auto small = static_cast<std::int64_t>(cb::small_tree_nodes);
constexpr auto large = static_cast<std::int64_t>(cb::large_tree_nodes);

} // namespace

BENCHMARK(walk_add_hand_written)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_add_ctir_static)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_add_ctir_runtime)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_add_virtual_visitor)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_add_std_function)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_for_hand_written)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_for_hand_pruned)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_for_ctir_static)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_for_ctir_runtime)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_for_virtual_visitor)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(walk_for_std_function)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
