// pass_callgrind_driver: runs ten passes over a module many times, between callgrind's
// instrumentation markers, either as ten direct calls or as a static sequential, and prints
// the allocations the runs made.
//
//     pass_callgrind_driver <operation>     one of --list
//
// bench/pass/callgrind.sh runs it under `valgrind --tool=callgrind --instr-atstart=no` for
// g++ and clang++ and prints the instructions per run of the ten passes and the ratio of
// the sequential to the direct calls.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/pass/pass.hpp>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace {
std::size_t allocations = 0;
bool counting_allocations = false;
} // namespace

void* operator new(std::size_t size) {
  if (counting_allocations) {
    ++allocations;
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) {
    return p;
  }
  throw std::bad_alloc();
}
// Not inlined, so that GCC does not see malloc's memory freed behind operator delete and
// warn about a mismatch.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace ctir;

/// Keeps a value alive for the optimiser without generating code.
template <class T>
void keep(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

/// A pass that does nothing: all that is measured is the infrastructure around it.
template <int I>
struct Nothing {
  static constexpr PassInfo info() { return {.name = "Nothing", .opt_level = 0}; }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    keep(mod.node().get());
    return mod;
  }
};

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

template <template <int> class P>
constexpr auto ten = sequential(P<0>{}, P<1>{}, P<2>{}, P<3>{}, P<4>{}, P<5>{}, P<6>{}, P<7>{},
                                P<8>{}, P<9>{});

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

template <template <int> class P>
[[gnu::noinline]] IRModule run_sequential(IRModule mod, const PassContext& ctx) {
  return ten<P>(std::move(mod), ctx);
}

IRModule make_module(int functions) {
  IRModule mod;
  for (int i = 0; i < functions; ++i) {
    const Var x = Var::make("x", tensor_type({2}, DataType::float32()));
    mod.add("f" + std::to_string(i),
            Function::make({x}, x, {}, {{"index", std::int64_t{i}}}, "f" + std::to_string(i)));
  }
  return mod;
}

constexpr int runs = 1000;
constexpr int module_size = 32;

using Runner = IRModule (*)(IRModule, const PassContext&);

struct Operation {
  const char* name;
  Runner run;
};

constexpr Operation operations[] = {
    {"nothing.direct", run_direct<Nothing>},
    {"nothing.sequential", run_sequential<Nothing>},
    {"work.direct", run_direct<Work>},
    {"work.sequential", run_sequential<Work>},
};

} // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const Operation& op : operations) {
      std::printf("%s\n", op.name);
    }
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <operation> | --list\n", argv[0]);
    return 2;
  }
  for (const Operation& op : operations) {
    if (std::strcmp(argv[1], op.name) != 0) {
      continue;
    }
    IRModule mod = make_module(module_size);
    const void* const root = mod.node().get();
    const PassContext ctx;
    mod = op.run(std::move(mod), ctx); // warm up: first-use statics
    counting_allocations = true;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < runs; ++i) {
      mod = op.run(std::move(mod), ctx);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    counting_allocations = false;
    std::printf("runs: %d\nallocations: %zu\nsame_module: %s\n", runs, allocations,
                mod.node().get() == root ? "yes" : "no");
    return 0;
  }
  std::fprintf(stderr, "unknown operation '%s' (see --list)\n", argv[1]);
  return 2;
}
