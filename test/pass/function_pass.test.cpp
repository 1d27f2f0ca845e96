// Tests of ctir/pass/function_pass.hpp: passes over graph-level and tensor-level functions.
#include <ctir/pass/function_pass.hpp>

#include <ctir/pass/detail/thread_pool.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/passes/fold_constant.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/passes/unroll_loop.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <doctest/doctest.h>
#include <error_testing.hpp>
#include <pass_testing.hpp>

#include "parallel_testing.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {
/// A class-based graph-level function pass that replaces every function by `f1`.
struct ReplaceFunctions {
  Function replacement;
  static constexpr PassInfo info() { return {"ReplaceFunctions", 1}; }
  Function transform_function(Function, const IRModule&, const PassContext&) const {
    return replacement;
  }
};
} // namespace

TEST_CASE("a function pass that replaces every function returns a new module") {
  const Function f1 = identity_function("f1");
  const IRModule mod = sample_module();
  const IRModule out = run_pass(ReplaceFunctions{f1}, mod);
  CHECK_FALSE(out.same_as(mod));
  CHECK(out.lookup("main").same_as(f1));
  CHECK(out.lookup("helper").same_as(f1));
  CHECK(out.lookup("fill").is<PrimFuncNode>()); // not a graph-level function
  CHECK_FALSE(mod.lookup("main").same_as(f1));
}

TEST_CASE("a function pass that changes nothing returns the very same module") {
  const auto p = make_function_pass("Nothing", 0, [](Function f) { return f; });
  const IRModule mod = sample_module();
  CHECK(p(mod).same_as(mod));
}

TEST_CASE("on one thread, a function pass sees each graph-level function once, in order, with "
          "the module") {
  std::vector<std::string> seen;
  const auto p =
      make_function_pass("Visit", 0, [&seen](Function f, const IRModule& mod, const PassContext&) {
        seen.push_back(f->name + "/" + std::to_string(mod.size()));
        return f;
      });
  p(sample_module(), PassContext(with_threads(1)));
  CHECK(seen == std::vector<std::string>{"main/3", "helper/3"});
}

TEST_CASE("a function pass skips functions whose SkipOptimization attribute is true") {
  std::vector<std::string> seen;
  const auto p = make_function_pass("Visit", 0, [&seen](Function f) {
    seen.push_back(f->name);
    return identity_function(f->name + "_new");
  });
  IRModule mod;
  mod.add("kept", identity_function("kept", {{"SkipOptimization", true}}));
  mod.add("changed", identity_function("changed"));
  mod.add("explicitly_false", identity_function("explicitly_false", {{"SkipOptimization", false}}));
  const IRModule out = p(mod, PassContext(with_threads(1)));
  CHECK(seen == std::vector<std::string>{"changed", "explicitly_false"});
  CHECK(out.lookup("kept").same_as(mod.lookup("kept")));
  CHECK(out.lookup("changed")->name == "changed_new");
}

TEST_CASE("a graph-level function pass must not return null") {
  const auto p = make_function_pass("Drop", 0, [](Function) { return Function(); });
  CHECK(error_of([&] { p(sample_module()); }) ==
        "Error in pass Drop: ctir: function pass Drop returned no function for @main (only "
        "tensor-level function passes may delete functions)");
}

TEST_CASE("a tensor-level function pass sees only PrimFuncs") {
  std::vector<std::string> seen;
  const auto p = make_prim_func_pass("Visit", 0, [&seen](PrimFunc f) {
    seen.push_back(f->name);
    return f;
  });
  IRModule mod = sample_module();
  mod.add("fill2", zero_fill("fill2"));
  CHECK(p(mod, PassContext(with_threads(1))).same_as(mod));
  CHECK(seen == std::vector<std::string>{"fill", "fill2"});
}

TEST_CASE("a tensor-level function pass deletes a function by returning null") {
  const auto p =
      make_prim_func_pass("DropFill", 0, [](PrimFunc f, const IRModule&, const PassContext&) {
        return f->name == "fill" ? PrimFunc() : f;
      });
  IRModule mod = sample_module();
  mod.add("fill2", zero_fill("fill2"));
  const IRModule out = p(mod);
  CHECK(function_names(out) == std::vector<std::string>{"main", "helper", "fill2"});
  CHECK(function_names(mod) == std::vector<std::string>{"main", "helper", "fill", "fill2"});
}

