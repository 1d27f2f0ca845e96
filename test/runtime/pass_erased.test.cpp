// Tests of ctir/runtime/pass/erased.hpp: Pass (any static pass, type-erased) under runtime
// instruments: the instrument call protocol of TVM's tests, PassEnabled, errors, threads, and
// function passes running their functions on several threads.
#include <ctir/runtime/pass.hpp>

#include <ctir/pass/function_pass.hpp>
#include <ctir/pass/instruments/timing.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <doctest/doctest.h>
#include <error_testing.hpp>
#include <pass_testing.hpp>

#include "../pass/parallel_testing.hpp"

#include <array>
#include <string>
#include <thread>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {
struct Named {
  static constexpr PassInfo info() { return {.name = "Named", .opt_level = 2}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

/// Runtime instruments of the protocol tests.
std::vector<Instrument> instruments(const EventLog& log, const std::string& throw_in = "") {
  return {RecordingInstrument{.id = "1", .log = log, .throw_in = throw_in},
          RecordingInstrument{.id = "2", .log = log}};
}

/// A pass that logs, as a Pass.
Pass logged(const std::string& name, const EventLog& log, int opt_level = 0) {
  return logging_pass(name, log, opt_level);
}
} // namespace

TEST_CASE("a Pass erases a static pass and keeps its info") {
  const Pass p = Named{};
  CHECK(p.info().name == "Named");
  CHECK(p.info().opt_level == 2);
  CHECK(p.target<Named>() != nullptr);
  CHECK(p.target<int>() == nullptr);
  CHECK_FALSE(p.is_sequential());
  CHECK(p.passes().empty());
  CHECK(p.str() == "Named");
  const Pass copy = p;
  CHECK(copy.same_as(p));
  static_assert(pass<Pass> && module_pass<Pass>);
}

namespace {
/// A pass class whose name was forgotten.
struct Unnamed {
  PassInfo info() const {
    PassInfo info;
    info.opt_level = 1;
    return info;
  }
  IRModule operator()(IRModule mod, const PassContext&) const { return mod; }
};
} // namespace

TEST_CASE("a Pass of a class with an empty name is an error that names the class") {
  CHECK_THROWS_WITH(Pass(Unnamed{}), doctest::Contains("Unnamed: a pass needs a name"));
}

TEST_CASE("a runtime sequential given only an opt_level is named sequential") {
  PassInfo only_level;
  only_level.opt_level = 2;
  const Pass seq = sequential(std::vector<Pass>{}, only_level);
  CHECK(seq.info().name == "sequential");
  CHECK(seq.info().opt_level == 2);
}

TEST_CASE("runtime: one pass under one instrument calls exactly enter, run_before, run_after, "
          "exit") {
  EventLog log;
  IRModule mod = sample_module();
  PassContext ctx{
      {.instruments = {RecordingInstrument{.id = "1", .log = log, .log_should_run = false}}}};
  {
    auto scope = ctx.enter();
    mod = logged("InferType", log)(mod);
  }
  CHECK(log.str() == "1enter 1rb InferType 1ra 1exit");
}

TEST_CASE("runtime: should_run false for all but one pass lets only that one run") {
  EventLog log;
  PassNameRecorder names;
  PassContext ctx{
      {.instruments = {RecordingInstrument{.id = "1", .log = EventLog(), .only = "InferType"},
                       names}}};
  auto scope = ctx.enter();
  IRModule mod = sample_module();
  for (const char* name : {"AnnotateSpans", "ToANormalForm", "InferType"}) {
    mod = logged(name, log)(mod);
  }
  CHECK(log.str() == "InferType");
  CHECK(names.log.str() == "InferType");
}

TEST_CASE("runtime: two vetoing instruments and a recorder combine with AND") {
  EventLog log;
  PassNameRecorder names;
  PassContext ctx{
      {.instruments = {RecordingInstrument{.id = "a", .log = EventLog(), .skip = "AnnotateSpans"},
                       RecordingInstrument{.id = "b", .log = EventLog(), .skip = "ToANormalForm"},
                       names}}};
  auto scope = ctx.enter();
  IRModule mod = sample_module();
  for (const char* name : {"AnnotateSpans", "ToANormalForm", "InferType"}) {
    mod = logged(name, log)(mod);
  }
  CHECK(names.log.str() == "InferType");
}

TEST_CASE("runtime: two instruments and two passes interleave in the documented order") {
  EventLog log;
  IRModule mod = sample_module();
  PassContext ctx{{.instruments = instruments(log)}};
  {
    auto scope = ctx.enter();
    mod = logged("t1", log)(mod);
    mod = logged("t2", log)(mod);
  }
  CHECK(log.str() == "1enter 2enter "
                     "1sr 2sr 1rb 2rb t1 1ra 2ra "
                     "1sr 2sr 1rb 2rb t2 1ra 2ra "
                     "1exit 2exit");
}

TEST_CASE("runtime: a throwing pass gets run_after_pass_failed and the input is intact") {
  EventLog log;
  const IRModule mod = sample_module();
  const Pass broken = throwing_pass("t", log);
  PassContext ctx{{.instruments = {RecordingInstrument{.id = "1", .log = log}}}};
  const std::string message = error_of([&] {
    auto scope = ctx.enter();
    IRModule out = broken(mod);
  });
  CHECK(message == "Error in pass t: just a dummy error");
  CHECK(log.str() == "1enter 1sr 1rb t 1raf 1exit");
  CHECK(function_names(mod) == std::vector<std::string>{"main", "helper", "fill"});
}

TEST_CASE("runtime: a hook throwing stops the protocol where TVM stops it") {
  EventLog log;
  IRModule mod = sample_module();
  SUBCASE("should_run") {
    PassContext ctx{{.instruments = instruments(log, "sr")}};
    CHECK_THROWS_AS(
        [&] {
          auto scope = ctx.enter();
          mod = logged("t", log)(mod);
        }(),
        InstrumentError);
    CHECK(log.str() == "1enter 2enter 1sr 1exit 2exit");
  }
  SUBCASE("run_before_pass") {
    PassContext ctx{{.instruments = instruments(log, "rb")}};
    CHECK_THROWS_AS(
        [&] {
          auto scope = ctx.enter();
          mod = logged("t", log)(mod);
        }(),
        InstrumentError);
    CHECK(log.str() == "1enter 2enter 1sr 2sr 1rb 1exit 2exit");
  }
  SUBCASE("run_after_pass") {
    PassContext ctx{{.instruments = instruments(log, "ra")}};
    CHECK_THROWS_AS(
        [&] {
          auto scope = ctx.enter();
          mod = logged("t", log)(mod);
        }(),
        InstrumentError);
    CHECK(log.str() == "1enter 2enter 1sr 2sr 1rb 2rb t 1ra 1exit 2exit");
  }
}

TEST_CASE("runtime: enter_pass_ctx throwing in the second of three instruments") {
  EventLog log;
  PassContext ctx{{.instruments = {RecordingInstrument{.id = "1", .log = log},
                                   RecordingInstrument{.id = "2", .log = log, .throw_in = "enter"},
                                   RecordingInstrument{.id = "3", .log = log}}}};
  PassContext& before = PassContext::current();
  CHECK_THROWS_AS([&] { auto scope = ctx.enter(); }(), InstrumentError);
  CHECK(log.str() == "1enter 2enter 1exit");
  CHECK(&PassContext::current() == &before);
  CHECK(ctx.instruments().empty());
}

TEST_CASE("runtime: exit_pass_ctx throwing in the second of three instruments") {
  EventLog log;
  PassContext ctx{{.instruments = {RecordingInstrument{.id = "1", .log = log},
                                   RecordingInstrument{.id = "2", .log = log, .throw_in = "exit"},
                                   RecordingInstrument{.id = "3", .log = log}}}};
  PassContext& before = PassContext::current();
  std::string message;
  {
    auto scope = ctx.enter();
    log.clear();
    message = error_of([&] { scope.exit(); });
  }
  CHECK(message == "Error in instrument PI2 (exit_pass_ctx): dummy error in exit");
  CHECK(log.str() == "1exit 2exit");
  CHECK(&PassContext::current() == &before);
  CHECK(ctx.instruments().empty());
}

TEST_CASE("runtime: override_instruments with broken instruments leaves the list empty") {
  EventLog log;
  PassContext& ctx = PassContext::current();
  CHECK_THROWS_AS(
      ctx.override_instruments({RecordingInstrument{.id = "1", .log = log, .throw_in = "enter"}}),
      InstrumentError);
  CHECK(ctx.instruments().empty());
  ctx.override_instruments({RecordingInstrument{.id = "2", .log = log, .throw_in = "exit"}});
  CHECK_THROWS_AS(ctx.override_instruments({RecordingInstrument{.id = "3", .log = log}}),
                  InstrumentError);
  CHECK(ctx.instruments().empty());
  CHECK(log.str() == "1enter 2enter 2exit");
}

TEST_CASE("runtime: timing through Pass objects and the current context") {
  EventLog log;
  TimingInstrument timing;
  PassContext::current().override_instruments({timing});
  const Pass pipeline = sequential({logged("A", log), logged("B", log), logged("C", log)});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  const std::string profile = timing.render();
  CHECK(contains(profile, "\nsequential "));
  CHECK(contains(profile, "\n  A "));
  CHECK(contains(profile, "\n  B "));
  CHECK(contains(profile, "\n  C "));
  PassContext::current().override_instruments({});
  CHECK(timing.render().empty());
}

TEST_CASE("runtime: the opt_level gate, required and disabled") {
  EventLog log;
  const Pass pipeline = sequential({logged("low", log, 1), logged("high", log, 3)});
  IRModule mod = sample_module();
  SUBCASE("skipped under opt_level 2") {
    mod = pipeline(mod, PassContext{{.opt_level = 2}});
    CHECK(log.str() == "low");
  }
  SUBCASE("listed as required it runs") {
    mod = pipeline(mod, PassContext{{.opt_level = 2, .required = {"high"}}});
    CHECK(log.str() == "low high");
  }
  SUBCASE("disabled and required is skipped") {
    mod = pipeline(mod, PassContext{{.opt_level = 3, .required = {"high"}, .disabled = {"high"}}});
    CHECK(log.str() == "low");
  }
  SUBCASE("called directly it runs") {
    mod = logged("high", log, 3)(mod, PassContext{{.opt_level = 0}});
    CHECK(log.str() == "high");
  }
}

TEST_CASE("runtime: sequential default name, nesting, and the empty sequential") {
  EventLog log;
  PassNameRecorder names;
  const Pass inner = sequential({logged("b", log)}, PassInfo{.name = "inner", .opt_level = 1});
  const Pass outer = sequential({logged("a", log), inner, logged("c", log)});
  CHECK(outer.info().name == "sequential");
  CHECK(outer.info().opt_level == 0);
  CHECK(inner.info().name == "inner");
  CHECK(outer.is_sequential());
  REQUIRE(outer.passes().size() == 3);
  CHECK(outer.passes()[1].same_as(inner));
  IRModule mod = sample_module();
  mod = outer(mod, PassContext{{.instruments = {names}}});
  CHECK(log.str() == "a b c");
  CHECK(names.log.str() == "sequential a inner b c");
  CHECK(outer.str() == "sequential(a,sequential{name=inner,opt_level=1}(b),c)");
  const Pass empty = sequential({});
  CHECK(empty(mod).same_as(mod));
}

TEST_CASE("runtime: a module pass returning its input returns the same object; a function "
          "pass replacing every function does not") {
  const Pass identity = make_module_pass("Identity", 0, [](IRModule m) { return m; });
  const Function f1 = identity_function("f1");
  const Pass replace = make_function_pass("Replace", 0, [f1](Function) { return f1; });
  const IRModule mod = sample_module();
  CHECK(identity(mod).same_as(mod));
  const IRModule out = replace(mod);
  CHECK_FALSE(out.same_as(mod));
  CHECK(out.lookup("main").same_as(f1));
  CHECK(out.lookup("helper").same_as(f1));
}

TEST_CASE("runtime: errors in nested runtime sequentials are reported once") {
  EventLog log;
  const Pass pipeline = sequential({logged("a", log), sequential({throwing_pass("broken", log)})});
  CHECK(error_of([&] { pipeline(sample_module()); }) == "Error in pass broken: just a dummy error");
}

TEST_CASE("runtime: a static sequential can hold Pass objects, and a Pass a static sequential") {
  EventLog log;
  const auto mixed = sequential(logged("a", log), Named{}, logged("b", log));
  const Pass erased = mixed;
  CHECK(erased.is_sequential());
  CHECK(erased.str() == "sequential(a,Named,b)");
  IRModule mod = sample_module();
  mod = erased(mod, PassContext{{.opt_level = 2}});
  CHECK(log.str() == "a b");
}

TEST_CASE("runtime: two threads with different contexts run runtime pipelines concurrently") {
  const Pass record = make_module_pass("Record", 0, [](IRModule mod, const PassContext& ctx) {
    mod.update("main", identity_function("main", {{"seen", std::int64_t{ctx.opt_level()}}}));
    return mod;
  });
  const Pass gated = make_module_pass("Gated", 3, [](IRModule mod, const PassContext&) {
    mod.update("helper", identity_function("helper", {{"gated", true}}));
    return mod;
  });
  const Pass pipeline = sequential({record, gated});
  const IRModule input = sample_module();
  // One element per thread; std::array<bool> rather than std::vector<bool>, whose elements
  // share words, so that the two threads never write the same memory.
  std::array<std::int64_t, 2> seen{-1, -1};
  std::array<bool, 2> gated_ran{false, false};
  std::array<std::size_t, 2> timed{0, 0};
  const auto work = [&](std::size_t slot, int opt_level) {
    TimingInstrument timing;
    PassContext ctx{{.opt_level = opt_level, .instruments = {timing}}};
    auto scope = ctx.enter();
    IRModule mod = input;
    for (int i = 0; i < 100; ++i) {
      mod = pipeline(mod);
    }
    seen[slot] = mod.lookup("main")->attrs.get<std::int64_t>("seen").value_or(-1);
    gated_ran[slot] = mod.lookup("helper")->attrs.contains("gated");
    timed[slot] = timing.records().size();
  };
  std::thread first(work, 0, 2);
  std::thread second(work, 1, 3);
  first.join();
  second.join();
  CHECK(seen[0] == 2);
  CHECK(seen[1] == 3);
  CHECK_FALSE(gated_ran[0]);
  CHECK(gated_ran[1]);
  CHECK(timed[0] == 100);
  CHECK(timed[1] == 100);
  CHECK(input.lookup("main")->attrs.empty());
}

// ---- function passes on several threads ------------------------------------------------

TEST_CASE("runtime: a pipeline from text gives the serial run's module on any number of "
          "threads") {
  PassRegistry registry;
  passes::register_standard_passes(registry);
  const Pass pipeline =
      parse_pipeline("InferType,SimplifyExpr,FoldConstant,EliminateCommonSubexpr,ToANormalForm,"
                     "DeadCodeElimination,Simplify,UnrollLoop,RemoveNoOp,FlattenBuffer",
                     registry);
  const IRModule input = many_functions_module(250);
  const std::string input_text = print(input);
  const IRModule serial = pipeline(input, PassContext(with_threads(1, {.opt_level = 3})));
  const std::string serial_text = print(serial);
  CHECK(serial_text != input_text);
  for (const int threads : {2, 4, 0}) {
    CAPTURE(threads);
    const IRModule parallel = pipeline(input, PassContext(with_threads(threads, {.opt_level = 3})));
    CHECK(print(parallel) == serial_text);
    CHECK(structural_equal(parallel, serial));
  }
  CHECK(print(input) == input_text);
}

TEST_CASE("runtime: instruments see each erased function pass once, on the calling thread, as "
          "in the serial run") {
  const Pass keep = make_function_pass("KeepGraph", 0, [](Function f) { return f; });
  const Pass mark = make_prim_func_pass("MarkPrims", 0, [](PrimFunc f) {
    return PrimFunc::make(f->name, f->params, f->body, {{"seen", true}});
  });
  const Pass pipeline = sequential({keep, mark});
  const IRModule mod = many_functions_module(80);
  std::vector<std::string> logs;
  for (const int threads : {1, 3}) {
    EventLog log;
    const std::thread::id caller = std::this_thread::get_id();
    bool elsewhere = false;
    PassContext ctx{
        with_threads(threads, {.instruments = {RecordingInstrument{.id = "1", .log = log}}})};
    ctx.set_diagnostic_handler(
        [&](const Diagnostic&) { elsewhere = elsewhere || std::this_thread::get_id() != caller; });
    {
      auto scope = ctx.enter();
      const IRModule out = pipeline(mod);
      CHECK(out.lookup("p79")->attrs.get<bool>("seen") == true);
    }
    CHECK_FALSE(elsewhere);
    logs.push_back(log.str());
  }
  CHECK(logs[0] == "1enter 1sr 1rb 1sr 1rb 1ra 1sr 1rb 1ra 1ra 1exit");
  CHECK(logs[1] == logs[0]);
}

TEST_CASE("runtime: an erased function pass failing in several functions reports the first, "
          "once, and leaves its input alone") {
  const Pass explode = make_prim_func_pass("Explode", 0, [](PrimFunc f) -> PrimFunc {
    if (f->name == "p90" || f->name == "p9") {
      throw Error("ctir: cannot rewrite @" + f->name);
    }
    return PrimFunc::make(f->name, f->params, f->body, {{"seen", true}});
  });
  const IRModule mod = many_functions_module(120);
  const std::string before = print(mod);
  for (const int threads : {1, 4}) {
    EventLog log;
    PassContext ctx{
        with_threads(threads, {.instruments = {RecordingInstrument{.id = "1", .log = log}}})};
    IRModule owned = mod;
    CHECK(error_of([&] { owned = explode(std::move(owned), ctx); }) ==
          "Error in pass Explode: ctir: cannot rewrite @p9");
    CHECK(log.str() == "1sr 1rb 1raf");
  }
  CHECK(print(mod) == before);
}

TEST_CASE("runtime: pass.num_threads can be set from text, as on a command line") {
  PassContext ctx;
  ctx.set_config_from_string("pass.num_threads", "3");
  CHECK(ctx.config<int>("pass.num_threads") == 3);
  CHECK(contains(error_of([&] { ctx.set_config_from_string("pass.num_threads", "many"); }),
                 "'many' is not a valid int"));
}
