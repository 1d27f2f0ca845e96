// Tests of the reference interpreter: graph-level and tensor-level programs, errors, depth.
#include <ctir/eval/interpreter.hpp> // first: the header must compile on its own

#include <ctir/ir/builder.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <error_testing.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::contains;
using namespace ctir::eval;

namespace {

Value tensor(DataType dtype, std::vector<std::int64_t> shape, std::vector<double> values) {
  return Value(TensorData::from_doubles(dtype, std::move(shape), values));
}
Value f32_value(std::vector<std::int64_t> shape, std::vector<double> values) {
  return tensor(DataType::float32(), std::move(shape), std::move(values));
}
Value i32_value(std::vector<std::int64_t> shape, std::vector<double> values) {
  return tensor(DataType::int32(), std::move(shape), std::move(values));
}
std::vector<double> elements(const Value& value) {
  std::vector<double> out;
  const TensorData& data = value.as_tensor();
  for (std::size_t k = 0; k < data.size(); ++k) {
    out.push_back(data.get(k));
  }
  return out;
}

std::vector<Value> run(std::string_view text, std::string_view function, std::vector<Value> args,
                       InterpreterOptions options = {}) {
  Interpreter interp(parse_module(text, "test.ctir"), options);
  return interp.call(function, std::move(args));
}

/// The message of the EvalError `f` throws; fails the test if it throws nothing else.
std::string eval_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const EvalError& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("expected an EvalError, got: " << std::string(e.what()));
    return {};
  }
  FAIL("expected an EvalError");
  return {};
}

constexpr std::string_view seed_002 = R"(
def @main(%x: Tensor[(10), float32]) -> Tensor[(10), float32] {
  %0 = exp(%x);
  %1 = call_dps @add_one(%x) -> Tensor[(10), float32];
  add(%0, %1)
}

prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in parallel(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
)";

} // namespace

TEST_CASE("seed 002's main calls add_one through call_dps and adds exp") {
  std::vector<double> x;
  for (int k = 0; k < 10; ++k) {
    x.push_back(k - 3);
  }
  const auto outs = run(seed_002, "main", {f32_value({10}, x)});
  REQUIRE(outs.size() == 1);
  REQUIRE(outs[0].is_tensor());
  CHECK(outs[0].as_tensor().shape() == std::vector<std::int64_t>{10});
  const auto got = elements(outs[0]);
  for (std::size_t k = 0; k < 10; ++k) {
    const float e = static_cast<float>(std::exp(x[k]));
    const float expected = e + (static_cast<float>(x[k]) + 1.0F);
    CHECK(got[k] == static_cast<double>(expected));
  }
}

TEST_CASE("a tensor-level function called directly returns every parameter's final value") {
  const auto outs =
      run(seed_002, "add_one", {f32_value({3}, {1, 2, 3}), f32_value({3}, {0, 0, 0})});
  REQUIRE(outs.size() == 2);
  CHECK(elements(outs[0]) == std::vector<double>{1, 2, 3});
  CHECK(elements(outs[1]) == std::vector<double>{2, 3, 4});
}

TEST_CASE("a tensor-level function does not write through the caller's values") {
  const Value input = f32_value({2}, {5, 6});
  const Value output = f32_value({2}, {0, 0});
  const auto outs = run(seed_002, "add_one", {input, output});
  CHECK(elements(output) == std::vector<double>{0, 0});
  CHECK(elements(outs[1]) == std::vector<double>{6, 7});
}