TEST_CASE("function passes keep the name and opt_level they are given, and are function "
          "passes") {
  const auto graph =
      make_function_pass(PassInfo{.name = "G", .opt_level = 2}, [](Function f) { return f; });
  const auto tensor =
      make_prim_func_pass(PassInfo{.name = "T", .opt_level = 1}, [](PrimFunc f) { return f; });
  CHECK(graph.info().name == "G");
  CHECK(graph.info().opt_level == 2);
  CHECK(tensor.info().name == "T");
  static_assert(function_pass<decltype(graph)> && !module_pass<decltype(graph)>);
  static_assert(prim_func_pass<decltype(tensor)>);
}

TEST_CASE("a module owned only by the pipeline is updated in place by function passes") {
  const auto bump = make_prim_func_pass("Bump", 0, [](PrimFunc f) {
    return PrimFunc::make(f->name, f->params, f->body, {{"bumped", true}});
  });
  IRModule mod = sample_module();
  const IRModuleNode* node = mod.node().get();
  mod = bump(std::move(mod));
  CHECK(mod.node().get() == node); // no copy of the module node was needed
  CHECK(mod.lookup("fill")->attrs.get<bool>("bumped") == true);
}

// ---- functions on several threads ------------------------------------------------------

namespace {

/// The functions of a module, in order.
std::vector<BaseFunc> functions_of(const IRModule& mod) {
  std::vector<BaseFunc> functions;
  for (auto [global, function] : mod) {
    functions.push_back(function);
  }
  return functions;
}

/// Whether `mod` still holds exactly `functions`, in order (the very same objects).
bool holds_exactly(const IRModule& mod, const std::vector<BaseFunc>& functions) {
  if (mod.size() != functions.size()) {
    return false;
  }
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (!mod.function_at(i).same_as(functions[i])) {
      return false;
    }
  }
  return true;
}

/// An instrument that records whether every hook ran on the thread that made it.
struct CallingThreadCheck {
  std::thread::id owner = std::this_thread::get_id();
  std::shared_ptr<std::atomic<int>> elsewhere = std::make_shared<std::atomic<int>>(0);
  void check() {
    if (std::this_thread::get_id() != owner) {
      ++*elsewhere;
    }
  }
  void run_before_pass(const IRModule&, const PassInfo&) { check(); }
  void run_after_pass(const IRModule&, const PassInfo&) { check(); }
  void run_after_pass_failed(const IRModule&, const PassInfo&, const Error&) { check(); }
};

constexpr auto standard_function_passes =
    sequential(passes::InferType{}, passes::FoldConstant{}, passes::EliminateCommonSubexpr{},
               passes::Simplify{}, passes::UnrollLoop{});

} // namespace

TEST_CASE("function passes over hundreds of functions give the serial run's module on any number "
          "of threads") {
  const IRModule input = many_functions_module(300);
  const std::string input_text = print(input);
  const IRModule serial =
      standard_function_passes(input, PassContext(with_threads(1, {.opt_level = 3})));
  const std::string serial_text = print(serial);
  CHECK(serial_text != input_text);                       // every pass changed something
  CHECK(contains(serial_text, "%2 = multiply(%1, %1);")); // the shared value stays shared
  for (const int threads : {2, 3, 8, 0}) {
    CAPTURE(threads);
    const IRModule parallel =
        standard_function_passes(input, PassContext(with_threads(threads, {.opt_level = 3})));
    CHECK(print(parallel) == serial_text);
    CHECK(structural_equal(parallel, serial));
  }
  CHECK(print(input) == input_text);
}

TEST_CASE("instruments see a parallel function pass as a whole, on the calling thread, in the "
          "serial run's order") {
  const auto keep_graph = make_function_pass("KeepGraph", 0, [](Function f) { return f; });
  const auto replace_prims = make_prim_func_pass("ReplacePrims", 0, [](PrimFunc f) {
    return PrimFunc::make(f->name, f->params, f->body, {{"seen", true}});
  });
  const auto pipeline = sequential(keep_graph, replace_prims);
  const IRModule mod = many_functions_module(100);
  std::vector<std::string> logs;
  for (const int threads : {1, 4}) {
    EventLog log;
    CallingThreadCheck thread_check;
    InstrumentedPassContext ctx{with_threads(threads), RecordingInstrument{.id = "1", .log = log},
                                thread_check};
    {
      auto scope = ctx.enter();
      const IRModule out = pipeline(mod);
      CHECK(out.lookup("p99")->attrs.get<bool>("seen") == true);
    }
    CHECK(*thread_check.elsewhere == 0);
    logs.push_back(log.str());
  }
  CHECK(logs[0] == "1enter 1sr 1rb 1sr 1rb 1ra 1sr 1rb 1ra 1ra 1exit");
  CHECK(logs[1] == logs[0]);
}

