// Tests of ctir/passes/simplify_expr.hpp: algebraic identities of graph-level calls.
#include <ctir/passes/simplify_expr.hpp>

#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <cstdint>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("SimplifyExpr meets the laws of its golden cases") {
  check_golden_laws("simplify_expr", passes::SimplifyExpr{}, {.min_runs = 9});
}

TEST_CASE("SimplifyExpr applies only the rules that need no type to an untyped function") {
  // %a has no type: `add(%a, 0f)` might broadcast %a, so it stays; double negation goes.
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Var a = Var::make("a");
  const Op neg = Op::make("negative");
  const Call sum = Call::make(Op::make("add"), {a, FloatImm::make(0.0, DataType::float32())});
  const Function f = Function::make({x}, Let::make(a, x, Call::make(neg, {Call::make(neg, {sum})})),
                                    {}, {}, "main");
  const Function out = passes::simplify_expr(f);
  const auto* let = out->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->body.same_as(sum));
}

TEST_CASE("SimplifyExpr collapses reshapes and transposes of literals and constants") {
  // The types of literals and constants are made on the fly: the rules must hold them.
  const IRModule mod = parse_module(R"(
def @main() {
  %0 = reshape(reshape(const([1f, 2f, 3f, 4f]), newshape=[2, 2]), newshape=[4]);
  %1 = transpose(transpose(const([[1f, 2f], [3f, 4f]])));
  %2 = reshape(2f, newshape=[1]);
  (%0, %1, %2)
}
)");
  const IRModule expected = parse_module(R"(
def @main() {
  %0 = const([1f, 2f, 3f, 4f]);
  %1 = const([[1f, 2f], [3f, 4f]]);
  %2 = reshape(2f, newshape=[1]);
  (%0, %1, %2)
}
)");
  const IRModule out = passes::SimplifyExpr{}(mod);
  CHECK_NOTHROW(assert_structural_equal(out, expected));
  CHECK(check_same_behaviour(mod, out) == 3);
}

TEST_CASE("SimplifyExpr leaves ill-typed calls for InferType to report") {
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Call inner =
      Call::make(Op::make("transpose"), {x}, Attrs{{"axes", std::vector<std::int64_t>{5}}});
  const Function f =
      Function::make({x}, Call::make(Op::make("transpose"), {inner}), {}, {}, "main");
  CHECK(passes::simplify_expr(f).same_as(f));
}

TEST_CASE("SimplifyExpr is registered by name with opt_level 0 and invalidates InferType") {
  REQUIRE(PassRegistry::global().contains("SimplifyExpr"));
  const Pass p = PassRegistry::global().create("SimplifyExpr");
  CHECK(p.info().opt_level == 0);
  CHECK(p.info().invalidates_result("InferType"));
}
