// Tests of ctir/pass/run.hpp: the pass concepts and one pass run under static instruments
// (the instrument call protocol of TVM's tests, and errors reported once).
#include <ctir/pass/run.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <stdexcept>
#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {

struct ClassPass {
  static constexpr PassInfo info() { return {.name = "ClassPass", .opt_level = 1}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct CallablePass {
  static constexpr PassInfo info() { return {"CallablePass", 1}; }
  IRModule operator()(IRModule mod, const PassContext&) const { return mod; }
};
struct GraphFunctionPass {
  static constexpr PassInfo info() { return {"GraphFunctionPass", 1}; }
  Function transform_function(Function f, const IRModule&, const PassContext&) const { return f; }
};
struct TensorFunctionPass {
  static constexpr PassInfo info() { return {"TensorFunctionPass", 1}; }
  PrimFunc transform_function(PrimFunc f, const IRModule&, const PassContext&) const { return f; }
};
struct NoInfo {
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct NoRewrite {
  static constexpr PassInfo info() { return {"NoRewrite", 1}; }
};

// A pass is anything with info() and one way to rewrite a module.
static_assert(pass<ClassPass> && module_pass<ClassPass>);
static_assert(pass<CallablePass> && module_pass<CallablePass>);
static_assert(pass<GraphFunctionPass> && function_pass<GraphFunctionPass>);
static_assert(pass<TensorFunctionPass> && prim_func_pass<TensorFunctionPass>);
static_assert(!module_pass<GraphFunctionPass> && !function_pass<TensorFunctionPass>);
static_assert(!pass<NoInfo> && !pass<NoRewrite> && !pass<int>);
static_assert(has_static_info<ClassPass>);

/// A pass that throws a NodeError about a node with a source span.
struct NodeErrorPass {
  Expr offending;
  static constexpr PassInfo info() { return {"NodeErrorPass", 0}; }
  IRModule transform_module(IRModule, const PassContext&) const {
    throw NodeError(offending, "this node is ill-typed");
  }
};

Expr expr_with_span() {
  auto node = make_object<IntImmNode>();
  node->dtype = DataType::int32();
  node->value = 7;
  node->span.file = std::make_shared<const std::string>("input.ctir");
  node->span.line = 3;
  node->span.column = 14;
  return std::move(node).publish();
}

} // namespace

TEST_CASE("one pass under one instrument calls exactly enter, run_before, run_after, exit") {
  EventLog log;
  IRModule mod = sample_module();
  const auto t1 = logging_pass("t1", log);
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log, .log_should_run = false}};
  {
    auto scope = ctx.enter();
    mod = t1(mod, ctx);
  }
  CHECK(log.str() == "1enter 1rb t1 1ra 1exit");
}

TEST_CASE("a pass vetoed by should_run never reaches run_before_pass") {
  EventLog log;
  IRModule mod = sample_module();
  PassNameRecorder names;
  InstrumentedPassContext ctx{
      {}, RecordingInstrument{.id = "1", .log = EventLog(), .only = "InferType"}, names};
  auto scope = ctx.enter();
  mod = run_pass(logging_pass("AnnotateSpans", log), mod, ctx);
  mod = run_pass(logging_pass("ToANormalForm", log), mod, ctx);
  mod = run_pass(logging_pass("InferType", log), mod, ctx);
  CHECK(log.str() == "InferType");
  CHECK(ctx.instrument<1>().log.str() == "InferType");
}

TEST_CASE("should_run of several instruments combine with AND, and every one is asked") {
  EventLog log;
  EventLog asked;
  IRModule mod = sample_module();
  PassNameRecorder names;
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "a", .log = asked, .skip = "AnnotateSpans"},
                              RecordingInstrument{.id = "b", .log = asked, .skip = "ToANormalForm"},
                              names};
  auto scope = ctx.enter();
  mod = run_pass(logging_pass("AnnotateSpans", log), mod, ctx);
  mod = run_pass(logging_pass("ToANormalForm", log), mod, ctx);
  mod = run_pass(logging_pass("InferType", log), mod, ctx);
  CHECK(log.str() == "InferType");
  CHECK(ctx.instrument<2>().log.str() == "InferType");
  CHECK(asked.str() == "aenter benter asr bsr asr bsr asr bsr arb brb ara bra");
}