TEST_CASE("an exception in some functions of a parallel run is reported once, for the first "
          "failing function, with the input untouched") {
  const IRModule mod = many_functions_module(200);
  const std::vector<BaseFunc> before = functions_of(mod);
  const std::string before_text = print(mod);
  const auto explode = make_function_pass("Explode", 0, [](Function f) -> Function {
    if (f->name == "g37" || f->name == "g150" || f->name == "g199") {
      throw Error("ctir: cannot rewrite @" + f->name);
    }
    return identity_function(f->name);
  });
  std::vector<std::string> messages;
  for (const int threads : {1, 4}) {
    EventLog log;
    InstrumentedPassContext ctx{with_threads(threads), RecordingInstrument{.id = "1", .log = log}};
    IRModule owned = mod; // shares the module node: an update in place would show in `mod`
    messages.push_back(error_of([&] { owned = explode(std::move(owned), ctx); }));
    CHECK(log.str() == "1sr 1rb 1raf");
  }
  CHECK(messages[0] == "Error in pass Explode: ctir: cannot rewrite @g37");
  CHECK(messages[1] == messages[0]);
  CHECK(holds_exactly(mod, before));
  CHECK(print(mod) == before_text);
}

TEST_CASE("a graph-level function pass returning null fails for the first such function on any "
          "number of threads") {
  const auto drop_some = make_function_pass("DropSome", 0, [](Function f) {
    return f->name == "g70" || f->name == "g12" ? Function() : f;
  });
  const IRModule mod = many_functions_module(100);
  for (const int threads : {1, 4}) {
    CHECK(error_of([&] { drop_some(mod, PassContext(with_threads(threads))); }) ==
          "Error in pass DropSome: ctir: function pass DropSome returned no function for @g12 "
          "(only tensor-level function passes may delete functions)");
  }
}

TEST_CASE("pass.num_threads = 1 runs every function on the calling thread; 2 runs two functions "
          "at the same time") {
  const IRModule mod = many_functions_module(50);
  std::mutex mutex;
  std::set<std::thread::id> threads_seen;
  const auto record = make_function_pass("RecordThreads", 0, [&](Function f) {
    const std::lock_guard lock(mutex);
    threads_seen.insert(std::this_thread::get_id());
    return f;
  });
  record(mod, PassContext(with_threads(1)));
  CHECK(threads_seen == std::set<std::thread::id>{std::this_thread::get_id()});

  // @g0 and @g1 each wait for the other: they meet only if they run at once.
  Rendezvous rendezvous(std::chrono::seconds(20));
  std::atomic<int> met{0};
  const auto meet = make_function_pass("Meet", 0, [&](Function f) {
    if ((f->name == "g0" || f->name == "g1") && rendezvous.arrive()) {
      ++met;
    }
    return f;
  });
  meet(mod, PassContext(with_threads(2)));
  CHECK(met == 2);
}

TEST_CASE("pass.num_threads is a registered int, 0 by default (the hardware's concurrency), and "
          "may not be negative") {
  const auto option = PassConfigRegistry::global().lookup("pass.num_threads");
  CHECK(option->type->name == "int");
  CHECK(option->default_value == ConfigValue(0));
  CHECK(detail::pass_threads(PassContext()) == detail::hardware_threads());
  CHECK(detail::pass_threads(PassContext(with_threads(0))) == detail::hardware_threads());
  CHECK(detail::pass_threads(PassContext(with_threads(3))) == 3);
  CHECK(detail::hardware_threads() >= 1);
  const auto keep = make_function_pass("Keep", 0, [](Function f) { return f; });
  CHECK(error_of([&] { keep(sample_module(), PassContext(with_threads(-2))); }) ==
        "Error in pass Keep: ctir: pass config option 'pass.num_threads' is -2; expected 0 (the "
        "hardware's concurrency), 1 (serial) or more");
}

