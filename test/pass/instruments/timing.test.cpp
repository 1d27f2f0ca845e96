// Tests of ctir/pass/instruments/timing.hpp: the pass timing instrument.
#include <ctir/pass/instruments/timing.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <json_checker.hpp>
#include <pass_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("timing: override the current context's instruments, run A, B, C, render names them; "
          "override with none, render is empty") {
  EventLog log;
  TimingInstrument timing;
  PassContext& ctx = PassContext::current();
  ctx.override_instruments({timing});
  IRModule mod = sample_module();
  mod = logging_pass("A", log)(mod);
  mod = logging_pass("B", log)(mod);
  mod = logging_pass("C", log)(mod);
  const std::string profile = timing.render();
  CHECK(contains(profile, "A "));
  CHECK(contains(profile, "B "));
  CHECK(contains(profile, "C "));
  CHECK(timing.records().size() == 3);
  ctx.override_instruments({});
  mod = logging_pass("A", log)(mod);
  CHECK(timing.render().empty());
  CHECK(log.str() == "A B C A");
}

TEST_CASE("timing as a static instrument nests runs and reports self time and percentages") {
  EventLog log;
  const auto pipeline = sequential(PassInfo{.name = "O2"}, logging_pass("A", log),
                                   sequential(logging_pass("B", log)), logging_pass("C", log));
  InstrumentedPassContext ctx{{}, TimingInstrument{}};
  auto scope = ctx.enter();
  IRModule mod = sample_module();
  mod = pipeline(mod, ctx);
  const TimingInstrument& timing = ctx.instrument<0>();
  REQUIRE(timing.records().size() == 1);
  const TimingInstrument::Record& root = timing.records()[0];
  CHECK(root.name == "O2");
  REQUIRE(root.children.size() == 3);
  CHECK(root.children[0].name == "A");
  CHECK(root.children[1].name == "sequential");
  REQUIRE(root.children[1].children.size() == 1);
  CHECK(root.children[1].children[0].name == "B");
  CHECK(root.children[2].name == "C");
  CHECK(root.self() <= root.total);
  const std::string table = timing.render();
  CHECK(table.starts_with("pass"));
  CHECK(contains(table, "\nO2 "));
  CHECK(contains(table, "\n  A "));
  CHECK(contains(table, "\n  sequential "));
  CHECK(contains(table, "\n    B "));
  CHECK(contains(table, "100.0%"));
}

TEST_CASE("timing marks failed runs and survives runs an instrument left open") {
  EventLog log;
  TimingInstrument timing;
  PassContext ctx{{.instruments = {timing}}};
  const auto pipeline = sequential(logging_pass("A", log), throwing_pass("Broken", log));
  CHECK_THROWS_AS(pipeline(sample_module(), ctx), PassError);
  REQUIRE(timing.records().size() == 1);
  CHECK(timing.records()[0].failed);
  REQUIRE(timing.records()[0].children.size() == 2);
  CHECK_FALSE(timing.records()[0].children[0].failed);
  CHECK(timing.records()[0].children[1].failed);
  CHECK(contains(timing.render(), "Broken (failed)"));
  timing.clear();
  CHECK(timing.render().empty());
}

TEST_CASE("make_timing_instrument fits an options list and renders through the handle") {
  EventLog log;
  const TimingInstrument timing = make_timing_instrument();
  PassContext ctx{{.instruments = {timing}}};
  IRModule mod = sample_module();
  mod = logging_pass("P", log)(mod, ctx);
  REQUIRE(ctx.instruments().size() == 1);
  CHECK(ctx.instruments()[0].target<TimingInstrument>() != nullptr);
  CHECK(ctx.instruments()[0].name() == "PassTiming");
  CHECK(contains(timing.render(), "\nP "));
}

TEST_CASE("the JSON report nests runs with total and self time and percentages") {
  EventLog log;
  const auto pipeline = sequential(PassInfo{.name = "O2"}, logging_pass("A", log),
                                   sequential(logging_pass("B", log)), throwing_pass("X", log));
  TimingInstrument timing;
  PassContext ctx{{.instruments = {timing}}};
  CHECK(parse_json(timing.render_json())["passes"].array.empty());
  CHECK_THROWS_AS(pipeline(sample_module(), ctx), PassError);
  const JsonValue report = parse_json(timing.render_json());
  CHECK(report["unit"].string == "ms");
  REQUIRE(report["passes"].array.size() == 1);
  const JsonValue& root = report["passes"].array[0];
  CHECK(root["pass"].string == "O2");
  CHECK(root["percent_total"].number == 100.0);
  CHECK(root["self"].number <= root["total"].number);
  CHECK(root["failed"].boolean);
  const std::vector<JsonValue>& children = root["children"].array;
  REQUIRE(children.size() == 3);
  CHECK(children[0]["pass"].string == "A");
  CHECK_FALSE(children[0]["failed"].boolean);
  CHECK(children[0]["children"].array.empty());
  CHECK(children[1]["pass"].string == "sequential");
  REQUIRE(children[1]["children"].array.size() == 1);
  CHECK(children[1]["children"].array[0]["pass"].string == "B");
  CHECK(children[2]["pass"].string == "X");
  CHECK(children[2]["failed"].boolean);
  double sum = 0;
  for (const JsonValue& child : children) {
    CHECK(child["percent_parent"].number <= 100.0);
    sum += child["total"].number;
  }
  CHECK(sum <= root["total"].number + 1e-6);
}
