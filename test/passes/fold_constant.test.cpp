// Tests of ctir/passes/fold_constant.hpp: graph-level computations on constants evaluated.
#include <ctir/passes/fold_constant.hpp>

#include <ctir/ir/op_registry.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("FoldConstant meets the laws of its golden cases") {
  check_golden_laws("fold_constant", passes::FoldConstant{}, {.min_runs = 9, .stays_typed = true});
}

TEST_CASE("FoldConstant leaves a call that fails at evaluation for run time") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), int32]) -> Tensor[(2), int32] {
  %0 = divide(const([4, 2]), const([2, 0]));
  add(%x, %0)
}
)");
  const IRModule out = passes::FoldConstant{}(mod);
  CHECK(out.same_as(mod));
  eval::Interpreter interp(out);
  CHECK_THROWS_WITH_AS(interp.call("main", {eval::Value(TensorData(DataType::int32(), {2}))}),
                       doctest::Contains("division by zero"), Error);
}

TEST_CASE("FoldConstant folds integer overflow by wrapping to the width of the dtype") {
  const IRModule mod = parse_module(R"(
def @main() {
  %0 = add(const([9223372036854775807i64, -9223372036854775808i64]), const([1i64, -1i64]));
  %1 = negative(const([-9223372036854775808i64, 1i64]));
  %2 = divide(const([-9223372036854775808i64, 7i64]), const([-1i64, -2i64]));
  %3 = multiply(const([-9223372036854775808i64, 9223372036854775807i64]), const([-1i64, 2i64]));
  %4 = subtract(const([-128i8, 127i8]), const([1i8, -1i8]));
  %5 = multiply(const([2147483647, 65536]), const([2, 65536]));
  (%0, %1, %2, %3, %4, %5)
}
)");
  const IRModule expected = parse_module(R"(
def @main() {
  (const([-9223372036854775808i64, 9223372036854775807i64]),
   const([-9223372036854775808i64, -1i64]),
   const([-9223372036854775808i64, -4i64]),
   const([-9223372036854775808i64, -2i64]),
   const([127i8, -128i8]),
   const([-2, 0]))
}
)");
  CHECK_NOTHROW(assert_structural_equal(passes::FoldConstant{}(mod), expected));
}

TEST_CASE("FoldConstant never folds a call of an operator without a kernel") {
  OpRegistry::global().register_op(
      OpDef("test.fold_constant.no_kernel")
          .set_num_inputs(1)
          .set_type_relation([](const std::vector<Type>& in, const Attrs&) { return in[0]; }));
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Call call =
      Call::make(Op::make("test.fold_constant.no_kernel"),
                 {Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {1.0, 2.0}))});
  const Function f = Function::make({x}, Call::make(Op::make("add"), {x, call}), {}, {}, "main");
  CHECK(passes::fold_constant(f).same_as(f));
}

TEST_CASE("FoldConstant folds a chain of 100000 lets without a deep native stack") {
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  std::vector<Var> vars;
  for (int i = 0; i < 100000; ++i) {
    vars.push_back(Var::make("v" + std::to_string(i), TensorType::make({2}, DataType::float32())));
  }
  Expr body = Call::make(Op::make("add"), {x, vars.back()});
  for (std::size_t i = vars.size(); i-- > 0;) {
    const Expr input =
        i == 0
            ? Expr(Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {0.0, 1.0})))
            : Expr(vars[i - 1]);
    body = Let::make(vars[i], Call::make(Op::make("add"), {input, FloatImm::make(1.0)}), body);
  }
  const Function folded = passes::fold_constant(Function::make({x}, body));
  const auto* call = folded->body.as<CallNode>();
  REQUIRE(call != nullptr);
  const auto* constant = call->args[1].as<ConstantNode>();
  REQUIRE(constant != nullptr);
  CHECK(constant->data.get(0) == 100000.0);
  CHECK(constant->data.get(1) == 100001.0);
}

TEST_CASE("FoldConstant rewrites a shared node once and keeps it shared") {
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  const Constant one =
      Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {1.0, 1.0}));
  const Call shared =
      Call::make(Op::make("add"), {x, Call::make(Op::make("add"), {one, FloatImm::make(1.0)})});
  const Function f = Function::make({x}, Call::make(Op::make("multiply"), {shared, shared}));
  const Function folded = passes::fold_constant(f);
  const auto* product = folded->body.as<CallNode>();
  REQUIRE(product != nullptr);
  CHECK(!product->args[0].same_as(shared));
  CHECK(product->args[0].same_as(product->args[1]));
  const auto* sum = product->args[0].as<CallNode>();
  REQUIRE(sum != nullptr);
  CHECK(sum->args[1].is<ConstantNode>());
}

