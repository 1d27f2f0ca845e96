// Tests of ctir/runtime/pass/sequential.hpp: sequentials of Pass objects, with required
// passes resolved through the pipeline and the registry when the sequential is made.
#include <ctir/runtime/pass/sequential.hpp>

#include <ctir/pass/module_pass.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// A module pass that logs its name, with the given requirements and effects.
Pass logged(EventLog log, PassInfo info) {
  const std::string name(info.name);
  return make_module_pass(info, [log, name](IRModule mod) {
    log.add(name);
    return mod;
  });
}

/// A registry with A, B (requires A), C (requires B), Mutate (invalidates A).
struct SequentialFixture {
  EventLog log;
  PassRegistry registry;
  SequentialFixture() {
    registry.add(logged(log, {.name = "A"}));
    registry.add(logged(log, {.name = "B", .required = {"A"}}));
    registry.add(logged(log, {.name = "C", .required = {"B"}}));
    registry.add(logged(log, {.name = "Mutate", .invalidates = {"A"}}));
    registry.add(logged(log, {.name = "Typer", .establishes = {"types"}}));
  }
  Pass make(std::vector<std::string> names) const {
    std::vector<Pass> passes;
    for (const std::string& name : names) {
      passes.push_back(registry.create(name));
    }
    return sequential(std::move(passes), {.name = "sequential"}, registry);
  }
};

} // namespace

TEST_CASE("a transitive chain C -> B -> A runs A and B once each, taken from the registry") {
  SequentialFixture f;
  const Pass pipeline = f.make({"C"});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(f.log.str() == "A B C");
  const auto* seq = pipeline.target<detail::RuntimeSequential>();
  REQUIRE(seq != nullptr);
  CHECK(seq->providers().size() == 2);
}

TEST_CASE("a required pass in the pipeline is preferred to the registry, and skipped while "
          "valid") {
  SequentialFixture f;
  EventLog mine;
  const Pass my_a = logged(mine, {.name = "A"});
  const Pass pipeline =
      sequential({my_a, f.registry.create("C"), f.registry.create("C")}, {.name = "s"}, f.registry);
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(mine.str() == "A");
  CHECK(f.log.str() == "B C C");
}

TEST_CASE("a pass that invalidates A makes A run again before the next dependant") {
  SequentialFixture f;
  const Pass pipeline = f.make({"C", "Mutate", "B", "C"});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(f.log.str() == "A B C Mutate A B C");
}

TEST_CASE("requirements on established results resolve to the establishing pass") {
  SequentialFixture f;
  const Pass needs = logged(f.log, {.name = "NeedsTypes", .required = {"types"}});
  const Pass pipeline = sequential({f.registry.create("Typer"), needs}, {.name = "s"}, f.registry);
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(f.log.str() == "Typer NeedsTypes");
}

TEST_CASE("a requirement nobody provides is an error naming the pass and the nearest names") {
  SequentialFixture f;
  const Pass needy = logged(f.log, {.name = "Needy", .required = {"Mutat"}});
  CHECK(error_of([&] { sequential({needy}, {.name = "s"}, f.registry); }) ==
        "ctir: pass 'Needy' requires 'Mutat', which no pass in this pipeline provides and no "
        "registered pass is named; did you mean 'Mutate'?");
}

TEST_CASE("a cycle of requirements is an error when the sequential is made") {
  SequentialFixture f;
  f.registry.add(logged(f.log, {.name = "X", .required = {"Y"}}));
  f.registry.add(logged(f.log, {.name = "Y", .required = {"Z"}}));
  f.registry.add(logged(f.log, {.name = "Z", .required = {"X"}}));
  CHECK(error_of([&] {
          f.make({"A", "X"});
        }) == "ctir: passes require each other in a cycle: X -> Y -> Z -> X");
}

TEST_CASE("nested runtime sequentials share valid results; a nested sequential is no provider") {
  SequentialFixture f;
  const Pass inner = sequential({f.registry.create("Mutate"), f.registry.create("B")},
                                {.name = "inner"}, f.registry);
  const Pass outer = sequential({f.registry.create("C"), inner, f.registry.create("C")},
                                {.name = "outer"}, f.registry);
  IRModule mod = sample_module();
  mod = outer(mod);
  CHECK(f.log.str() == "A B C Mutate A B C");
  const Pass needs_inner = logged(f.log, {.name = "NeedsInner", .required = {"inner"}});
  CHECK(error_of([&] {
          sequential({inner, needs_inner}, {.name = "s"}, f.registry);
        }).starts_with("ctir: pass 'NeedsInner' requires 'inner'"));
}

TEST_CASE("a disabled pass is skipped; its requirements are not made") {
  SequentialFixture f;
  const Pass pipeline = f.make({"C"});
  IRModule mod = sample_module();
  mod = pipeline(mod, PassContext{{.disabled = {"C"}}});
  CHECK(f.log.str() == "");
}

TEST_CASE("a provider vetoed by an instrument stays invalid and is asked again") {
  SequentialFixture f;
  const Pass pipeline = f.make({"B", "B"});
  IRModule mod = sample_module();
  PassContext ctx{
      {.instruments = {RecordingInstrument{.id = "v", .log = EventLog(), .skip = "A"}}}};
  mod = pipeline(mod, ctx);
  CHECK(f.log.str() == "B B");
}