TEST_CASE("let, tuples, projections, closures, if and global calls evaluate") {
  constexpr std::string_view text = R"(
def @main(%x: Tensor[(2), float32], %c: bool) -> Tensor[(2), float32] {
  %0 = multiply(%x, 2f);
  %1 = (%0, %x);
  let %pair = %1;
  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {
    add(%a, %0)
  };
  %2 = %f(%pair.1);
  if (%c) {
    @twice(%2)
  } else {
    %pair.0
  }
}

def @twice(%y: Tensor[(2), float32]) -> Tensor[(2), float32] {
  add(%y, %y)
}
)";
  const Value x = f32_value({2}, {1, 2});
  // %2 = x + 2x = 3x; then: true -> 6x, false -> 2x
  CHECK(elements(run(text, "main", {x, Value(to_tensor(Scalar::boolean(true)))})[0]) ==
        std::vector<double>{6, 12});
  CHECK(elements(run(text, "main", {x, Value(Scalar::boolean(false))})[0]) ==
        std::vector<double>{2, 4});
}

TEST_CASE("a closure keeps the values it captured after its definer returns") {
  constexpr std::string_view text = R"(
def @make(%k: Tensor[(), float32]) {
  fn (%a: Tensor[(), float32]) -> Tensor[(), float32] {
    multiply(%a, %k)
  }
}

def @main(%x: Tensor[(), float32]) -> Tensor[(), float32] {
  %0 = @make(3f);
  %1 = @make(5f);
  %2 = %0(%x);
  %3 = %1(%x);
  subtract(%3, %2)
}
)";
  CHECK(elements(run(text, "main", {f32_value({}, {2})})[0]) == std::vector<double>{4});
  Interpreter interp(parse_module(text));
  const auto closure = interp.call("make", {f32_value({}, {7})});
  REQUIRE(closure[0].is_closure());
  CHECK(closure[0].as_closure().captured.size() == 1);
  CHECK(to_string(closure[0]) == "<closure fn (%a) with 1 captured value>");
}

TEST_CASE("a shared dataflow node is evaluated once per activation") {
  // 40 levels of x_{k+1} = add(x_k, x_k): a tree walk would take 2^40 steps.
  auto x = Var::make("x", tensor_type({1}, DataType::float32()));
  Expr e = x;
  for (int k = 0; k < 40; ++k) {
    e = call("add", {e, e});
  }
  Interpreter interp(IRModule{Function::make({x}, e, {}, {}, "main")});
  const auto outs = interp.call("main", {f32_value({1}, {1})});
  CHECK(elements(outs[0]) == std::vector<double>{std::ldexp(1.0, 40)});
  CHECK(interp.steps() < 1000);
}

TEST_CASE("graph-level tensor-level expressions use the bound shape variables") {
  constexpr std::string_view text = R"(
def @main(%x: Tensor[(%n), float32]) {
  %0 = cast<float32>(%n * 10 + 1);
  add(%x, %0)
}
)";
  CHECK(elements(run(text, "main", {f32_value({3}, {0, 1, 2})})[0]) ==
        std::vector<double>{31, 32, 33});
}

TEST_CASE("call_dps with a symbolic output shape allocates from the caller's shape variables") {
  constexpr std::string_view text = R"(
def @main(%x: Tensor[(%m), float32]) -> Tensor[(%m), float32] {
  call_dps @add_one(%x) -> Tensor[(%m), float32]
}

prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
)";
  CHECK(elements(run(text, "main", {f32_value({5}, {0, 1, 2, 3, 4})})[0]) ==
        std::vector<double>{1, 2, 3, 4, 5});
}

TEST_CASE("loops, loads, stores, let, if and alloc run in a tensor-level function") {
  constexpr std::string_view text = R"(
prim @prefix_sum(%A: Tensor[(5), int32], %B: Tensor[(5), int32]) {
  alloc %acc: Tensor[(1), int32];
  for %i in range(0, 5) {
    let %v = %A[%i];
    if (%v > 0) {
      %acc[0] = %acc[0] + %v;
    } else {
      %acc[0] = %acc[0] - 100;
    }
    %B[%i] = %acc[0];
  }
}
)";
  const auto outs =
      run(text, "prefix_sum", {i32_value({5}, {1, 2, -1, 3, 4}), i32_value({5}, {0, 0, 0, 0, 0})});
  CHECK(elements(outs[1]) == std::vector<double>{1, 3, -97, -94, -90});
}