TEST_CASE("two instruments and two passes interleave in the documented order") {
  EventLog log;
  IRModule mod = sample_module();
  InstrumentedPassContext ctx{
      {}, RecordingInstrument{.id = "1", .log = log}, RecordingInstrument{.id = "2", .log = log}};
  {
    auto scope = ctx.enter();
    mod = logging_pass("t1", log)(mod, ctx);
    mod = logging_pass("t2", log)(mod, ctx);
  }
  CHECK(log.str() == "1enter 2enter "
                     "1sr 2sr 1rb 2rb t1 1ra 2ra "
                     "1sr 2sr 1rb 2rb t2 1ra 2ra "
                     "1exit 2exit");
}

TEST_CASE("a throwing pass gets run_after_pass_failed, not run_after_pass, and the input is "
          "intact") {
  EventLog log;
  const IRModule mod = sample_module();
  const IRModule before = mod;
  InstrumentedPassContext ctx{{}, RecordingInstrument{.id = "1", .log = log}};
  std::string message;
  try {
    auto scope = ctx.enter();
    IRModule out = throwing_pass("t", log)(mod, ctx);
  } catch (const PassError& error) {
    message = error.what();
    CHECK(error.pass_name() == "t");
    CHECK(error.message() == "just a dummy error");
  }
  CHECK(message == "Error in pass t: just a dummy error");
  CHECK(log.str() == "1enter 1sr 1rb t 1raf 1exit");
  CHECK(mod.same_as(before));
  CHECK(function_names(mod) == std::vector<std::string>{"main", "helper", "fill"});
}

TEST_CASE("should_run throwing in the first instrument stops the run; exits still happen") {
  EventLog log;
  IRModule mod = sample_module();
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log, .throw_in = "sr"},
                              RecordingInstrument{.id = "2", .log = log}};
  const std::string message = error_of([&] {
    auto scope = ctx.enter();
    mod = logging_pass("t", log)(mod, ctx);
  });
  CHECK(log.str() == "1enter 2enter 1sr 1exit 2exit");
  CHECK(message == "Error in instrument PI1 (should_run of pass t): dummy error in sr");
}

TEST_CASE("run_before_pass throwing in the first instrument means the pass does not run") {
  EventLog log;
  IRModule mod = sample_module();
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log, .throw_in = "rb"},
                              RecordingInstrument{.id = "2", .log = log}};
  CHECK_THROWS_AS(
      [&] {
        auto scope = ctx.enter();
        mod = logging_pass("t", log)(mod, ctx);
      }(),
      InstrumentError);
  CHECK(log.str() == "1enter 2enter 1sr 2sr 1rb 1exit 2exit");
}

TEST_CASE("run_after_pass throwing in the first instrument skips the second one") {
  EventLog log;
  IRModule mod = sample_module();
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log, .throw_in = "ra"},
                              RecordingInstrument{.id = "2", .log = log}};
  CHECK_THROWS_AS(
      [&] {
        auto scope = ctx.enter();
        mod = logging_pass("t", log)(mod, ctx);
      }(),
      InstrumentError);
  CHECK(log.str() == "1enter 2enter 1sr 2sr 1rb 2rb t 1ra 1exit 2exit");
}

TEST_CASE("static instruments are called on the context's own instrument objects") {
  EventLog log;
  InstrumentedPassContext ctx{{}, RecordingInstrument{.id = "1", .log = log}};
  IRModule mod = sample_module();
  mod = run_pass(logging_pass("t", log), mod, ctx);
  CHECK(log.str() == "1sr 1rb t 1ra");
  ctx.instrument<0>().id = "x";
  mod = run_pass(logging_pass("u", log), mod, ctx);
  CHECK(log.str() == "1sr 1rb t 1ra xsr xrb u xra");
}

TEST_CASE("calling a pass directly runs it whatever its opt_level and the disabled list") {
  EventLog log;
  PassContext ctx{{.opt_level = 0, .disabled = {"high"}}};
  IRModule mod = sample_module();
  mod = run_pass(logging_pass("high", log, 4), mod, ctx);
  CHECK(log.str() == "high");
}

TEST_CASE("a pass the context lists as required is not asked about by should_run") {
  EventLog log;
  InstrumentedPassContext ctx{{.required = {"t"}},
                              RecordingInstrument{.id = "1", .log = log, .skip = "t"}};
  IRModule mod = sample_module();
  mod = run_pass(logging_pass("t", log), mod, ctx);
  CHECK(log.str() == "1rb t 1ra");
}

TEST_CASE("class passes of every kind run through run_pass") {
  IRModule mod = sample_module();
  PassContext ctx;
  CHECK(run_pass(ClassPass{}, mod, ctx).same_as(mod));
  CHECK(run_pass(CallablePass{}, mod, ctx).same_as(mod));
  CHECK(run_pass(GraphFunctionPass{}, mod, ctx).same_as(mod));
  CHECK(run_pass(TensorFunctionPass{}, mod, ctx).same_as(mod));
}

