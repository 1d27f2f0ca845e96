// pass_callgrind_driver: runs ten passes over a module many times, between callgrind's
// instrumentation markers, either as ten direct calls or as a static sequential, and prints
// the allocations the runs made.
//
//     pass_callgrind_driver <operation>     one of --list
//
// bench/pass/callgrind.sh runs it under `valgrind --tool=callgrind --instr-atstart=no` for
// g++ and clang++ and prints the instructions per run of the ten passes and the ratio of
// the sequential to the direct calls.
#include "support/ten_passes.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

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
using namespace ctir::bench;

constexpr int runs = 1000;

using Runner = IRModule (*)(IRModule, const PassContext&);

struct Operation {
  const char* name;
  Runner run;
};

constexpr Operation operations[] = {
    {"nothing.direct", run_direct<Nothing>},
    {"nothing.sequential", run_static<Nothing, PassContext>},
    {"work.direct", run_direct<Work>},
    {"work.sequential", run_static<Work, PassContext>},
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