TEST_CASE("every scalar operator, cast and select evaluates in tensor-level code") {
  constexpr std::string_view text = R"(
prim @ops(%a: int32, %b: int32, %x: float32, %O: Tensor[(20), int32], %F: Tensor[(6), float32]) {
  %O[0] = %a + %b;
  %O[1] = %a - %b;
  %O[2] = %a * %b;
  %O[3] = %a / %b;
  %O[4] = %a % %b;
  %O[5] = min(%a, %b);
  %O[6] = max(%a, %b);
  %O[7] = cast<int32>(%a == %b);
  %O[8] = cast<int32>(%a != %b);
  %O[9] = cast<int32>(%a < %b);
  %O[10] = cast<int32>(%a <= %b);
  %O[11] = cast<int32>(%a > %b);
  %O[12] = cast<int32>(%a >= %b);
  %O[13] = cast<int32>(%a > 0 && %b > 0);
  %O[14] = cast<int32>(%a > 0 || %b > 0);
  %O[15] = cast<int32>(!(%a > 0));
  %O[16] = -%a;
  %O[17] = select(%a > %b, 100, 200);
  %O[18] = cast<int32>(%x);
  %O[19] = cast<int32>(cast<int8>(%a * 100));
  %F[0] = %x / 0f;
  %F[1] = cast<float32>(%a) / cast<float32>(%b);
  %F[2] = %x % 2f;
  %F[3] = -%x;
  %F[4] = cast<float32>(cast<float64>(%x) * 2f64);
  %F[5] = select(%x < 0f, %x, 0f);
}
)";
  const Value a(Scalar::make_int(DataType::int32(), -7));
  const Value b(Scalar::make_int(DataType::int32(), 2));
  const Value x(Scalar::make_float(DataType::float32(), -2.75));
  const auto outs = run(text, "ops",
                        {a, b, x, i32_value({20}, std::vector<double>(20, 0)),
                         f32_value({6}, std::vector<double>(6, 0))});
  CHECK(elements(outs[3]) ==
        std::vector<double>{-5, -9, -14, -4, 1, -7, 2, 0, 1, 1, 1, 0, 0, 0, 1, 1, 7, 200, -2, 68});
  const auto f = elements(outs[4]);
  CHECK(std::isinf(f[0]));
  CHECK(f[0] < 0);
  CHECK(f[1] == -3.5);
  CHECK(f[2] == 1.25);
  CHECK(f[3] == 2.75);
  CHECK(f[4] == -5.5);
  CHECK(f[5] == -2.75);
}

TEST_CASE("&& and || short-circuit, so a guarded load never runs out of bounds") {
  constexpr std::string_view text = R"(
prim @guard(%A: Tensor[(3), int32], %B: Tensor[(1), int32]) {
  for %i in range(0, 5) {
    if (%i < 3 && %A[%i] > 0) {
      %B[0] = %B[0] + 1;
    }
    if (%i >= 3 || %A[%i] > 0) {
      %B[0] = %B[0] + 10;
    }
  }
}
)";
  const auto outs = run(text, "guard", {i32_value({3}, {1, -1, 1}), i32_value({1}, {0})});
  CHECK(elements(outs[1]) == std::vector<double>{2 + 40});
}

TEST_CASE("integer overflow wraps like two's complement") {
  constexpr std::string_view text = R"(
prim @wrap(%a: int32, %O: Tensor[(3), int32]) {
  %O[0] = %a + 1;
  %O[1] = %a * 2;
  %O[2] = -(%a + 1);
}
)";
  const Value a(Scalar::make_int(DataType::int32(), 2147483647));
  const auto outs = run(text, "wrap", {a, i32_value({3}, {0, 0, 0})});
  CHECK(elements(outs[1]) == std::vector<double>{-2147483648.0, -2, -2147483648.0});
}

