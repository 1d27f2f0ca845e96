// Tests of ctir/passes/simplify.hpp: constant folding and identities in tensor-level code.
#include <ctir/passes/simplify.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <cstdint>
#include <limits>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("Simplify meets the laws of its golden cases") {
  check_golden_laws("simplify", passes::Simplify{}, {.min_runs = 9});
}

TEST_CASE("Simplify returns the very same function when nothing simplifies") {
  const IRModule mod = parse_module(R"(
prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
)");
  const PrimFunc f = downcast<PrimFuncNode>(mod.lookup("add_one"));
  CHECK(passes::simplify(f).same_as(f));
}

TEST_CASE("Simplify folds scalar expressions with the interpreter's semantics") {
  const Var x = Var::make("x", DataType::int32());
  const auto folded = [](const PrimExpr& e) { return passes::simplify(e); };
  CHECK(structural_equal(folded(PrimExpr(-7) / 2), PrimExpr(-4)));
  CHECK(structural_equal(folded(PrimExpr(-7) % 2), PrimExpr(1)));
  CHECK(structural_equal(folded(x * 0), PrimExpr(0)));
  CHECK(structural_equal(folded(x - x), PrimExpr(0)));
  CHECK(structural_equal(folded(cast(DataType::int8(), PrimExpr(300))),
                         make_const(DataType::int8(), 44)));
  // Not folded: a division by zero, and an identity that would change the dtype.
  CHECK(folded(PrimExpr(1) / 0).is<DivNode>());
  const PrimExpr wide = IntImm::make(0, DataType::int64()) + x;
  CHECK(folded(wide).same_as(wide));
  // x + 0 with a float operand is left for the interpreter to reject.
  const PrimExpr mixed = x + 0.0f;
  CHECK(folded(mixed).same_as(mixed));
}

TEST_CASE("Simplify folds integer overflow by wrapping to the width of the dtype") {
  const auto folded = [](const PrimExpr& e) { return passes::simplify(e); };
  const auto i64 = [](std::int64_t v) { return PrimExpr(IntImm::make(v, DataType::int64())); };
  const auto i8 = [](std::int64_t v) { return PrimExpr(IntImm::make(v, DataType::int8())); };
  constexpr std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  CHECK(structural_equal(folded(i64(max64) + i64(1)), i64(min64)));
  CHECK(structural_equal(folded(i64(min64) - i64(1)), i64(max64)));
  CHECK(structural_equal(folded(i64(min64) * i64(-1)), i64(min64)));
  CHECK(structural_equal(folded(i64(max64) * i64(max64)), i64(1)));
  CHECK(structural_equal(folded(-i64(min64)), i64(min64)));
  CHECK(structural_equal(folded(i64(min64) / i64(-1)), i64(min64)));
  CHECK(structural_equal(folded(i64(min64) % i64(-1)), i64(0)));
  CHECK(structural_equal(folded(i64(min64) / i64(max64)), i64(-2)));
  CHECK(structural_equal(folded(PrimExpr(2147483647) + 1), PrimExpr(-2147483647 - 1)));
  CHECK(structural_equal(folded(i8(127) + i8(1)), i8(-128)));
  CHECK(structural_equal(folded(i8(-128) / i8(-1)), i8(-128)));
  CHECK(structural_equal(folded(-i8(-128)), i8(-128)));
  // Division by zero stays for run time, even at the extremes.
  CHECK(folded(i64(min64) / i64(0)).is<DivNode>());
}

TEST_CASE("Simplify counts the iterations of loops with extreme int64 bounds without overflow") {
  const IRModule full = parse_module(R"(
prim @f(%A: Tensor[(1), int64]) {
  for %i in range(-9223372036854775808i64, 9223372036854775807i64) {
    %A[0] = %i;
  }
}
)");
  const auto function = [](const IRModule& mod) { return downcast<PrimFuncNode>(mod.lookup("f")); };
  // 2^64 - 1 iterations is not one (the difference wraps to -1 in int64).
  CHECK(passes::simplify(function(full)).same_as(function(full)));
  const IRModule last = parse_module(R"(
prim @f(%A: Tensor[(1), int64]) {
  for %i in range(9223372036854775806i64, 9223372036854775807i64) {
    %A[0] = %i + 1i64;
  }
}
)");
  CHECK_NOTHROW(assert_structural_equal(passes::simplify(function(last)), function(parse_module(R"(
prim @f(%A: Tensor[(1), int64]) {
  %A[0] = 9223372036854775807i64;
}
)"))));
  const IRModule empty = parse_module(R"(
prim @f(%A: Tensor[(1), int64]) {
  for %i in range(9223372036854775807i64, -9223372036854775808i64) {
    %A[0] = %i;
  }
}
)");
  CHECK(passes::simplify(function(empty))->body->seq.empty());
}

TEST_CASE("Simplify is registered by name with opt_level 0") {
  REQUIRE(PassRegistry::global().contains("Simplify"));
  const Pass p = PassRegistry::global().create("Simplify");
  CHECK(p.info().opt_level == 0);
  CHECK(passes::Simplify::info().opt_level == 0);
  CHECK_FALSE(p.info().description.empty());
}