TEST_CASE("a parallel function pass leaves functions marked SkipOptimization alone") {
  IRModule mod;
  std::set<std::string> expected;
  for (int k = 0; k < 200; ++k) {
    const std::string name = "f" + std::to_string(k);
    const bool skip = k % 3 == 0;
    mod.add(name, identity_function(name, {{"SkipOptimization", skip}}));
    if (!skip) {
      expected.insert(name);
    }
  }
  std::mutex mutex;
  std::set<std::string> seen;
  const auto rename = make_function_pass("Rename", 0, [&](Function f) {
    {
      const std::lock_guard lock(mutex);
      seen.insert(f->name);
    }
    return identity_function(f->name + "_new");
  });
  const IRModule out = rename(mod, PassContext(with_threads(4)));
  CHECK(seen == expected);
  CHECK(function_names(out) == function_names(mod));
  for (int k = 0; k < 200; k += 3) {
    const std::string name = "f" + std::to_string(k);
    CHECK(out.lookup(name).same_as(mod.lookup(name)));
  }
  CHECK(out.lookup("f1").as<FunctionNode>()->name == "f1_new");
}

TEST_CASE("a parallel tensor-level function pass deletes the functions it returns null for, "
          "keeping the order of the others") {
  IRModule mod;
  for (int k = 0; k < 100; ++k) {
    mod.add("fill" + std::to_string(k), zero_fill("fill" + std::to_string(k)));
  }
  const auto drop_odd = make_prim_func_pass("DropOdd", 0, [](PrimFunc f) {
    return std::stoi(f->name.substr(4)) % 2 == 1 ? PrimFunc() : f;
  });
  const IRModule serial = drop_odd(mod, PassContext(with_threads(1)));
  const IRModule parallel = drop_odd(mod, PassContext(with_threads(4)));
  CHECK(serial.size() == 50);
  CHECK(function_names(parallel) == function_names(serial));
  CHECK(mod.size() == 100);
}

TEST_CASE("the diagnostics of a parallel function pass arrive in function order, up to the "
          "first failing function") {
  const auto warn = [](const std::string& fail_at) {
    return make_function_pass("Warn", 0,
                              [fail_at](Function f, const IRModule&, const PassContext& ctx) {
                                ctx.warning("saw @" + f->name);
                                if (f->name == fail_at) {
                                  throw Error("ctir: failed at @" + f->name);
                                }
                                return f;
                              });
  };
  const IRModule mod = many_functions_module(120);
  for (const std::string fail_at : {"", "g30"}) {
    std::vector<std::vector<std::string>> runs;
    for (const int threads : {1, 4}) {
      PassContext ctx(with_threads(threads));
      std::vector<std::string> handled;
      ctx.set_diagnostic_handler([&](const Diagnostic& d) { handled.push_back(d.message); });
      static_cast<void>(error_of([&] { warn(fail_at)(mod, ctx); }));
      std::vector<std::string> recorded;
      for (const Diagnostic& d : ctx.diagnostics()) {
        recorded.push_back(d.message);
      }
      CHECK(handled == recorded);
      runs.push_back(recorded);
    }
    CHECK(runs[0].size() == (fail_at.empty() ? 120u : 31u));
    CHECK(runs[0].back() == (fail_at.empty() ? "saw @g119" : "saw @g30"));
    CHECK(runs[1] == runs[0]);
  }
}

TEST_CASE("a function rewritten on another thread sees the caller's current context") {
  const IRModule mod = many_functions_module(64);
  PassContext ctx(with_threads(4));
  std::atomic<int> other_context{0};
  const auto check = make_function_pass("Check", 0, [&](Function f) {
    if (&PassContext::current() != &ctx) {
      ++other_context;
    }
    return f;
  });
  {
    auto scope = ctx.enter();
    check(mod);
  }
  CHECK(other_context == 0);
}

TEST_CASE("a function pass run inside a parallel function pass runs serially, with the same "
          "result") {
  const auto rename = make_function_pass(
      "Rename", 0, [](Function f) { return identity_function(f->name + "_inner"); });
  const auto outer = make_function_pass("Outer", 0, [&](Function f) {
    IRModule inner;
    inner.add("a", identity_function("a"));
    inner.add("b", identity_function("b"));
    inner = rename(inner);
    return identity_function(f->name + "_" + inner.lookup("b").as<FunctionNode>()->name);
  });
  const IRModule mod = many_functions_module(40);
  const IRModule out = outer(mod, PassContext(with_threads(4)));
  CHECK(out.lookup("g39").as<FunctionNode>()->name == "g39_b_inner");
  CHECK(print(out) == print(outer(mod, PassContext(with_threads(1)))));
}