TEST_CASE("a user operator with a kernel is evaluated from the registry") {
  static const bool registered = [] {
    OpRegistry::global().register_op(
        OpDef("eval_test.scale")
            .describe("x * factor")
            .set_num_inputs(1)
            .add_attr("factor", AttrKind::float_, 1.0, "the factor")
            .set_type_relation([](const std::vector<Type>& in, const Attrs&) { return in[0]; })
            .set_kernel([](const std::vector<TensorData>& in, const Attrs& attrs) {
              TensorData out = in[0];
              const double factor = attrs.get<double>("factor").value_or(1.0);
              for (std::size_t k = 0; k < out.size(); ++k) {
                out.set(k, out.get(k) * factor);
              }
              return out;
            }));
    OpRegistry::global().register_op(
        OpDef("eval_test.no_kernel")
            .describe("has a type but no kernel")
            .set_num_inputs(1)
            .set_type_relation([](const std::vector<Type>& in, const Attrs&) { return in[0]; }));
    return true;
  }();
  CHECK(registered);
  constexpr std::string_view text = R"(
def @main(%x: Tensor[(2), float32]) {
  eval_test.scale(%x, factor=3)
}

def @broken(%x: Tensor[(2), float32]) {
  eval_test.no_kernel(%x)
}
)";
  CHECK(elements(run(text, "main", {f32_value({2}, {1, 2})})[0]) == std::vector<double>{3, 6});
  const std::string message = eval_error_of([&] { run(text, "broken", {f32_value({2}, {1, 2})}); });
  CHECK(contains(message, "test.ctir:7:3: error:"));
  CHECK(contains(message, "'eval_test.no_kernel' has no kernel"));
  CHECK(contains(message, "(in @broken)"));
}

TEST_CASE("an out-of-bounds store or load is an error naming the index, the node and the line") {
  constexpr std::string_view text = R"(
prim @oob(%A: Tensor[(4), float32], %B: Tensor[(4), float32]) {
  for %i in range(0, 5) {
    %B[%i] = %A[%i - 1];
  }
}
)";
  const auto call = [&] {
    run(text, "oob", {f32_value({4}, {1, 2, 3, 4}), f32_value({4}, {0, 0, 0, 0})});
  };
  const std::string message = eval_error_of(call);
  CHECK(contains(message, "test.ctir:4:14: error: index -1 is out of bounds for dimension 0 of %A "
                          "(size 4) in `%A[%i - 1]` (in @oob)"));
  constexpr std::string_view store = R"(
prim @oob(%A: Tensor[(4), float32]) {
  %A[4] = 1f;
}
)";
  const std::string store_message = eval_error_of([&] {
    run(store, "oob", {f32_value({4}, {1, 2, 3, 4})});
  });
  CHECK(contains(store_message, "test.ctir:3:3: error: index 4 is out of bounds"));
  CHECK(contains(store_message, "`%A[4] = 1f`"));
}

TEST_CASE("integer division and modulo by zero are errors; float division follows IEEE") {
  constexpr std::string_view text = R"(
prim @div(%a: int32, %b: int32, %O: Tensor[(1), int32]) {
  %O[0] = %a / %b;
}

prim @mod(%a: int32, %b: int32, %O: Tensor[(1), int32]) {
  %O[0] = %a % %b;
}

def @graph(%x: Tensor[(2), int32], %y: Tensor[(2), int32]) {
  divide(%x, %y)
}
)";
  const Value a(Scalar::make_int(DataType::int32(), 7));
  const Value zero(Scalar::make_int(DataType::int32(), 0));
  CHECK(contains(eval_error_of([&] {
                   run(text, "div", {a, zero, i32_value({1}, {0})});
                 }),
                 "integer division by zero (7 / 0) in `%a / %b`"));
  CHECK(contains(eval_error_of([&] {
                   run(text, "mod", {a, zero, i32_value({1}, {0})});
                 }),
                 "integer modulo by zero"));
  const std::string graph = eval_error_of([&] {
    run(text, "graph", {i32_value({2}, {1, 2}), i32_value({2}, {1, 0})});
  });
  CHECK(contains(graph, "integer division by zero"));
  CHECK(contains(graph, "at output element [1]"));
  CHECK(contains(graph, "the call of operator 'divide'"));
}

