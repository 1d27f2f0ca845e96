// Tests of ctir/passes/passes.hpp: every standard pass is reachable by name and in pipelines.
#include <ctir/passes/passes.hpp>

#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("every standard pass is registered with its opt_level") {
  const std::vector<std::pair<std::string, int>> expected = {{"Simplify", 0},
                                                             {"RemoveNoOp", 0},
                                                             {"UnrollLoop", 2},
                                                             {"FlattenBuffer", 0},
                                                             {"DeadCodeElimination", 1},
                                                             {"InferType", 0},
                                                             {"SimplifyExpr", 0},
                                                             {"FoldConstant", 2},
                                                             {"EliminateCommonSubexpr", 3},
                                                             {"RemoveUnusedFunctions", 1},
                                                             {"ToANormalForm", 1},
                                                             {"LegalizeOps", 0}};
  for (const auto& entry : expected) {
    const std::string& name = entry.first;
    const int level = entry.second;
    CAPTURE(name);
    REQUIRE(PassRegistry::global().contains(name));
    CHECK(PassRegistry::global().create(name).info().opt_level == level);
  }
}

TEST_CASE("unroll, simplify and remove no-ops compose in a static sequential") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(2, 2), int32]) {
  for %i in unroll(0, 2) {
    for %j in unroll(0, 2) {
      if (%i == %j) {
        %A[%i, %j] = %A[%i, %j];
      } else {
        %A[%i, %j] = %i * 2 + %j * 1;
      }
    }
  }
}
)");
  const IRModule expected = parse_module(R"(
prim @f(%A: Tensor[(4), int32]) {
  %A[1] = 1;
  %A[2] = 2;
}
)");
  const auto pipeline = sequential(passes::UnrollLoop{}, passes::Simplify{}, passes::RemoveNoOp{},
                                   passes::FlattenBuffer{});
  const IRModule out = pipeline(mod);
  CHECK_NOTHROW(assert_structural_equal(out, expected));
  CHECK(check_same_behaviour(mod, out, true) == 3);
}

TEST_CASE("every standard pass keeps what well-typed generated modules compute") {
  const std::vector<IRModule> typed = well_typed_generated_modules(30);
  for (const char* name :
       {"InferType", "SimplifyExpr", "FoldConstant", "EliminateCommonSubexpr",
        "DeadCodeElimination", "ToANormalForm", "RemoveUnusedFunctions", "LegalizeOps", "Simplify",
        "UnrollLoop", "RemoveNoOp", "FlattenBuffer"}) {
    CAPTURE(name);
    REQUIRE(PassRegistry::global().contains(name));
    const Pass pass = PassRegistry::global().create(name);
    int compared = 0;
    for (const IRModule& mod : typed) {
      CAPTURE(print(mod));
      PassContext ctx{{.opt_level = 3, .config = {{"tensor.UnrollLoop.max_extent", 4}}}};
      const PassContextScope scope = ctx.enter();
      IRModule out;
      try {
        out = pass(mod, ctx);
      } catch (const PassError& e) {
        // The one rejection a well-typed module may earn: a loop marked unroll whose
        // bounds are not constants.
        CHECK_MESSAGE(e.pass_name() == "UnrollLoop", std::string(e.what()));
        continue;
      }
      compared += check_same_behaviour(mod, out, true);
    }
    CHECK(compared >= 40);
  }
}
