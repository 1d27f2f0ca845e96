// Tests of ctir/passes/passes.hpp: every standard pass is reachable by name and in pipelines.
#include <ctir/passes/passes.hpp>

#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <map>
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

namespace {

/// `%k = add(%k-1, %k-2)`, n bindings: each is used twice, so the result has 2^n paths.
std::string fibonacci_module(int n) {
  std::string text = "def @main(%a: Tensor[(2), float32], %b: Tensor[(2), float32]) -> "
                     "Tensor[(2), float32] {\n";
  std::string older = "%a";
  std::string newer = "%b";
  for (int k = 0; k < n; ++k) {
    text += "  %" + std::to_string(k) + " = add(" + newer + ", " + older + ");\n";
    older = newer;
    newer = "%" + std::to_string(k);
  }
  return text + "  " + newer + "\n}\n";
}

/// n blocks of `%a = add(%p, %x); %b = add(%p, %x); %r = multiply(%a, %b)`, each block's
/// %p the one before's %r: once the twin adds are one, every value is used twice.
std::string twin_blocks_module(int n) {
  std::string text = "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n";
  std::string previous = "%x";
  for (int k = 0; k < n; ++k) {
    const std::string a = "%" + std::to_string(3 * k);
    const std::string b = "%" + std::to_string(3 * k + 1);
    const std::string r = "%" + std::to_string(3 * k + 2);
    text += "  " + a + " = add(" + previous + ", %x);\n";
    text += "  " + b + " = add(" + previous + ", %x);\n";
    text += "  " + r + " = multiply(" + a + ", " + b + ");\n";
    previous = r;
  }
  return text + "  " + previous + "\n}\n";
}

/// The calls of @main by operator name, each distinct call once.
std::map<std::string, int> calls_by_op(const IRModule& mod) {
  std::map<std::string, int> counts;
  walk(mod.find("main"), [&](const Call& call) {
    if (const auto* op = call->op.as<OpNode>()) {
      ++counts[op->name];
    }
  });
  return counts;
}

} // namespace

TEST_CASE("every graph-level pass and the pipeline at -O3 take a DAG of 2^300 paths in stride") {
  // Exponential in the bindings if a pass follows every path; instant if it meets each
  // binding once.
  const IRModule dag = parse_module(fibonacci_module(300));
  const IRModule small = parse_module(fibonacci_module(12));
  PassContext ctx{{.opt_level = 3}};
  const PassContextScope scope = ctx.enter();
  for (const char* name : {"InferType", "SimplifyExpr", "FoldConstant", "EliminateCommonSubexpr",
                           "DeadCodeElimination", "ToANormalForm", "RemoveUnusedFunctions",
                           "LegalizeOps", "DefaultPipeline"}) {
    CAPTURE(name);
    const Pass pass = PassRegistry::global().create(name);
    const IRModule out = pass(dag, ctx);
    if (std::string(name) != "LegalizeOps" && std::string(name) != "DefaultPipeline") {
      CHECK(calls_by_op(out)["add"] == 300);
    }
    CHECK(check_same_behaviour(small, pass(small, ctx)) == 3);
  }
}

TEST_CASE("after EliminateCommonSubexpr, simplifying and dead-code elimination stay linear") {
  const IRModule mod = parse_module(twin_blocks_module(300));
  CHECK(calls_by_op(mod) == std::map<std::string, int>{{"add", 600}, {"multiply", 300}});
  PassContext ctx{{.opt_level = 3}}; // EliminateCommonSubexpr's level
  const PassContextScope scope = ctx.enter();
  const IRModule out =
      parse_pipeline("EliminateCommonSubexpr,SimplifyExpr,DeadCodeElimination")(mod);
  CHECK(calls_by_op(out) == std::map<std::string, int>{{"add", 300}, {"multiply", 300}});
  const IRModule small = parse_module(twin_blocks_module(4));
  CHECK(check_same_behaviour(small, parse_pipeline("DefaultPipeline")(small)) == 3);
}