TEST_CASE("run_pass without a context uses PassContext::current()") {
  EventLog log;
  InstrumentedPassContext ctx{{}, RecordingInstrument{.id = "1", .log = log}};
  auto scope = ctx.enter();
  IRModule mod = sample_module();
  mod = run_pass(logging_pass("t", log), mod);
  CHECK(log.str() == "1enter 1sr 1rb t 1ra");
}

TEST_CASE("an error about a node reports the pass, the message and the node's location") {
  const Expr offending = expr_with_span();
  const IRModule mod = sample_module();
  PassContext ctx;
  try {
    run_pass(NodeErrorPass{offending}, mod, ctx);
    FAIL("no error");
  } catch (const PassError& error) {
    CHECK(error.pass_name() == "NodeErrorPass");
    CHECK(error.message() == "this node is ill-typed");
    CHECK(error.location() == "  at input.ctir:3:14");
    CHECK(std::string(error.what()) ==
          "Error in pass NodeErrorPass: this node is ill-typed\n  at input.ctir:3:14");
    CHECK_THROWS_AS(std::rethrow_exception(error.original()), NodeError);
  }
}

namespace {
std::string print_for_test(const ObjectRef& root, const ObjectRef& node) {
  return std::string("<") + std::string(root->dynamic_type_key()) + " with " +
         std::string(node->dynamic_type_key()) + " marked>";
}
} // namespace

TEST_CASE("an installed error printer adds the printed IR around the node") {
  const pass_error_printer_fn previous = set_pass_error_printer(&print_for_test);
  const Expr offending = expr_with_span();
  const IRModule mod = sample_module();
  SUBCASE("without instruments the node is its own root") {
    PassContext ctx;
    const std::string message = error_of([&] { run_pass(NodeErrorPass{offending}, mod, ctx); });
    CHECK(contains(message, "  at input.ctir:3:14\n<ir.IntImm with ir.IntImm marked>"));
  }
  SUBCASE("with an instrument watching failures the pass's input module is the root") {
    InstrumentedPassContext ctx{{}, RecordingInstrument{.id = "1", .log = EventLog()}};
    const std::string message = error_of([&] { run_pass(NodeErrorPass{offending}, mod, ctx); });
    CHECK(contains(message, "<ir.IRModule with ir.IntImm marked>"));
  }
  set_pass_error_printer(previous);
}

TEST_CASE("an error crossing nested sequentials is reported once, by the innermost pass") {
  EventLog log;
  const auto inner = sequential(logging_pass("a", log), throwing_pass("broken", log));
  const auto outer = sequential(PassInfo{.name = "outer"}, logging_pass("b", log), inner);
  const IRModule mod = sample_module();
  InstrumentedPassContext ctx{{},
                              RecordingInstrument{.id = "1", .log = log, .log_should_run = false}};
  std::string message;
  try {
    outer(mod, ctx);
  } catch (const PassError& error) {
    message = error.what();
    CHECK(error.pass_name() == "broken");
  }
  CHECK(message == "Error in pass broken: just a dummy error");
  // Every enclosing pass is told it failed, innermost first.
  CHECK(log.str() == "1rb 1rb b 1ra 1rb 1rb a 1ra 1rb broken 1raf 1raf 1raf");
}

TEST_CASE("an exception not derived from std::exception is reported as unknown") {
  const auto odd = make_module_pass("odd", 0, [](IRModule) -> IRModule { throw 42; });
  PassContext ctx;
  CHECK(error_of([&] { run_pass(odd, IRModule(), ctx); }) ==
        "Error in pass odd: unknown exception (not derived from std::exception)");
}

TEST_CASE("a failing run_after_pass_failed hook is recorded, and the pass error still wins") {
  EventLog log;
  InstrumentedPassContext ctx{{}, RecordingInstrument{.id = "1", .log = log, .throw_in = "raf"}};
  CHECK(error_of([&] { run_pass(throwing_pass("t", log), sample_module(), ctx); }) ==
        "Error in pass t: just a dummy error");
  const std::vector<Diagnostic> diagnostics = ctx.diagnostics();
  REQUIRE(diagnostics.size() == 1);
  CHECK(contains(diagnostics[0].message,
                 "instrument PI1 failed in run_after_pass_failed of pass t: dummy error in raf"));
}
