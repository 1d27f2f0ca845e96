// Tests of ctir/passes/infer_type.hpp: types of graph-level functions filled in and checked.
#include <ctir/passes/infer_type.hpp>

#include <ctir/pass/error.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <exception>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// The message of the error InferType raises on `mod` (empty when it raises none).
std::string infer_error(const IRModule& mod) {
  try {
    static_cast<void>(passes::InferType{}(mod));
  } catch (const PassError& e) {
    CHECK(e.pass_name() == "InferType");
    bool node_error = false;
    try {
      std::rethrow_exception(e.original());
    } catch (const NodeError&) {
      node_error = true;
    } catch (...) {
    }
    CHECK(node_error);
    return e.message();
  }
  return {};
}

/// As above, for a module in text (a parse error is returned as the message, to fail the
/// caller's check visibly).
std::string infer_error(const std::string& text) {
  try {
    return infer_error(parse_module(text));
  } catch (const ParseError& e) {
    return std::string("PARSE ") + e.what();
  }
}

} // namespace

TEST_CASE("InferType meets the laws of its golden cases") {
  check_golden_laws("infer_type", passes::InferType{}, {.min_runs = 9});
}

TEST_CASE("InferType repoints every use of a let variable it gives a type") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), int32]) {
  let %a = add(%x, %x);
  multiply(%a, %a)
}
)");
  const Function f = passes::infer_type(downcast<FunctionNode>(mod.lookup("main")), mod);
  const auto* let = f->body.as<LetNode>();
  REQUIRE(let != nullptr);
  REQUIRE(let->var->ty.defined());
  const auto* call = let->body.as<CallNode>();
  REQUIRE(call != nullptr);
  CHECK(call->args[0].same_as(let->var));
  CHECK(call->args[1].same_as(let->var));
}

TEST_CASE("InferType handles a chain of 100000 lets without a deep native stack") {
  const Var x = Var::make("x", TensorType::make({4}, DataType::float32()));
  std::vector<Var> vars;
  Expr prev = x;
  for (int i = 0; i < 100000; ++i) {
    vars.push_back(Var::make("v" + std::to_string(i)));
    prev = vars.back();
  }
  Expr body = vars.back();
  for (std::size_t i = vars.size(); i-- > 0;) {
    const Expr input = i == 0 ? Expr(x) : Expr(vars[i - 1]);
    body = Let::make(vars[i], Call::make(Op::make("exp"), {input}), body);
  }
  const Function f = Function::make({x}, body);
  const Function typed = passes::infer_type(f);
  CHECK(structural_equal(typed->ret_type, TensorType::make({4}, DataType::float32())));
}

TEST_CASE("InferType returns a function it typed before unchanged, the same object") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {
  %0 = add(%x, %y);
  %1 = multiply(%0, %x);
  subtract(%1, %0)
}
)");
  const IRModule once = passes::InferType{}(mod);
  CHECK_FALSE(once.lookup("main").same_as(mod.lookup("main")));
  const IRModule twice = passes::InferType{}(once);
  CHECK(twice.lookup("main").same_as(once.lookup("main")));
}

TEST_CASE("InferType types calls of many operators in turn, each by its own relation") {
  // More distinct operators than the inference keeps at hand, called alternately, so that
  // every lookup of a name it forgot is made again, and a wrong reuse shows as a wrong type.
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2, 3), float32], %m: Tensor[(3, 4), float32]) {
  let %v0 = add(%x, %x);
  let %v1 = exp(%v0);
  let %v2 = matmul(%v1, %m);
  let %v3 = negative(%v2);
  let %v4 = multiply(%v3, %v3);
  let %v5 = sqrt(%v4);
  let %v6 = subtract(%v5, %v2);
  let %v7 = matmul(%x, %m);
  let %v8 = add(%v6, %v7);
  let %v9 = exp(%v8);
  transpose(%v9)
}
)");
  const IRModule typed = passes::InferType{}(mod);
  const auto* main = typed.lookup("main").as<FunctionNode>();
  REQUIRE(main != nullptr);
  CHECK(structural_equal(main->ret_type, TensorType::make({4, 2}, DataType::float32())));
  const auto* let = main->body.as<LetNode>();
  std::string types;
  for (; let != nullptr; let = let->body.as<LetNode>()) {
    types += print(let->var->ty) + ";";
  }
  CHECK(types == "Tensor[(2, 3), float32];Tensor[(2, 3), float32];Tensor[(2, 4), float32];"
                 "Tensor[(2, 4), float32];Tensor[(2, 4), float32];Tensor[(2, 4), float32];"
                 "Tensor[(2, 4), float32];Tensor[(2, 4), float32];Tensor[(2, 4), float32];"
                 "Tensor[(2, 4), float32];");
}

