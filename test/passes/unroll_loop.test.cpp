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
PassContext strict_context() {
  PassContext ctx{{}};
  ctx.set_config(passes::unroll_strict_key, true);
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

TEST_CASE("UnrollLoop leaves an unroll loop with symbolic bounds as it is") {
  const IRModule mod = parse_module(R"(
prim @f[%n](%A: Tensor[(%n), int32]) {
  for %i in unroll(0, %n) {
    %A[%i] = 1;
  }
}
)");
  CHECK(passes::UnrollLoop{}(mod).same_as(mod));
}

TEST_CASE("strict UnrollLoop rejects an unroll loop with symbolic bounds, naming the loop") {
  const IRModule mod = parse_module(R"(
prim @f[%n](%A: Tensor[(%n), int32]) {
  for %i in unroll(0, %n) {
    %A[%i] = 1;
  }
}
)",
                                    "loops.ctir");
  try {
    (void)passes::UnrollLoop{}(mod, strict_context());
    FAIL("expected an error");
  } catch (const PassError& e) {
    CHECK(e.pass_name() == "UnrollLoop");
    const std::string message = e.what();
    CHECK(message.find("UnrollLoop cannot unroll loop %i: its bounds are not integer literals "
                       "(give it literal bounds, run Simplify first to fold constant ones, or "
                       "make it a serial loop)") != std::string::npos);
    CHECK(message.find("at loops.ctir:3:3") != std::string::npos);
  }
}

TEST_CASE("UnrollLoop leaves a loop that would make millions of statements as it is") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(4), int32]) {
  for %i in unroll(0, 100000000) {
    %A[0] = 1;
  }
}
)");
  CHECK(passes::UnrollLoop{}(mod).same_as(mod));
  CHECK_THROWS_WITH_AS((void)passes::UnrollLoop{}(mod, strict_context()),
                       doctest::Contains("UnrollLoop cannot unroll loop %i: its 100000000 "
                                         "iterations would make more than 1048576 statements"),
                       PassError);
}

TEST_CASE("UnrollLoop counts the iterations of loops with extreme int64 bounds exactly") {
  // INT64_MIN to INT64_MAX: 2^64 - 1 iterations, more than an int64 holds.
  const IRModule full = parse_module(R"(
prim @f(%A: Tensor[(4), int64]) {
  for %i in unroll(-9223372036854775808i64, 9223372036854775807i64) {
    %A[0] = %i;
  }
}
)");
  CHECK(passes::UnrollLoop{}(full).same_as(full));
  CHECK_THROWS_WITH_AS((void)passes::UnrollLoop{}(full, strict_context()),
                       doctest::Contains("its 18446744073709551615 iterations would make more "
                                         "than 1048576 statements"),
                       PassError);
  CHECK(passes::UnrollLoop{}(full, with_max_extent(1 << 30)).same_as(full));
  // An empty range at the extremes is no iteration at all.
  const IRModule empty = parse_module(R"(
prim @f(%A: Tensor[(4), int64]) {
  for %i in unroll(9223372036854775807i64, -9223372036854775808i64) {
    %A[0] = %i;
  }
}
)");
  CHECK_NOTHROW(assert_structural_equal(passes::UnrollLoop{}(empty), parse_module(R"(
prim @f(%A: Tensor[(4), int64]) {
}
)")));
  // The last iterations below INT64_MAX unroll to their values.
  const IRModule top = parse_module(R"(
prim @f(%A: Tensor[(4), int64]) {
  for %i in unroll(9223372036854775805i64, 9223372036854775807i64) {
    %A[0] = %i;
  }
}
)");
  CHECK_NOTHROW(assert_structural_equal(passes::UnrollLoop{}(top), parse_module(R"(
prim @f(%A: Tensor[(4), int64]) {
  %A[0] = 9223372036854775805i64;
  %A[0] = 9223372036854775806i64;
}
)")));
}

TEST_CASE("the UnrollLoop config key is registered as an int defaulting to 0") {
  PassContext ctx{{}};
  CHECK(ctx.config<int>(passes::unroll_max_extent_key) == 0);
  CHECK_THROWS_AS(ctx.set_config(passes::unroll_max_extent_key, ConfigValue(std::string("x"))),
                  ConfigError);
}

TEST_CASE("the strict UnrollLoop config key is registered as a bool defaulting to false") {
  PassContext ctx{{}};
  CHECK_FALSE(ctx.config<bool>(passes::unroll_strict_key));
  CHECK_THROWS_AS(ctx.set_config(passes::unroll_strict_key, ConfigValue(4)), ConfigError);
}

TEST_CASE("UnrollLoop is registered by name with opt_level 2") {
  REQUIRE(PassRegistry::global().contains("UnrollLoop"));
  CHECK(PassRegistry::global().create("UnrollLoop").info().opt_level == 2);
  CHECK(passes::UnrollLoop::info().opt_level == 2);
}
