// Tests of ctir/pass/instruments/trace.hpp: pass runs as Chrome trace events.
#include <ctir/pass/instruments/trace.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <json_checker.hpp>
#include <pass_testing.hpp>

#include <cstddef>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// The trace events of `json`, checked for the fields every complete event must have.
std::vector<JsonValue> checked_events(const std::string& json) {
  const JsonValue trace = parse_json(json);
  REQUIRE(trace.kind == JsonValue::Kind::object);
  CHECK(trace["displayTimeUnit"].string == "ms");
  const JsonValue& events = trace["traceEvents"];
  REQUIRE(events.kind == JsonValue::Kind::array);
  for (const JsonValue& event : events.array) {
    CHECK(event["ph"].string == "X");
    CHECK(event["cat"].string == "pass");
    CHECK(event["name"].kind == JsonValue::Kind::string);
    CHECK(event["ts"].number >= 0);
    CHECK(event["dur"].number >= 0);
    CHECK(event["pid"].number == 1);
    CHECK(event["tid"].number == 1);
    CHECK(event["args"]["opt_level"].kind == JsonValue::Kind::number);
  }
  return events.array;
}

/// Whether the run of `inner` lies within the run of `outer`.
bool contains_interval(const JsonValue& outer, const JsonValue& inner) {
  const double begin = outer["ts"].number;
  const double end = begin + outer["dur"].number;
  return inner["ts"].number >= begin && inner["ts"].number + inner["dur"].number <= end;
}

} // namespace

TEST_CASE("the trace of a nested pipeline is valid JSON, one event per run, nested intervals") {
  EventLog log;
  const auto pipeline = sequential(PassInfo{.name = "O2", .opt_level = 2}, logging_pass("A", log),
                                   sequential(logging_pass("B", log, 1)), logging_pass("C", log));
  TraceInstrument trace;
  PassContext ctx{{.instruments = {trace}}};
  {
    auto scope = ctx.enter();
    pipeline(sample_module(), ctx);
  }
  // The events outlive the context: a trace is written after the run.
  const std::vector<JsonValue> events = checked_events(trace.json());
  REQUIRE(events.size() == 5);
  CHECK(events[0]["name"].string == "O2");
  CHECK(events[0]["args"]["opt_level"].number == 2);
  CHECK(events[1]["name"].string == "A");
  CHECK(events[2]["name"].string == "sequential");
  CHECK(events[3]["name"].string == "B");
  CHECK(events[3]["args"]["opt_level"].number == 1);
  CHECK(events[4]["name"].string == "C");
  for (std::size_t i = 1; i < events.size(); ++i) {
    CHECK(contains_interval(events[0], events[i]));
    CHECK_FALSE(events[i]["args"].has("failed"));
  }
  CHECK(contains_interval(events[2], events[3]));
  // Siblings follow each other.
  CHECK(events[2]["ts"].number >= events[1]["ts"].number + events[1]["dur"].number);
  CHECK(events[4]["ts"].number >= events[2]["ts"].number + events[2]["dur"].number);
  CHECK(trace.events()[3].depth == 2);
  CHECK(log.str() == "A B C");
}

TEST_CASE("a run that throws is traced as failed, and its sequential with it") {
  EventLog log;
  TraceInstrument trace;
  PassContext ctx{{.instruments = {trace}}};
  const auto pipeline = sequential(logging_pass("A", log), throwing_pass("Broken", log));
  CHECK_THROWS_AS(pipeline(sample_module(), ctx), PassError);
  const std::vector<JsonValue> events = checked_events(trace.json());
  REQUIRE(events.size() == 3);
  CHECK(events[0]["args"]["failed"].boolean);
  CHECK_FALSE(events[1]["args"].has("failed"));
  CHECK(events[2]["name"].string == "Broken");
  CHECK(events[2]["args"]["failed"].boolean);
}

TEST_CASE("clear forgets the events; an empty trace is still a valid trace file") {
  EventLog log;
  TraceInstrument trace;
  PassContext ctx{{.instruments = {trace}}};
  logging_pass("A", log)(sample_module(), ctx);
  CHECK(trace.events().size() == 1);
  trace.clear();
  CHECK(trace.events().empty());
  CHECK(checked_events(trace.json()).empty());
  CHECK(trace.json() == "{\"traceEvents\":[\n],\"displayTimeUnit\":\"ms\"}\n");
}

TEST_CASE("pass names are written as JSON strings, quotes and control characters escaped") {
  CHECK(detail::json_string("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
  EventLog log;
  TraceInstrument trace;
  PassContext ctx{{.instruments = {trace}}};
  logging_pass("odd \"name\"", log)(sample_module(), ctx);
  const std::vector<JsonValue> events = checked_events(trace.json());
  REQUIRE(events.size() == 1);
  CHECK(events[0]["name"].string == "odd \"name\"");
}
