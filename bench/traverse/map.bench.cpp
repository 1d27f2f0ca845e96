// Benchmarks of map: ctir's static and runtime maps against a hand-written rebuilding mutator (the
// limit) and a TVM-style virtual mutator, on generated trees of ~16k and ~1M nodes.
//
// Two maps: one that changes nothing (it must return the very same root and allocate
// nothing), and one that rewrites every `x + 0` to `x`, rebuilding the paths above. The
// result of the rewrite is freed outside the timed region; the counter "allocs" is the
// number of operator new calls per map.
#include "baselines/hand_equal_hash.hpp"
#include "baselines/hand_written.hpp"
#include "baselines/virtual_visitor.hpp"
#include "support/tree_gen.hpp"

#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/traverse/map.hpp>

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>

namespace {
std::atomic<std::size_t> allocations{0};

void* allocate(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) {
    return p;
  }
  throw std::bad_alloc();
}
} // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace ctir;
namespace cb = ctir::bench;

const PrimFunc& tree(std::int64_t nodes) {
  static std::map<std::int64_t, PrimFunc> trees;
  PrimFunc& slot = trees[nodes];
  if (!slot.defined()) {
    slot = cb::make_tree(static_cast<std::size_t>(nodes));
  }
  return slot;
}

PrimFunc ctir_no_change(const PrimFunc& func) {
  return ctir::map(func, [](const Add&) { return unchanged; });
}

PrimFunc ctir_fold_add_zero(const PrimFunc& func) {
  return ctir::map(func, [](const Mapped<Add>& add) -> MapResult<PrimExpr> {
    if (cb::hand::is_zero(*add[&AddNode::b])) {
      return add[&AddNode::a];
    }
    return unchanged;
  });
}

/// The runtime layer: callbacks registered by type key, built once (as a pass would).
class RuntimeMap {
public:
  explicit RuntimeMap(bool fold) {
    if (fold) {
      callbacks_.on("ir.Add", [](const runtime::Mapped& sum) -> MapResult<Object> {
        if (cb::hand::is_zero(static_cast<const PrimExprNode&>(*sum.get("b")))) {
          return sum.get("a");
        }
        return unchanged;
      });
    } else {
      callbacks_.on("ir.Add", [](const ObjectRef&) { return unchanged; });
    }
  }
  PrimFunc operator()(const PrimFunc& func) const {
    return downcast<PrimFunc>(runtime::map(func, callbacks_));
  }

private:
  runtime::Callbacks callbacks_;
};

/// A map that must change nothing: checks it returns the same root, then times it.
template <class Op>
void run_no_change(benchmark::State& state, Op op) {
  const PrimFunc& func = tree(state.range(0));
  const std::size_t before = allocations.load();
  if (!op(func).same_as(func)) {
    state.SkipWithError("a map that changes nothing did not return the same root");
    return;
  }
  const std::size_t allocs = allocations.load() - before;
  for (auto _ : state) {
    PrimFunc result = op(func);
    benchmark::DoNotOptimize(result.get());
  }
  const auto nodes = static_cast<std::int64_t>(cb::count_nodes(func.get()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * nodes);
  state.counters["allocs"] = static_cast<double>(allocs);
}

/// The x + 0 rewrite: checks the result against the hand-written one, then times it (the
/// result is freed with the clock paused).
template <class Op>
void run_fold(benchmark::State& state, Op op) {
  const PrimFunc& func = tree(state.range(0));
  const std::size_t before = allocations.load();
  PrimFunc first = op(func);
  const std::size_t allocs = allocations.load() - before;
  const PrimFunc expected = cb::hand::map_fold_add_zero(func);
  if (!cb::hand::structural_equal(first, expected)) {
    state.SkipWithError("the x + 0 rewrite gave a different tree than the hand-written one");
    return;
  }
  first = PrimFunc();
  for (auto _ : state) {
    PrimFunc result = op(func);
    benchmark::DoNotOptimize(result.get());
    state.PauseTiming();
    result = PrimFunc();
    state.ResumeTiming();
  }
  const auto nodes = static_cast<std::int64_t>(cb::count_nodes(func.get()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * nodes);
  state.counters["allocs"] = static_cast<double>(allocs);
}

void map_nochange_hand_written(benchmark::State& state) {
  run_no_change(state, [](const PrimFunc& f) { return cb::hand::map_no_change(f); });
}
void map_nochange_ctir_static(benchmark::State& state) { run_no_change(state, ctir_no_change); }
void map_nochange_ctir_runtime(benchmark::State& state) {
  const RuntimeMap mapper(false);
  run_no_change(state, [&mapper](const PrimFunc& f) { return mapper(f); });
}
void map_nochange_virtual_visitor(benchmark::State& state) {
  run_no_change(state, [](const PrimFunc& f) { return cb::tvm_style::map_no_change(f); });
}

void map_fold_hand_written(benchmark::State& state) {
  run_fold(state, [](const PrimFunc& f) { return cb::hand::map_fold_add_zero(f); });
}
void map_fold_ctir_static(benchmark::State& state) { run_fold(state, ctir_fold_add_zero); }
void map_fold_ctir_runtime(benchmark::State& state) {
  const RuntimeMap mapper(true);
  run_fold(state, [&mapper](const PrimFunc& f) { return mapper(f); });
}
void map_fold_virtual_visitor(benchmark::State& state) {
  run_fold(state, [](const PrimFunc& f) { return cb::tvm_style::map_fold_add_zero(f); });
}

constexpr auto small = static_cast<std::int64_t>(cb::small_tree_nodes);
constexpr auto large = static_cast<std::int64_t>(cb::large_tree_nodes);

} // namespace

BENCHMARK(map_nochange_hand_written)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_nochange_ctir_static)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_nochange_ctir_runtime)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_nochange_virtual_visitor)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_fold_hand_written)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_fold_ctir_static)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_fold_ctir_runtime)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
BENCHMARK(map_fold_virtual_visitor)->Arg(small)->Arg(large)->Unit(benchmark::kMicrosecond);