TEST_CASE("InferType reports ill-typed nodes with the types involved") {
  SUBCASE("an annotation that disagrees with the value") {
    // The parser rejects this text already; a program built in C++ can still have it.
    const Var x = Var::make("x", TensorType::make({2, 3}, DataType::float32()));
    const Var a = Var::make("a", TensorType::make({3, 2}, DataType::float32()));
    const IRModule mod{
        Function::make({x}, Let::make(a, Call::make(Op::make("exp"), {x}), a), {}, {}, "main")};
    const std::string message = infer_error(mod);
    CHECK(message.find("%a is annotated Tensor[(3, 2), float32]") != std::string::npos);
    CHECK(message.find("Tensor[(2, 3), float32]") != std::string::npos);
  }
  SUBCASE("an operator that is not registered, after ones that are") {
    // The parser rejects unknown operators; a program built in C++ can still call one.
    const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
    const Var a = Var::make("a");
    const Var b = Var::make("b");
    const Expr body = Let::make(a, Call::make(Op::make("exp"), {x}),
                                Let::make(b, Call::make(Op::make("add"), {a, x}),
                                          Call::make(Op::make("no_such_operator"), {b})));
    const std::string message = infer_error(IRModule{Function::make({x}, body, {}, {}, "main")});
    CHECK(message.find("unknown operator 'no_such_operator'") != std::string::npos);
  }
  SUBCASE("a declared result type that disagrees with the body") {
    const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
    const IRModule mod{Function::make({x}, Call::make(Op::make("exp"), {x}),
                                      TensorType::make({2}, DataType::int32()), {}, "main")};
    const std::string message = infer_error(mod);
    CHECK(message.find("declared to return Tensor[(2), int32]") != std::string::npos);
    CHECK(message.find("Tensor[(2), float32]") != std::string::npos);
  }
  SUBCASE("an operator the type relation rejects") {
    const std::string message = infer_error(R"(
def @main(%x: Tensor[(2), float32], %y: Tensor[(3), float32]) {
  add(%x, %y)
}
)");
    CHECK(message.find("cannot broadcast") != std::string::npos);
    CHECK(message.find("Tensor[(3), float32]") != std::string::npos);
  }
  SUBCASE("if branches of different types") {
    const std::string message = infer_error(R"(
def @main(%x: Tensor[(2), float32], %c: Tensor[(), bool]) {
  if (%c) { %x } else { (%x, %x) }
}
)");
    CHECK(message.find("branches of an if have different types: Tensor[(2), float32] and "
                       "Tuple[") != std::string::npos);
  }
  SUBCASE("an if condition that is not a boolean scalar") {
    // The parser refuses a parameter of the wrong type as a condition; the type of a call
    // is InferType's to find.
    const std::string message = infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  if (exp(%x)) { %x } else { %x }
}
)");
    CHECK(message.find("Tensor[(), bool], but it has type Tensor[(2), float32]") !=
          std::string::npos);
  }
  SUBCASE("a projection out of range and of a non-tuple") {
    CHECK(infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  %0 = (%x, %x);
  %0.2
}
)")
              .find("projection .2 is out of range") != std::string::npos);
    CHECK(infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  %x.0
}
)")
              .find("which is not a tuple") != std::string::npos);
  }
  SUBCASE("a global call whose argument does not fit") {
    const std::string message = infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  @f(%x)
}
def @f(%v: Tensor[(2), int32]) -> Tensor[(2), int32] {
  %v
}
)");
    CHECK(message.find("argument 0 has type Tensor[(2), float32] but the callee expects "
                       "Tensor[(2), int32]") != std::string::npos);
  }
  SUBCASE("a recursive global without a declared result type") {
    CHECK(infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  @main(%x)
}
)")
              .find("@main is called recursively") != std::string::npos);
  }
  SUBCASE("a call of a tensor-level function and a bad call_dps") {
    const std::string prim = R"(
prim @copy(%A: Tensor[(2), float32], %B: Tensor[(2), float32]) {
  %B[0] = %A[0];
}
)";
    CHECK(infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  @copy(%x)
}
)" + prim)
              .find("@copy is a tensor-level function") != std::string::npos);
    CHECK(infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  call_dps @copy(%x) -> Tensor[(3), float32]
}
)" + prim)
              .find("output 0 has type Tensor[(3), float32] but parameter %B has type "
                    "Tensor[(2), float32]") != std::string::npos);
    CHECK(infer_error(R"(
def @main(%x: Tensor[(2), float32]) {
  call_dps @copy(%x, %x) -> Tensor[(2), float32]
}
)" + prim)
              .find("passes 2 inputs and 1 outputs") != std::string::npos);
  }
  SUBCASE("a parameter without a type") {
    const Var x = Var::make("x");
    const IRModule mod{Function::make({x}, x, {}, {}, "main")};
    CHECK_THROWS_WITH_AS(passes::InferType{}(mod), doctest::Contains("has no type"), PassError);
  }
}

TEST_CASE("InferType is registered by name with opt_level 0") {
  REQUIRE(PassRegistry::global().contains("InferType"));
  CHECK(PassRegistry::global().create("InferType").info().opt_level == 0);
  CHECK(passes::InferType::info().opt_level == 0);
}