TEST_CASE("a shape mismatch between operands is an error from the operator's type relation") {
  constexpr std::string_view text = R"(
def @main(%x: Tensor[(%n), float32], %y: Tensor[(%m), float32]) {
  add(%x, %y)
}
)";
  const std::string message = eval_error_of([&] {
    run(text, "main", {f32_value({2}, {1, 2}), f32_value({3}, {1, 2, 3})});
  });
  CHECK(contains(message, "test.ctir:3:3: error: operator 'add' cannot broadcast"));
  CHECK(contains(message, "(in @main)"));
}

TEST_CASE("wrong numbers and types of inputs are errors naming the parameter") {
  CHECK(contains(eval_error_of([&] { run(seed_002, "main", {}); }),
                 "@main takes 1 input, but 0 were given"));
  CHECK(contains(
      eval_error_of([&] { run(seed_002, "main", {f32_value({9}, std::vector<double>(9))}); }),
      "input 0 (%x) of @main must be Tensor[(10), float32], but it is "
      "Tensor[(9), float32] (dimension 0 is 9, but 10)"));
  CHECK(contains(
      eval_error_of([&] { run(seed_002, "main", {i32_value({10}, std::vector<double>(10))}); }),
      "the dtype is int32, not float32"));
  CHECK(contains(eval_error_of([&] {
                   run(seed_002, "add_one", {f32_value({2}, {1, 2}), f32_value({3}, {0, 0, 0})});
                 }),
                 "input 1 (%B) of @add_one must be Tensor[(%n), float32], but it is "
                 "Tensor[(3), float32] (dimension 0 is 3, but %n is 2)"));
  CHECK(contains(eval_error_of([&] { run(seed_002, "nothing", {}); }),
                 "IRModule has no function named '@nothing' (it has @main, @add_one)"));
}

TEST_CASE("a declared result type that does not match is an error") {
  constexpr std::string_view text = R"(
def @main(%x: Tensor[(%n), float32]) -> Tensor[(3), float32] {
  %x
}
)";
  CHECK(contains(eval_error_of([&] {
                   run(text, "main", {f32_value({2}, {1, 2})});
                 }),
                 "the result of @main has type Tensor[(2), float32], but Tensor[(3), float32] is "
                 "declared"));
}

TEST_CASE("a store of another dtype and a float index are errors") {
  constexpr std::string_view text = R"(
prim @bad(%A: Tensor[(2), float32], %x: float32) {
  %A[0] = 1;
}

prim @index(%A: Tensor[(2), float32], %x: float32) {
  %A[%x] = 1f;
}
)";
  const Value x(Scalar::make_float(DataType::float32(), 1));
  CHECK(contains(eval_error_of([&] {
                   run(text, "bad", {f32_value({2}, {0, 0}), x});
                 }),
                 "stores a int32 value into %A of dtype float32"));
  CHECK(contains(eval_error_of([&] {
                   run(text, "index", {f32_value({2}, {0, 0}), x});
                 }),
                 "the index %x is a float32, not an integer"));
}

TEST_CASE("unbounded recursion is stopped by the call depth limit") {
  constexpr std::string_view text = R"(
def @f(%x: Tensor[(), float32]) -> Tensor[(), float32] {
  @f(%x)
}
)";
  InterpreterOptions options;
  options.max_call_depth = 500;
  CHECK(contains(eval_error_of([&] { run(text, "f", {f32_value({}, {1})}, options); }),
                 "calls nest deeper than 500"));
}

TEST_CASE("the step limit stops a long loop") {
  InterpreterOptions options;
  options.max_steps = 1000;
  CHECK(contains(eval_error_of([&] {
                   run(seed_002, "add_one",
                       {f32_value({2000}, std::vector<double>(2000)),
                        f32_value({2000}, std::vector<double>(2000))},
                       options);
                 }),
                 "evaluation took more than 1000 steps"));
}

