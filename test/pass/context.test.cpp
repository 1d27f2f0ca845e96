// Tests of ctir/pass/context.hpp: PassContext settings, the thread-local stack of entered
// contexts, PassEnabled, diagnostics, and instruments around entering and leaving.
#include <ctir/pass/context.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {
/// A scope on the heap, to end it at a chosen point.
struct HeldScope {
  PassContextScope scope;
};
} // namespace

TEST_CASE("a default context has opt_level 2 and nothing else") {
  const PassContext ctx;
  CHECK(ctx.opt_level() == 2);
  CHECK(ctx.required().empty());
  CHECK(ctx.disabled().empty());
  CHECK(ctx.instruments().empty());
  CHECK_FALSE(ctx.has_instruments());
  CHECK(ctx.config_settings().empty());
  CHECK_FALSE(ctx.entered());
}

TEST_CASE("a context is made from an options struct with designated initializers") {
  const PassContext ctx{{.opt_level = 3, .disabled = {"EliminateCommonSubexpr"}}};
  CHECK(ctx.opt_level() == 3);
  CHECK(ctx.disabled() == std::vector<std::string>{"EliminateCommonSubexpr"});
  CHECK(ctx.is_disabled("EliminateCommonSubexpr"));
  CHECK_FALSE(ctx.is_required("EliminateCommonSubexpr"));
}

TEST_CASE("PassEnabled: disabled wins, then required, then the opt_level") {
  const PassInfo low{.name = "Low", .opt_level = 1};
  const PassInfo high{.name = "High", .opt_level = 3};
  CHECK(PassContext{{.opt_level = 2}}.pass_enabled(low));
  CHECK_FALSE(PassContext{{.opt_level = 2}}.pass_enabled(high));
  CHECK(PassContext{{.opt_level = 3}}.pass_enabled(high));
  CHECK(PassContext{{.opt_level = 2, .required = {"High"}}}.pass_enabled(high));
  CHECK_FALSE(PassContext{{.opt_level = 3, .disabled = {"High"}}}.pass_enabled(high));
  CHECK_FALSE(
      PassContext{{.opt_level = 3, .required = {"High"}, .disabled = {"High"}}}.pass_enabled(high));
  PassContext ctx;
  ctx.set_opt_level(0);
  CHECK_FALSE(ctx.pass_enabled(low));
  ctx.set_required({"Low"});
  CHECK(ctx.pass_enabled(low));
  ctx.set_disabled({"Low"});
  CHECK_FALSE(ctx.pass_enabled(low));
}

TEST_CASE("current() is the thread's default context until a context is entered") {
  PassContext& original = PassContext::current();
  CHECK(&PassContext::current() == &original);
  CHECK_FALSE(original.entered());
  PassContext outer{{.opt_level = 1}};
  {
    auto outer_scope = outer.enter();
    CHECK(&PassContext::current() == &outer);
    CHECK(outer.entered());
    PassContext inner{{.opt_level = 3}};
    {
      auto inner_scope = inner.enter();
      CHECK(&PassContext::current() == &inner);
      CHECK(PassContext::current().opt_level() == 3);
    }
    CHECK(&PassContext::current() == &outer);
    CHECK_FALSE(inner.entered());
  }
  CHECK(&PassContext::current() == &original);
  CHECK_FALSE(outer.entered());
}

TEST_CASE("a scope can be left early with exit()") {
  PassContext ctx;
  auto scope = ctx.enter();
  CHECK(scope.context() == &ctx);
  scope.exit();
  CHECK(scope.context() == nullptr);
  CHECK(&PassContext::current() != &ctx);
  scope.exit(); // a second exit does nothing
}

TEST_CASE("a context cannot be entered twice at once, but a copy can") {
  PassContext ctx{{.opt_level = 1}};
  auto scope = ctx.enter();
  CHECK(error_of([&] { auto again = ctx.enter(); }) ==
        "ctir: this PassContext is already entered; leave it first, or enter a copy");
  PassContext copy = ctx;
  CHECK_FALSE(copy.entered());
  CHECK(copy.opt_level() == 1);
  auto copy_scope = copy.enter();
  CHECK(&PassContext::current() == &copy);
}

TEST_CASE("a context destroyed inside its scope stops being current") {
  PassContext& before = PassContext::current();
  auto* ctx = new PassContext();
  // The scope is never destroyed: it would refer to a destroyed context (a caller bug).
  alignas(PassContextScope) unsigned char storage[sizeof(PassContextScope)];
  ::new (static_cast<void*>(storage)) PassContextScope(ctx->enter());
  CHECK(&PassContext::current() == ctx);
  delete ctx;
  CHECK(&PassContext::current() == &before);
}

