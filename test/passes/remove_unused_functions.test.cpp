// Tests of ctir/passes/remove_unused_functions.hpp: functions no entry reaches are dropped.
#include <ctir/passes/remove_unused_functions.hpp>

#include <ctir/pass/error.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {
PassContext with_entries(const char* entries) {
  PassContext ctx{{}};
  ctx.set_config(passes::entry_functions_key, entries);
  return ctx;
}

const char* const three_functions = R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  exp(%x)
}
def @init(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  @helper(%x)
}
def @helper(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  negative(%x)
}
)";
} // namespace

TEST_CASE("RemoveUnusedFunctions meets the laws of its golden cases") {
  check_golden_laws("remove_unused_functions", passes::RemoveUnusedFunctions{}, {.min_runs = 9});
}

TEST_CASE("RemoveUnusedFunctions keeps what the configured entry functions reach") {
  const IRModule mod = parse_module(three_functions);
  const IRModule out = passes::RemoveUnusedFunctions{}(mod, with_entries(" init "));
  CHECK(out.size() == 2);
  CHECK(out.contains("init"));
  CHECK(out.contains("helper"));
  const IRModule both = passes::RemoveUnusedFunctions{}(mod, with_entries("@main,init"));
  CHECK(both.same_as(mod));
  CHECK(passes::RemoveUnusedFunctions{}(mod).size() == 1);
}

TEST_CASE("RemoveUnusedFunctions names an entry function the module lacks") {
  const IRModule mod = parse_module(three_functions);
  CHECK_THROWS_WITH_AS(passes::RemoveUnusedFunctions{}(mod, with_entries("main,start")),
                       doctest::Contains("entry function @start is not in the module (which has "
                                         "@main, @init, @helper)"),
                       PassError);
  CHECK_THROWS_WITH_AS(passes::RemoveUnusedFunctions{}(IRModule{}, with_entries("main")),
                       doctest::Contains("@main is not in the module (which is empty)"), PassError);
  CHECK_THROWS_WITH_AS(passes::RemoveUnusedFunctions{}(mod, with_entries("main,,init")),
                       doctest::Contains("has an empty name"), PassError);
}

TEST_CASE("RemoveUnusedFunctions leaves a module without @main alone while no entry is set") {
  const IRModule mod = parse_module(R"(
def @init(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %x
}
def @helper(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  negative(%x)
}
)");
  CHECK(passes::RemoveUnusedFunctions{}(mod).same_as(mod));
  CHECK(passes::RemoveUnusedFunctions{}(mod, with_entries("init")).size() == 1);
}

TEST_CASE("the entry functions config key is a string defaulting to main") {
  PassContext ctx{{}};
  CHECK(ctx.config<std::string>(passes::entry_functions_key) == "main");
  CHECK_THROWS_AS(ctx.set_config(passes::entry_functions_key, ConfigValue(3)), ConfigError);
  CHECK(passes::parse_entry_functions(" @a , b") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("RemoveUnusedFunctions is registered by name with opt_level 1") {
  REQUIRE(PassRegistry::global().contains("RemoveUnusedFunctions"));
  CHECK(PassRegistry::global().create("RemoveUnusedFunctions").info().opt_level == 1);
  CHECK(passes::RemoveUnusedFunctions::info().opt_level == 1);
}