TEST_CASE("FoldConstant returns a function with neither literals nor projections as it is") {
  // The shapes in the types are literals too, and do not count: nothing can fold here.
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {
  let %a = add(%x, %y);
  %0 = multiply(%a, %x);
  %1 = (%0, %a);
  subtract(%0, %a)
}
)");
  const Function f = downcast<FunctionNode>(mod.lookup("main"));
  CHECK(passes::fold_constant(f, mod).same_as(f));
}

TEST_CASE("FoldConstant folds a projection of a tuple though the function has no literal") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {
  %0 = (%x, add(%x, %y));
  %0.0
}
)");
  const Function f = downcast<FunctionNode>(mod.lookup("main"));
  const Function folded = passes::fold_constant(f, mod);
  CHECK(folded->body.same_as(f->params[0]));
}

TEST_CASE("FoldConstant folds where the only literal is a scalar operand") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  add(%x, multiply(2f, 3f))
}
)");
  const Function f = downcast<FunctionNode>(mod.lookup("main"));
  const Function folded = passes::fold_constant(f, mod);
  const auto* sum = folded->body.as<CallNode>();
  REQUIRE(sum != nullptr);
  CHECK(sum->args[1].is<ConstantNode>());
}

TEST_CASE("FoldConstant folds inside 20000 nested typed closures, not in their types") {
  const Function f = passes::infer_type(nested_closures(20000, [](const Var&) {
    const Expr two = Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {1, 2}));
    return Call::make(Op::make("add"), {two, two});
  }));
  const Function out = passes::fold_constant(f);
  const auto* folded = innermost_body(out).as<ConstantNode>();
  REQUIRE(folded != nullptr);
  REQUIRE(folded->data.size() == 2);
  CHECK(folded->data.get(0) == 2.0);
  CHECK(folded->data.get(1) == 4.0);
  CHECK(passes::fold_constant(out).same_as(out));
}

TEST_CASE("FoldConstant takes a DAG of 1000 bindings each used twice in stride") {
  // %k = add(%k-1, %k-2): 2^1000 paths, so this finishes only if each node is met once.
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  const Var y = Var::make("y", type);
  const Function f = Function::make({x, y}, fibonacci_dag(x, y, 1000));
  CHECK(passes::fold_constant(f).same_as(f));

  const Expr constants = fibonacci_dag(
      Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {0.0, 1.0})),
      Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {1.0, 0.0})), 1000);
  CHECK(passes::fold_constant(Function::make({}, constants))->body.is<ConstantNode>());
}

TEST_CASE("FoldConstant folds a chain of 100000 nested calls without a deep native stack") {
  Expr body = Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {0.0, 1.0}));
  for (int i = 0; i < 100000; ++i) {
    body = Call::make(Op::make("add"), {body, FloatImm::make(1.0)});
  }
  const Function folded = passes::fold_constant(Function::make({}, body));
  const auto* constant = folded->body.as<ConstantNode>();
  REQUIRE(constant != nullptr);
  CHECK(constant->data.get(0) == 100000.0);
}

TEST_CASE("FoldConstant runs InferType first in a sequential") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  let %a = add(const([1f, 2f]), 1f);
  add(%x, %a)
}
)");
  const auto pipeline = sequential(PassInfo{.name = "O2", .opt_level = 2}, passes::FoldConstant{});
  PassContext ctx{{.opt_level = 2}};
  const IRModule out = pipeline(mod, ctx);
  const IRModule expected = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  add(%x, const([2f, 3f]))
}
)");
  CHECK_NOTHROW(assert_structural_equal(out, expected));
}

TEST_CASE("FoldConstant reports an ill-typed program through InferType before folding") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  add(const([1f, 2f]), const([1f, 2f, 3f]))
}
)");
  const auto pipeline = sequential(passes::FoldConstant{});
  PassContext ctx{{.opt_level = 2}};
  CHECK_THROWS_WITH_AS(pipeline(mod, ctx), doctest::Contains("InferType"), PassError);
  // Called on its own, the pass leaves the ill-typed call alone.
  CHECK(passes::FoldConstant{}(mod).same_as(mod));
}

TEST_CASE("FoldConstant is registered by name with opt_level 2 and requires InferType") {
  REQUIRE(PassRegistry::global().contains("FoldConstant"));
  const Pass p = PassRegistry::global().create("FoldConstant");
  CHECK(p.info().opt_level == 2);
  CHECK(p.info().required.contains("InferType"));
  CHECK_FALSE(p.info().invalidates_result("InferType"));
  CHECK(passes::FoldConstant::info().opt_level == 2);
}