TEST_CASE("enter_pass_ctx throwing in the second of three instruments exits the first and "
          "clears the instruments") {
  EventLog log;
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log},
                              RecordingInstrument{.id = "2", .log = log, .throw_in = "enter"},
                              RecordingInstrument{.id = "3", .log = log}};
  PassContext& before = PassContext::current();
  CHECK(error_of([&] { auto scope = ctx.enter(); }) ==
        "Error in instrument PI2 (enter_pass_ctx): dummy error in enter");
  CHECK(log.str() == "1enter 2enter 1exit");
  CHECK(&PassContext::current() == &before);
  CHECK_FALSE(ctx.entered());
  CHECK(ctx.instruments().empty());
  CHECK_FALSE(ctx.has_instruments());
  // The cleared static instruments are no longer called.
  log.clear();
  IRModule mod = sample_module();
  mod = run_pass(logging_pass("t", log), mod, ctx);
  CHECK(log.str() == "t");
}

TEST_CASE("exit_pass_ctx throwing in the second of three instruments pops the context and "
          "propagates") {
  EventLog log;
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log},
                              RecordingInstrument{.id = "2", .log = log, .throw_in = "exit"},
                              RecordingInstrument{.id = "3", .log = log}};
  PassContext& before = PassContext::current();
  auto* scope = new HeldScope{ctx.enter()};
  log.clear();
  CHECK(error_of([&] { delete scope; }) ==
        "Error in instrument PI2 (exit_pass_ctx): dummy error in exit");
  CHECK(log.str() == "1exit 2exit");
  CHECK(&PassContext::current() == &before);
  CHECK(ctx.instruments().empty());
}

TEST_CASE("exit_pass_ctx throwing while another exception unwinds is recorded, not thrown") {
  EventLog log;
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log, .throw_in = "exit"},
                              RecordingInstrument{.id = "2", .log = log}};
  PassContext& before = PassContext::current();
  CHECK(error_of([&] {
          auto scope = ctx.enter();
          throw Error("the first error");
        }) == "the first error");
  CHECK(log.str() == "1enter 2enter 1exit");
  CHECK(&PassContext::current() == &before);
  CHECK(ctx.instruments().empty());
  const std::vector<Diagnostic> diagnostics = ctx.diagnostics();
  REQUIRE(diagnostics.size() == 1);
  CHECK(contains(diagnostics[0].message, "dummy error in exit"));
  CHECK(contains(diagnostics[0].message, "because of another exception"));
}

TEST_CASE("override_instruments exits the old instruments and enters the new ones") {
  EventLog log;
  PassContext ctx{{.instruments = {RecordingInstrument{.id = "1", .log = log}}}};
  ctx.override_instruments(
      {RecordingInstrument{.id = "2", .log = log}, RecordingInstrument{.id = "3", .log = log}});
  CHECK(log.str() == "1exit 2enter 3enter");
  CHECK(ctx.instruments().size() == 2);
  ctx.override_instruments({});
  CHECK(log.str() == "1exit 2enter 3enter 2exit 3exit");
  CHECK_FALSE(ctx.has_instruments());
}

TEST_CASE("override_instruments with a broken enter throws and leaves no instruments") {
  EventLog log;
  PassContext ctx;
  CHECK_THROWS_AS(
      ctx.override_instruments({RecordingInstrument{.id = "1", .log = log},
                                RecordingInstrument{.id = "2", .log = log, .throw_in = "enter"}}),
      InstrumentError);
  CHECK(log.str() == "1enter 2enter 1exit");
  CHECK(ctx.instruments().empty());
}

TEST_CASE("override_instruments over an instrument whose exit throws throws and leaves none") {
  EventLog log;
  PassContext ctx;
  ctx.override_instruments({RecordingInstrument{.id = "1", .log = log, .throw_in = "exit"}});
  CHECK(ctx.instruments().size() == 1);
  CHECK_THROWS_AS(ctx.override_instruments({RecordingInstrument{.id = "2", .log = log}}),
                  InstrumentError);
  CHECK(log.str() == "1enter 1exit");
  CHECK(ctx.instruments().empty());
}

TEST_CASE("override_instruments keeps the static instruments of an InstrumentedPassContext") {
  EventLog log;
  InstrumentedPassContext ctx{{}, RecordingInstrument{.id = "s", .log = log}};
  ctx.override_instruments({RecordingInstrument{.id = "r", .log = log}});
  CHECK(ctx.instruments().size() == 2);
  CHECK(ctx.static_instrument_count() == 1);
  IRModule mod = sample_module();
  mod = run_pass(logging_pass("t", log), mod, ctx);
  CHECK(log.str() == "renter ssr rsr srb rrb t sra rra");
}

