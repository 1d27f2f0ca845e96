// Tests of ctir/passes/unroll_loop.hpp: loops replaced by copies of their body.
#include <ctir/passes/unroll_loop.hpp>

#include <ctir/pass/error.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {
PassContext with_max_extent(int max_extent) {
  PassContext ctx{{}};
  ctx.set_config(passes::unroll_max_extent_key, max_extent);
  return ctx;
}
} // namespace

TEST_CASE("UnrollLoop meets the laws of its golden cases") {
  check_golden_laws("unroll_loop", passes::UnrollLoop{}, {.min_runs = 9});
}

TEST_CASE("UnrollLoop up to extent 8 keeps what every golden function computes") {
  int compared = 0;
  for (const GoldenCase& c : golden_cases("unroll_loop")) {
    CAPTURE(c.name);
    compared += check_same_behaviour(c.input, passes::UnrollLoop{}(c.input, with_max_extent(8)));
  }
  CHECK(compared >= 9);
}

TEST_CASE("UnrollLoop unrolls constant loops up to the configured extent") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(4), int32]) {
  for %i in range(0, 2) {
    %A[%i] = 1;
  }
  for %j in range(0, 3) {
    %A[%j] = 2;
  }
}
)");
  const IRModule expected = parse_module(R"(
prim @f(%A: Tensor[(4), int32]) {
  %A[0] = 1;
  %A[1] = 1;
  for %j in range(0, 3) {
    %A[%j] = 2;
  }
}
)");
  CHECK_NOTHROW(assert_structural_equal(passes::UnrollLoop{}(mod, with_max_extent(2)), expected));
  // The default, 0, unrolls only loops marked unroll.
  CHECK(passes::UnrollLoop{}(mod).same_as(mod));
}

TEST_CASE("UnrollLoop rejects an unroll loop with symbolic bounds, naming the pass") {
  const IRModule mod = parse_module(R"(
prim @f[%n](%A: Tensor[(%n), int32]) {
  for %i in unroll(0, %n) {
    %A[%i] = 1;
  }
}
)");
  try {
    (void)passes::UnrollLoop{}(mod);
    FAIL("expected an error");
  } catch (const Error& e) {
    const std::string message = e.what();
    CHECK(message.find("UnrollLoop") != std::string::npos);
    CHECK(message.find("not integer literals") != std::string::npos);
  }
}

TEST_CASE("UnrollLoop refuses to unroll a loop into millions of statements") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(4), int32]) {
  for %i in unroll(0, 100000000) {
    %A[0] = 1;
  }
}
)");
  CHECK_THROWS_WITH_AS((void)passes::UnrollLoop{}(mod), doctest::Contains("would make more than"),
                       Error);
}

TEST_CASE("the UnrollLoop config key is registered as an int defaulting to 0") {
  PassContext ctx{{}};
  CHECK(ctx.config<int>(passes::unroll_max_extent_key) == 0);
  CHECK_THROWS_AS(ctx.set_config(passes::unroll_max_extent_key, ConfigValue(std::string("x"))),
                  ConfigError);
}

TEST_CASE("UnrollLoop is registered by name with opt_level 2") {
  REQUIRE(PassRegistry::global().contains("UnrollLoop"));
  CHECK(PassRegistry::global().create("UnrollLoop").info().opt_level == 2);
  CHECK(passes::UnrollLoop::info().opt_level == 2);
}
