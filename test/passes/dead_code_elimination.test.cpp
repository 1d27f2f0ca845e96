// Tests of ctir/passes/dead_code_elimination.hpp: unused let bindings are dropped.
#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("DeadCodeElimination meets the laws of its golden cases") {
  check_golden_laws("dead_code_elimination", passes::DeadCodeElimination{}, {.min_runs = 6});
}

TEST_CASE("DeadCodeElimination is registered by name with opt_level 1") {
  REQUIRE(PassRegistry::global().contains("DeadCodeElimination"));
  CHECK(PassRegistry::global().create("DeadCodeElimination").info().opt_level == 1);
}