TEST_CASE("override_instruments refuses to run inside an instrument hook") {
  struct Overrider {
    PassContext* ctx;
    std::string* error;
    void run_before_pass(const IRModule&, const PassInfo&) {
      *error = error_of([&] { ctx->override_instruments({}); });
    }
  };
  PassContext ctx;
  std::string error;
  ctx.override_instruments({Overrider{&ctx, &error}});
  run_pass(logging_pass("t", EventLog()), IRModule(), ctx);
  CHECK(contains(error, "override_instruments was called from inside an instrument hook"));
}

TEST_CASE("copies of an InstrumentedPassContext call their own static instruments") {
  EventLog log;
  const InstrumentedPassContext original{{}, RecordingInstrument{.id = "a", .log = log}};
  InstrumentedPassContext copy = original;
  copy.instrument<0>().id = "b";
  run_pass(logging_pass("t", log), IRModule(), original);
  run_pass(logging_pass("u", log), IRModule(), copy);
  // Through the base class too (the erased views point at each context's own copy).
  run_pass(logging_pass("v", log), IRModule(), static_cast<const PassContext&>(copy));
  CHECK(log.str() == "asr arb t ara bsr brb u bra bsr brb v bra");
  // A plain PassContext copy keeps only runtime instruments.
  const PassContext plain = copy;
  CHECK_FALSE(plain.has_instruments());
}

TEST_CASE("diagnostics are recorded in order and passed to the handler") {
  std::vector<std::string> seen;
  PassContext ctx{{.on_diagnostic = [&](const Diagnostic& d) { seen.push_back(d.message); }}};
  ctx.warning("unused function", {}, "DeadCodeElimination");
  ctx.note("folded 3 constants");
  ctx.emit({Diagnostic::Severity::error, "bad", {}, "X"});
  const std::vector<Diagnostic> diagnostics = ctx.diagnostics();
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[0].severity == Diagnostic::Severity::warning);
  CHECK(diagnostics[0].source == "DeadCodeElimination");
  CHECK(diagnostics[1].severity == Diagnostic::Severity::note);
  CHECK(diagnostics[2].severity == Diagnostic::Severity::error);
  CHECK(seen == std::vector<std::string>{"unused function", "folded 3 constants", "bad"});
  ctx.clear_diagnostics();
  CHECK(ctx.diagnostics().empty());
}

TEST_CASE("a new thread starts at its own default context") {
  PassContext ctx{{.opt_level = 3}};
  auto scope = ctx.enter();
  const PassContext* seen = nullptr;
  int level = 0;
  bool default_entered = true;
  std::thread worker([&] {
    seen = &PassContext::current();
    level = PassContext::current().opt_level();
    default_entered = PassContext::current().entered();
  });
  worker.join();
  CHECK(seen != &ctx);
  CHECK(level == 2);
  CHECK_FALSE(default_entered);
  CHECK(&PassContext::current() == &ctx);
}

TEST_CASE("two threads with different contexts run pipelines concurrently") {
  // Each pass records the opt_level of the context it sees; a pass at opt_level 3 runs only
  // under the thread whose context allows it.
  const auto record = [](std::string name, int opt_level) {
    return make_module_pass(
        PassInfo{.name = name, .opt_level = opt_level}, [](IRModule mod, const PassContext& ctx) {
          mod.update("main", identity_function("main", {{"seen", std::int64_t{ctx.opt_level()}}}));
          return mod;
        });
  };
  const auto pipeline = sequential(record("A", 0), record("B", 3));
  const IRModule input = sample_module();
  std::vector<std::int64_t> seen(2, -1);
  std::vector<std::size_t> sizes(2, 0);
  std::vector<std::string> events(2);
  const auto work = [&](std::size_t slot, int opt_level) {
    EventLog log;
    InstrumentedPassContext ctx{{.opt_level = opt_level}, PassNameRecorder{log}};
    auto scope = ctx.enter();
    IRModule mod = input;
    for (int i = 0; i < 200; ++i) {
      mod = pipeline(mod, ctx);
      mod = pipeline(mod); // through PassContext::current()
    }
    seen[slot] = mod.lookup("main")->attrs.get<std::int64_t>("seen").value_or(-1);
    sizes[slot] = log.size();
    events[slot] = log.str().substr(0, 25);
  };
  std::thread first(work, 0, 2);
  std::thread second(work, 1, 3);
  first.join();
  second.join();
  CHECK(seen[0] == 2);
  CHECK(seen[1] == 3);
  CHECK(sizes[0] == 400 * 2); // sequential + A
  CHECK(sizes[1] == 400 * 3); // sequential + A + B
  CHECK(events[0] == "sequential A sequential A");
  CHECK(events[1] == "sequential A B sequential");
  CHECK(input.lookup("main")->attrs.empty()); // the shared input is untouched
}
