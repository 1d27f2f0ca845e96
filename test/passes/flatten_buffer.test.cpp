// Tests of ctir/passes/flatten_buffer.hpp: tensors of tensor-level functions become 1-D.
#include <ctir/passes/flatten_buffer.hpp>

#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("FlattenBuffer meets the laws of its golden cases") {
  check_golden_laws("flatten_buffer", passes::FlattenBuffer{}, {.min_runs = 9, .any_shape = true});
}

TEST_CASE("FlattenBuffer leaves parameters alone when asked to") {
  const IRModule mod = golden_cases("flatten_buffer").back().input; // symbolic.ctir
  const PrimFunc f = downcast<PrimFuncNode>(mod.lookup("f"));
  const PrimFunc out = passes::flatten_buffers(f, false);
  CHECK(out->params[1].same_as(f->params[1]));
  CHECK_FALSE(out.same_as(f)); // the allocation is flattened
}

TEST_CASE("FlattenBuffer keeps a tensor accessed with the wrong rank as it is") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(2, 2), int32]) {
  %A[1] = 0;
}
)");
  CHECK(passes::FlattenBuffer{}(mod).same_as(mod));
  eval::Interpreter interp(mod);
  CHECK_THROWS_AS(interp.call("f", eval::random_inputs(mod, "f", 1)), Error);
}

TEST_CASE("FlattenBuffer is registered by name with opt_level 0 and invalidates InferType") {
  REQUIRE(PassRegistry::global().contains("FlattenBuffer"));
  CHECK(PassRegistry::global().create("FlattenBuffer").info().opt_level == 0);
  CHECK(passes::FlattenBuffer::info().invalidates_result("InferType"));
}