TEST_CASE("recursion through an if terminates and counts down") {
  // @count(n) = n == 0 ? 0 : 1 + @count(n - 1), built in C++.
  auto n = Var::make("n", tensor_type({}, DataType::int32()));
  const GlobalVar count = GlobalVar::make("count");
  const Expr body =
      If::make(eq(n, 0), Expr(Constant::make(TensorData::scalar(DataType::int32(), 0))),
               call("add", {Call::make(count, {call("subtract", {n, Expr(IntImm::make(1))})}),
                            Expr(IntImm::make(1))}));
  IRModule mod;
  mod.add(count, Function::make({n}, body, tensor_type({}, DataType::int32())));
  Interpreter interp(mod);
  CHECK(elements(interp.call("count", {i32_value({}, {300})})[0]) == std::vector<double>{300});
}

TEST_CASE("a 100,000-deep chain of nested adds evaluates on the default stack") {
  auto x = Var::make("x", tensor_type({2}, DataType::float32()));
  Expr e = x;
  for (int k = 0; k < 100000; ++k) {
    e = call("add", {e, Expr(FloatImm::make(1.0))});
  }
  Interpreter interp(IRModule{Function::make({x}, e, {}, {}, "main")});
  CHECK(elements(interp.call("main", {f32_value({2}, {0, 0.5})})[0]) ==
        std::vector<double>{100000, 100000.5});
}

TEST_CASE("100,000 nested lets evaluate on the default stack") {
  auto first = Var::make("v", tensor_type({1}, DataType::float32()));
  std::vector<Var> vars{first};
  for (int k = 0; k < 100000; ++k) {
    vars.push_back(Var::make("v", tensor_type({1}, DataType::float32())));
  }
  Expr body = vars.back();
  for (std::size_t k = vars.size() - 1; k > 0; --k) {
    body = Let::make(vars[k], vars[k - 1], body);
  }
  Interpreter interp(IRModule{Function::make({first}, body, {}, {}, "main")});
  CHECK(elements(interp.call("main", {f32_value({1}, {7})})[0]) == std::vector<double>{7});
}

TEST_CASE("100,000 nested blocks, loops and scalar operators run on the default stack") {
  auto A = Var::make("A", tensor_type({1}, DataType::float32()));
  // ((A[0] + 1f) + 1f) ... 100,000 deep in one store.
  PrimExpr value = load(A, {0});
  for (int k = 0; k < 100000; ++k) {
    value = value + 1.0f;
  }
  Stmt nested_seq = TensorStore::make(A, {0}, value);
  for (int k = 0; k < 100000; ++k) {
    nested_seq = SeqStmt::make({nested_seq});
  }
  Stmt nested_for = TensorStore::make(A, {0}, load(A, {0}) + 2.0f);
  for (int k = 0; k < 100000; ++k) {
    nested_for = For::make(Var::make("i", DataType::int32()), 0, 1, nested_for);
  }
  IRModule mod;
  mod.add("seq", PrimFunc::make("seq", {A}, nested_seq));
  mod.add("loops", PrimFunc::make("loops", {A}, nested_for));
  Interpreter interp(mod);
  CHECK(elements(interp.call("seq", {f32_value({1}, {0})})[0]) == std::vector<double>{100000});
  CHECK(elements(interp.call("loops", {f32_value({1}, {0})})[0]) == std::vector<double>{2});
}

TEST_CASE("evaluate runs a closed graph-level expression with bindings") {
  auto x = Var::make("x", tensor_type({2}, DataType::float32()));
  Interpreter interp{IRModule()};
  const Value result = interp.evaluate(call("multiply", {x, Expr(FloatImm::make(4.0))}),
                                       {{x, f32_value({2}, {1, 2})}});
  CHECK(elements(result) == std::vector<double>{4, 8});
  CHECK(contains(eval_error_of([&] { interp.evaluate(x); }),
                 "the variable has no value (it is not bound here) in `%x`"));
}
