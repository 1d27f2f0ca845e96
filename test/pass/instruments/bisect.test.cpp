// Tests of ctir/pass/instruments/bisect.hpp: running only the first N optional passes.
#include <ctir/pass/instruments/bisect.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <sstream>
#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("bisection with N = 0, 1, 2 runs the first N passes and reports the last one run") {
  EventLog log;
  const auto pipeline =
      sequential(logging_pass("A", log), logging_pass("B", log), logging_pass("C", log));

  SUBCASE("N = 0 runs none") {
    InstrumentedPassContext ctx{{}, BisectInstrument(0)};
    static_cast<void>(pipeline(sample_module(), ctx));
    CHECK(log.str().empty());
    const BisectInstrument& bisect = ctx.instrument<0>();
    CHECK_FALSE(bisect.last_run().has_value());
    CHECK(bisect.count() == 3);
    CHECK(bisect.report() == "ran 0 of 3 optional passes (limit 0); no optional pass ran; the "
                             "first pass not run was (1) A");
  }
  SUBCASE("N = 1 runs A") {
    InstrumentedPassContext ctx{{}, BisectInstrument(1)};
    static_cast<void>(pipeline(sample_module(), ctx));
    CHECK(log.str() == "A");
    const BisectInstrument& bisect = ctx.instrument<0>();
    REQUIRE(bisect.last_run().has_value());
    CHECK(bisect.last_run()->name == "A");
    CHECK(bisect.last_run()->index == 1);
    CHECK(bisect.report() == "ran 1 of 3 optional passes (limit 1); the last pass run was (1) A; "
                             "the first pass not run was (2) B");
  }
  SUBCASE("N = 2 runs A and B, as a runtime instrument") {
    BisectInstrument bisect(2);
    PassContext ctx{{.instruments = {bisect}}};
    static_cast<void>(pipeline(sample_module(), ctx));
    CHECK(log.str() == "A B");
    REQUIRE(bisect.last_run().has_value());
    CHECK(bisect.last_run()->name == "B");
    CHECK(bisect.first_skipped()->name == "C");
    REQUIRE(bisect.decisions().size() == 3);
    CHECK(bisect.decisions()[0].allowed);
    CHECK(bisect.decisions()[1].allowed);
    CHECK_FALSE(bisect.decisions()[2].allowed);
  }
}

TEST_CASE("bisection never counts or vetoes the context's required passes or sequentials") {
  EventLog log;
  BisectInstrument bisect(1);
  PassContext ctx{{.required = {"B"}, .instruments = {bisect}}};
  const auto pipeline = sequential(logging_pass("A", log), logging_pass("B", log),
                                   sequential(logging_pass("C", log), logging_pass("D", log)));
  static_cast<void>(pipeline(sample_module(), ctx));
  CHECK(log.str() == "A B");
  CHECK(bisect.count() == 3); // A, C and D
  CHECK(bisect.last_run()->name == "A");
  CHECK(bisect.report() == "ran 1 of 3 optional passes (limit 1); the last pass run was (1) A; "
                           "the first pass not run was (2) C");
}

TEST_CASE("an unlimited bisection counts every optional pass and logs each decision") {
  EventLog log;
  std::ostringstream out;
  BisectInstrument bisect(BisectInstrument::unlimited, {.uncounted = {"sequential"}, .log = &out});
  PassContext ctx{{.instruments = {bisect}}};
  static_cast<void>(
      sequential(logging_pass("A", log), logging_pass("B", log))(sample_module(), ctx));
  CHECK(log.str() == "A B");
  CHECK(out.str() == "BISECT: running pass (1) A\nBISECT: running pass (2) B\n");
  CHECK(bisect.report() == "ran 2 of 2 optional passes (limit none); the last pass run was (2) B");

  std::ostringstream limited_out;
  BisectInstrument limited(1, {.uncounted = {"sequential"}, .log = &limited_out});
  PassContext limited_ctx{{.instruments = {limited}}};
  static_cast<void>(
      sequential(logging_pass("A", log), logging_pass("B", log))(sample_module(), limited_ctx));
  CHECK(limited_out.str() == "BISECT: running pass (1) A\nBISECT: NOT running pass (2) B\n");
}

TEST_CASE("a pass another instrument vetoes is counted but not reported as run") {
  EventLog log;
  BisectInstrument bisect(5);
  RecordingInstrument veto{.id = "v", .log = {}, .skip = "B", .log_should_run = false};
  PassContext ctx{{.instruments = {bisect, veto}}};
  static_cast<void>(
      sequential(logging_pass("A", log), logging_pass("B", log))(sample_module(), ctx));
  CHECK(log.str() == "A");
  CHECK(bisect.count() == 2);
  CHECK(bisect.last_run()->name == "A");
}

TEST_CASE("bisection counts again from 1 when it enters a context") {
  EventLog log;
  BisectInstrument bisect(1);
  PassContext ctx{{.instruments = {bisect}}};
  {
    auto scope = ctx.enter();
    static_cast<void>(logging_pass("A", log)(sample_module()));
    static_cast<void>(logging_pass("B", log)(sample_module()));
  }
  CHECK(log.str() == "A");
  {
    auto scope = ctx.enter();
    static_cast<void>(logging_pass("C", log)(sample_module()));
  }
  CHECK(log.str() == "A C");
  CHECK(bisect.count() == 1);
  static_assert(pass_instrument<BisectInstrument>);
  CHECK(Instrument(bisect).name() == "PassBisect");
}
