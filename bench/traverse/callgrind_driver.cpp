// callgrind_driver: builds a generated tree, then runs one traversal once between callgrind's
// instrumentation markers and prints its result and the allocations it made.
//
//     callgrind_driver <operation> <size>     size: 16k, 1m or a node count
//     callgrind_driver --list                 the operations this build knows
//
// Run it under `valgrind --tool=callgrind --instr-atstart=no` to count the instructions of
// the operation alone (bench/callgrind.sh does, for g++ and clang++). Without valgrind the
// markers do nothing and the program still checks and prints the results.
#include "baselines/function_walker.hpp"
#include "baselines/hand_equal_hash.hpp"
#include "baselines/hand_written.hpp"
#include "baselines/virtual_visitor.hpp"
#include "support/tree_gen.hpp"

#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>
#include <ctir/traverse/walk.hpp>

#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/runtime/walk.hpp>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CTIR_BENCH_HAVE_CALLGRIND 1
#else
#define CTIR_BENCH_HAVE_CALLGRIND 0
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

// ---------------------------------------------------------------------------
// Counting allocations: every operator new while `counting_allocations` is set.

namespace {
std::size_t allocations = 0;
bool counting_allocations = false;

void* allocate(std::size_t size) {
  if (counting_allocations) {
    ++allocations;
  }
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

// The markers are macros with C casts; keep the house warnings off them only.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
[[gnu::noinline]] void start_instrumentation() {
#if CTIR_BENCH_HAVE_CALLGRIND
  CALLGRIND_ZERO_STATS;
  CALLGRIND_START_INSTRUMENTATION;
#endif
}
[[gnu::noinline]] void stop_instrumentation() {
#if CTIR_BENCH_HAVE_CALLGRIND
  CALLGRIND_STOP_INSTRUMENTATION;
#endif
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/// What an operation leaves behind: a number to print and, for maps, the new tree (freed
/// only after the instrumented region).
struct Outcome {
  std::uint64_t value = 0;
  PrimFunc tree;
};

struct Trees {
  PrimFunc func;
  PrimFunc renamed; ///< an alpha-renamed copy, for equality
};

/// One measurable operation: `prepare` runs outside the measured region (it may build
/// callbacks ahead, as a pass would once) and returns the operation itself.
struct Operation {
  std::string_view name;
  bool needs_copy;
  std::function<std::function<Outcome()>(const Trees&)> prepare;
};

bool is_zero(const PrimExpr& e) { return cb::hand::is_zero(*e); }

/// Callbacks of the runtime layer that count the nodes of one type into `*count`.
runtime::Callbacks counting(std::string_view type_key, std::uint64_t* count) {
  runtime::Callbacks callbacks;
  callbacks.on(type_key, [count](const ObjectRef&) { ++*count; });
  return callbacks;
}

std::vector<Operation> operations() {
  std::vector<Operation> ops;
  // An operation that needs nothing prepared.
  auto add = [&](std::string_view name, auto fn, bool needs_copy = false) {
    ops.push_back(Operation{name, needs_copy, [fn](const Trees& t) {
                              return std::function<Outcome()>([fn, &t] { return fn(t); });
                            }});
  };
  auto add_prepared = [&](std::string_view name, auto prepare) {
    ops.push_back(Operation{name, false, prepare});
  };

  // Walk counting one node type (Add).
  add("walk_add.hand_written", [](const Trees& t) {
    return Outcome{cb::hand::count_add(t.func), {}};
  });
  add("walk_add.ctir_static", [](const Trees& t) {
    std::uint64_t count = 0;
    ctir::walk(t.func, [&count](const Add&) { ++count; });
    return Outcome{count, {}};
  });
  add_prepared("walk_add.ctir_runtime", [](const Trees& t) {
    auto count = std::make_shared<std::uint64_t>(0);
    auto callbacks = std::make_shared<runtime::Callbacks>(counting("ir.Add", count.get()));
    return std::function<Outcome()>([&t, count, callbacks] {
      *count = 0;
      runtime::walk(t.func, *callbacks);
      return Outcome{*count, {}};
    });
  });
  add("walk_add.virtual_visitor", [](const Trees& t) {
    return Outcome{cb::tvm_style::count_add(t.func), {}};
  });
  add("walk_add.std_function", [](const Trees& t) {
    return Outcome{cb::function_walker::count_add(t.func), {}};
  });

  // Walk for For loops: ctir prunes what cannot hold a loop; the baselines walk it all.
  add("walk_for.hand_written", [](const Trees& t) {
    return Outcome{cb::hand::count_for(t.func), {}};
  });
  add("walk_for.hand_pruned", [](const Trees& t) {
    return Outcome{cb::hand::count_for_pruned(t.func), {}};
  });
  add("walk_for.ctir_static", [](const Trees& t) {
    std::uint64_t count = 0;
    ctir::walk(t.func, [&count](const For&) { ++count; });
    return Outcome{count, {}};
  });
  add_prepared("walk_for.ctir_runtime", [](const Trees& t) {
    auto count = std::make_shared<std::uint64_t>(0);
    auto callbacks = std::make_shared<runtime::Callbacks>(counting("ir.For", count.get()));
    return std::function<Outcome()>([&t, count, callbacks] {
      *count = 0;
      runtime::walk(t.func, *callbacks);
      return Outcome{*count, {}};
    });
  });
  add("walk_for.virtual_visitor", [](const Trees& t) {
    return Outcome{cb::tvm_style::count_for(t.func), {}};
  });
  add("walk_for.std_function", [](const Trees& t) {
    return Outcome{cb::function_walker::count_for(t.func), {}};
  });

  // Map that changes nothing: must return the same root and allocate nothing.
  add("map_nochange.hand_written", [](const Trees& t) {
    return Outcome{0, cb::hand::map_no_change(t.func)};
  });
  add("map_nochange.ctir_static", [](const Trees& t) {
    return Outcome{0, ctir::map(t.func, [](const Add&) { return unchanged; })};
  });
  add_prepared("map_nochange.ctir_runtime", [](const Trees& t) {
    auto callbacks = std::make_shared<runtime::Callbacks>();
    callbacks->on("ir.Add", [](const ObjectRef&) { return unchanged; });
    return std::function<Outcome()>([&t, callbacks] {
      return Outcome{0, downcast<PrimFunc>(runtime::map(t.func, *callbacks))};
    });
  });
  add("map_nochange.virtual_visitor", [](const Trees& t) {
    return Outcome{0, cb::tvm_style::map_no_change(t.func)};
  });

  // Map rewriting x + 0 -> x.
  add("map_fold.hand_written", [](const Trees& t) {
    return Outcome{0, cb::hand::map_fold_add_zero(t.func)};
  });
  add("map_fold.ctir_static", [](const Trees& t) {
    return Outcome{0, ctir::map(t.func, [](const Mapped<Add>& a) -> MapResult<PrimExpr> {
                     if (is_zero(a[&AddNode::b])) {
                       return a[&AddNode::a];
                     }
                     return unchanged;
                   })};
  });
  add_prepared("map_fold.ctir_runtime", [](const Trees& t) {
    auto callbacks = std::make_shared<runtime::Callbacks>();
    callbacks->on("ir.Add", [](const runtime::Mapped& sum) -> MapResult<Object> {
      if (cb::hand::is_zero(static_cast<const PrimExprNode&>(*sum.get("b")))) {
        return sum.get("a");
      }
      return unchanged;
    });
    return std::function<Outcome()>([&t, callbacks] {
      return Outcome{0, downcast<PrimFunc>(runtime::map(t.func, *callbacks))};
    });
  });
  add("map_fold.virtual_visitor", [](const Trees& t) {
    return Outcome{0, cb::tvm_style::map_fold_add_zero(t.func)};
  });

  // Structural equality of alpha-renamed copies.
  add(
      "equal.hand_written",
      [](const Trees& t) {
        return Outcome{cb::hand::structural_equal(t.func, t.renamed), {}};
      },
      true);
  add(
      "equal.ctir_static",
      [](const Trees& t) {
        return Outcome{ctir::structural_equal(t.func, t.renamed), {}};
      },
      true);
  add(
      "equal.ctir_runtime",
      [](const Trees& t) {
        return Outcome{ctir::runtime::structural_equal(t.func, t.renamed), {}};
      },
      true);
  add(
      "equal.virtual_visitor",
      [](const Trees& t) {
        return Outcome{cb::tvm_style::structural_equal(t.func, t.renamed), {}};
      },
      true);

  // Structural hash.
  add("hash.hand_written", [](const Trees& t) {
    return Outcome{cb::hand::structural_hash(t.func), {}};
  });
  add("hash.ctir_static", [](const Trees& t) {
    return Outcome{ctir::structural_hash(t.func), {}};
  });
  add("hash.ctir_runtime", [](const Trees& t) {
    return Outcome{ctir::runtime::structural_hash(t.func), {}};
  });
  add("hash.virtual_visitor", [](const Trees& t) {
    return Outcome{cb::tvm_style::structural_hash(t.func), {}};
  });
  return ops;
}

std::size_t parse_size(std::string_view text) {
  if (text == "16k") {
    return cb::small_tree_nodes;
  }
  if (text == "1m") {
    return cb::large_tree_nodes;
  }
  std::size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      throw Error("callgrind_driver: size '" + std::string(text) +
                  "' is not 16k, 1m or a number of nodes");
    }
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  if (value == 0) {
    throw Error("callgrind_driver: the size must be positive");
  }
  return value;
}

/// The share of a tree's nodes that a walk for For loops has to reach (the function and
/// its statements): the pruning bar.
double statement_share(const PrimFunc& func) {
  std::size_t all = 0;
  std::size_t statements = 0;
  cb::hand::walk(func, [&](const auto& node) {
    ++all;
    using N = std::remove_cvref_t<decltype(node)>;
    if constexpr (std::is_base_of_v<StmtNode, N> || std::is_same_v<N, PrimFuncNode>) {
      ++statements;
    }
  });
  return static_cast<double>(statements) / static_cast<double>(all);
}

int run(int argc, char** argv) {
  const std::vector<Operation> ops = operations();
  if (argc == 2 && std::string_view(argv[1]) == "--list") {
    for (const Operation& op : ops) {
      std::printf("%.*s\n", static_cast<int>(op.name.size()), op.name.data());
    }
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: callgrind_driver <operation> <size>   (size: 16k, 1m or a "
                         "number)\n       callgrind_driver --list\n");
    return 2;
  }
  const std::string_view name = argv[1];
  const Operation* op = nullptr;
  for (const Operation& candidate : ops) {
    if (candidate.name == name) {
      op = &candidate;
    }
  }
  if (op == nullptr) {
    std::fprintf(stderr, "callgrind_driver: unknown operation '%s' (see --list)\n", argv[1]);
    return 2;
  }

  Trees trees;
  trees.func = cb::make_tree(parse_size(argv[2]));
  if (op->needs_copy) {
    trees.renamed = cb::alpha_renamed(trees.func);
  }
  const std::size_t nodes = cb::count_nodes(trees.func.get());

  const std::function<Outcome()> operation = op->prepare(trees);
  // Once outside the measurement (lazy binding, function-local statics), then measured.
  { Outcome warm = operation(); }
  allocations = 0;
  counting_allocations = true;
  start_instrumentation();
  Outcome outcome = operation();
  stop_instrumentation();
  counting_allocations = false;
  const std::size_t measured_allocations = allocations;

  std::printf("operation: %s\n", argv[1]);
  std::printf("tree_nodes: %zu\n", nodes);
  if (outcome.tree.defined()) {
    std::printf("result: tree of %zu nodes, %zu Add\n", cb::count_nodes(outcome.tree.get()),
                cb::hand::count_add(outcome.tree));
    std::printf("same_root: %s\n", outcome.tree.same_as(trees.func) ? "yes" : "no");
  } else {
    std::printf("result: %llu\n", static_cast<unsigned long long>(outcome.value));
  }
  if (name.starts_with("walk_for.")) {
    std::printf("statement_share: %.4f\n", statement_share(trees.func));
  }
  std::printf("allocations: %zu\n", measured_allocations);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "callgrind_driver: %s\n", e.what());
    return 1;
  }
}
