// Tests of ctir/passes/remove_no_op.hpp: statements that do nothing are removed.
#include <ctir/passes/remove_no_op.hpp>

#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("RemoveNoOp meets the laws of its golden cases") {
  check_golden_laws("remove_no_op", passes::RemoveNoOp{}, {.min_runs = 6});
}

TEST_CASE("RemoveNoOp empties a function whose whole body does nothing") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(4), int32]) {
  for %i in range(0, 4) {
    %A[%i] = %A[%i];
  }
}
)");
  const PrimFunc out = passes::remove_no_op(downcast<PrimFuncNode>(mod.lookup("f")));
  CHECK(out->body->seq.empty());
}

TEST_CASE("RemoveNoOp is registered by name with opt_level 0") {
  REQUIRE(PassRegistry::global().contains("RemoveNoOp"));
  CHECK(PassRegistry::global().create("RemoveNoOp").info().opt_level == 0);
  CHECK(passes::RemoveNoOp::info().opt_level == 0);
}
