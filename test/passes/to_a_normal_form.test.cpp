// Tests of ctir/passes/to_a_normal_form.hpp: every intermediate value bound to a let variable.
#include <ctir/passes/to_a_normal_form.hpp>

#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/runtime/pass/sequential.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Whether `e` computes nothing (a variable, global, operator, constant or literal).
bool is_atom(const Expr& e) {
  return e.defined() && !e.is<CallNode>() && !e.is<TupleNode>() && !e.is<TupleGetItemNode>() &&
         !e.is<LetNode>() && !e.is<IfNode>() && !e.is<FunctionNode>() && !e.is<CallDpsNode>();
}

/// What `body` ends in once its chain of lets is skipped.
Expr scope_result(Expr body) {
  while (const auto* let = body.as<LetNode>()) {
    body = let->body;
  }
  return body;
}

/// The operands of `fn` that are not atoms (each described), found with a walk: call,
/// call_dps, tuple and projection operands, if conditions, let values that are lets, and
/// results of the function, its branches and closures.
std::vector<std::string> non_atomic_operands(const Function& fn) {
  std::vector<std::string> found;
  const auto check = [&](const Expr& e, const char* where) {
    if (!is_atom(e)) {
      found.push_back(std::string(where) + ": " + std::string(e->dynamic_type_key()));
    }
  };
  check(scope_result(fn->body), "function result");
  walk(
      fn,
      [&](const Call& call) {
        check(call->op, "callee");
        for (const Expr& arg : call->args) {
          check(arg, "call argument");
        }
      },
      [&](const CallDps& call) {
        for (const Expr& arg : call->args) {
          check(arg, "call_dps argument");
        }
      },
      [&](const Tuple& tuple) {
        for (const Expr& field : tuple->fields) {
          check(field, "tuple field");
        }
      },
      [&](const TupleGetItem& item) { check(item->tuple, "projected tuple"); },
      [&](const If& branch) {
        check(branch->cond, "condition");
        check(scope_result(branch->then_branch), "then result");
        check(scope_result(branch->else_branch), "else result");
      },
      [&](const Function& closure) { check(scope_result(closure->body), "closure result"); },
      [&](const Let& let) {
        if (let->value.is<LetNode>()) {
          found.push_back("a let's value is a let");
        }
      });
  return found;
}

/// Checks that every graph-level function of `mod` is in A-normal form.
void check_a_normal_form(const IRModule& mod) {
  for (const auto& entry : mod.functions_of<FunctionNode>()) {
    const Function& fn = entry.second;
    CAPTURE(entry.first->name);
    const std::vector<std::string> found = non_atomic_operands(fn);
    CHECK_MESSAGE(found.empty(), found.size() << " non-atomic operands, the first "
                                              << (found.empty() ? "" : found.front()));
  }
}

/// How many lets `e` has (in its chain, branches and closures).
std::size_t count_lets(const Expr& e) {
  std::size_t count = 0;
  walk(e, [&](const Let&) { ++count; });
  return count;
}

/// A fresh `Tensor[(2), float32]` (no IR in static storage: ctir frees nodes with a
/// thread-local worklist, gone by the time static objects are destroyed).
Type tensor2() { return TensorType::make({2}, DataType::float32()); }

} // namespace

TEST_CASE("ToANormalForm meets the laws of its golden cases") {
  check_golden_laws("to_a_normal_form", passes::ToANormalForm{},
                    {.min_runs = 27, .stays_typed = true});
}

TEST_CASE("ToANormalForm leaves every call argument and operand an atom") {
  for (const GoldenCase& c : golden_cases("to_a_normal_form")) {
    CAPTURE(c.name);
    check_a_normal_form(passes::ToANormalForm{}(c.input));
    check_a_normal_form(c.expected);
  }
}

TEST_CASE("ToANormalForm binds a node shared by both branches once, before the if") {
  const Var x = Var::make("x", tensor2());
  const Var c = Var::make("c", TensorType::make({}, DataType::boolean()));
  const Call shared = Call::make(Op::make("exp"), {x});
  const Expr branch = If::make(c, Call::make(Op::make("negative"), {shared}),
                               Call::make(Op::make("add"), {shared, x}));
  const Function out = passes::to_a_normal_form(Function::make({x, c}, branch));
  // let %x0 = exp(%x); let %x1 = if ...; %x1
  const auto* first = out->body.as<LetNode>();
  REQUIRE(first != nullptr);
  CHECK(first->value.same_as(shared));
  const auto* second = first->body.as<LetNode>();
  REQUIRE(second != nullptr);
  const auto* inner = second->value.as<IfNode>();
  REQUIRE(inner != nullptr);
  for (const Expr& arm : {inner->then_branch, inner->else_branch}) {
    const auto* let = arm.as<LetNode>();
    REQUIRE(let != nullptr);
    const auto* call = let->value.as<CallNode>();
    REQUIRE(call != nullptr);
    CHECK(call->args[0].same_as(first->var));
    CHECK(let->body.same_as(let->var));
  }
  CHECK(second->body.same_as(second->var));
  CHECK(count_lets(out->body) == 4);
}

TEST_CASE("ToANormalForm keeps a node used by one branch only inside that branch") {
  const Var x = Var::make("x", tensor2());
  const Var c = Var::make("c", TensorType::make({}, DataType::boolean()));
  const Call shared = Call::make(Op::make("exp"), {x});
  const Expr then_branch = Call::make(Op::make("add"), {shared, shared});
  const Function out =
      passes::to_a_normal_form(Function::make({x, c}, If::make(c, then_branch, x)));
  const auto* let = out->body.as<LetNode>();
  REQUIRE(let != nullptr);
  const auto* inner = let->value.as<IfNode>();
  REQUIRE(inner != nullptr);
  CHECK(inner->else_branch.same_as(x));
  const auto* bound = inner->then_branch.as<LetNode>();
  REQUIRE(bound != nullptr);
  CHECK(bound->value.same_as(shared));
  CHECK(count_lets(inner->then_branch) == 2);
}

TEST_CASE("ToANormalForm types the new variables and names them apart from existing names") {
  const Var x = Var::make("x0", TensorType::make({2, 3}, DataType::float32()));
  const Var x1 = Var::make("x1", TensorType::make({2, 3}, DataType::float32()));
  const Expr body = Let::make(x1, Call::make(Op::make("exp"), {x}),
                              Call::make(Op::make("sum"), {Call::make(Op::make("negative"), {x1})},
                                         Attrs{{"axis", std::vector<std::int64_t>{0}}}));
  const Function out = passes::to_a_normal_form(Function::make({x}, body));
  const auto* let = out->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->var.same_as(x1));
  const auto* neg = let->body.as<LetNode>();
  REQUIRE(neg != nullptr);
  CHECK(neg->var->name == "x2");
  CHECK(structural_equal(neg->var->ty, TensorType::make({2, 3}, DataType::float32())));
  const auto* sum = neg->body.as<LetNode>();
  REQUIRE(sum != nullptr);
  CHECK(sum->var->name == "x3");
  CHECK(structural_equal(sum->var->ty, TensorType::make({3}, DataType::float32())));
  CHECK(out->ret_type.defined());
}

TEST_CASE("ToANormalForm names new variables apart from a closure's parameters and lets") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  let %f = fn (%x0: Tensor[(2), float32]) {
    let %x1 = exp(%x0);
    negative(%x1)
  };
  %f(add(%x, %x))
}
)");
  const Function out = passes::to_a_normal_form(downcast<FunctionNode>(mod.lookup("main")), mod);
  std::vector<std::string> names;
  walk(
      out->body, [&](const Let& let) { names.push_back(let->var->name); },
      [&](const Function& closure) {
        for (const Var& param : closure->params) {
          names.push_back(param->name);
        }
      });
  std::sort(names.begin(), names.end());
  // The closure's `negative`, the `add` and the call are bound to new variables.
  CHECK(names == std::vector<std::string>{"f", "x0", "x1", "x2", "x3", "x4"});
}

TEST_CASE("ToANormalForm flattens a let nested in a let's value into the scope") {
  const Var x = Var::make("x", tensor2());
  const Var a = Var::make("a", tensor2());
  const Var e = Var::make("e", tensor2());
  const Expr value =
      Let::make(e, Call::make(Op::make("exp"), {x}), Call::make(Op::make("negative"), {e}));
  const Function f = Function::make({x}, Let::make(a, value, a), tensor2(), {}, "main");
  const Function out = passes::to_a_normal_form(f);
  // let %e = exp(%x); let %x0 = negative(%e); let %a = %x0; %a
  const auto* first = out->body.as<LetNode>();
  REQUIRE(first != nullptr);
  CHECK(first->var.same_as(e));
  const auto* second = first->body.as<LetNode>();
  REQUIRE(second != nullptr);
  CHECK(second->value.is<CallNode>());
  const auto* third = second->body.as<LetNode>();
  REQUIRE(third != nullptr);
  CHECK(third->var.same_as(a));
  CHECK(third->value.same_as(second->var));
  CHECK(non_atomic_operands(out).empty());
  CHECK(check_same_behaviour(IRModule{f}, IRModule{out}) == 3);
}

TEST_CASE("ToANormalForm infers the types of an untyped function it is given directly") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  let %a = add(exp(%x), %x);
  %a
}
)");
  const Function out = passes::to_a_normal_form(downcast<FunctionNode>(mod.lookup("main")), mod);
  const IRModule expected = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %x0: Tensor[(2), float32] = exp(%x);
  let %a: Tensor[(2), float32] = add(%x0, %x);
  %a
}
)");
  CHECK_NOTHROW(assert_structural_equal(out, expected.lookup("main")));
}

TEST_CASE("ToANormalForm reports an ill-typed function as a node error") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32], %y: Tensor[(3), float32]) {
  add(exp(%x), %y)
}
)");
  CHECK_THROWS_AS(passes::to_a_normal_form(downcast<FunctionNode>(mod.lookup("main")), mod),
                  NodeError);
  CHECK_THROWS_AS(passes::ToANormalForm{}(mod), Error);
  CHECK_THROWS_AS(passes::to_a_normal_form(Function()), Error);
}

TEST_CASE("ToANormalForm reports a call of a global the module does not have") {
  const Var x = Var::make("x", tensor2());
  const Function f = Function::make({x}, Call::make(GlobalVar::make("missing"), {x}));
  CHECK_THROWS_WITH_AS(passes::to_a_normal_form(f), doctest::Contains("@missing"), NodeError);
}

TEST_CASE("ToANormalForm handles a chain of 100000 nested calls") {
  const Var x = Var::make("x", tensor2());
  const Op exp = Op::make("exp");
  Expr chain = x;
  for (int i = 0; i < 100000; ++i) {
    chain = Call::make(exp, {chain});
  }
  const Function f = Function::make({x}, chain, tensor2(), {}, "main");
  const Function out = passes::to_a_normal_form(f);
  std::size_t lets = 0;
  Expr body = out->body;
  Expr previous = x;
  bool chained = true;
  while (const auto* let = body.as<LetNode>()) {
    const auto* call = let->value.as<CallNode>();
    chained = chained && call != nullptr && call->args[0].same_as(previous);
    previous = let->var;
    body = let->body;
    ++lets;
  }
  CHECK(lets == 100000);
  CHECK(chained);
  CHECK(body.same_as(previous));
  CHECK(passes::to_a_normal_form(out).same_as(out));
}

TEST_CASE("ToANormalForm binds 20000 nested typed closures without entering their types") {
  // fn (%x) { fn (%p0) { fn (%p1) { ... add(%x, %x) } } }: 2 * 10^8 type nodes if expanded.
  const int depth = 20000;
  const Function f = nested_closures(depth, [](const Var& x) {
    return Call::make(Op::make("add"), {x, x});
  });
  const Function out = passes::to_a_normal_form(f);
  // Each closure and the call are bound in their scope: `let %x0 = fn (...) {...}; %x0`.
  std::size_t closures = 0;
  bool bound = true;
  Expr scope = out->body;
  while (const auto* let = scope.as<LetNode>()) {
    bound = bound && let->body.same_as(let->var);
    scope = let->value;
    if (const auto* closure = scope.as<FunctionNode>()) {
      ++closures;
      scope = closure->body;
    }
  }
  CHECK(bound);
  CHECK(closures == depth);
  CHECK(scope.is<CallNode>());
  CHECK(count_lets(out->body) == depth + 1);
  CHECK(passes::to_a_normal_form(out).same_as(out));
}

TEST_CASE("ToANormalForm binds each node of a DAG of 1000 bindings used twice once") {
  // %k = add(%k-1, %k-2): 2^1000 paths, so this finishes only if each node is met once.
  const Var x = Var::make("x", tensor2());
  const Var y = Var::make("y", tensor2());
  const Expr newer = fibonacci_dag(x, y, 1000);
  const Function f = Function::make({x, y}, newer, tensor2(), {}, "main");
  const Function out = passes::to_a_normal_form(f);
  std::size_t lets = 0;
  Expr body = out->body;
  while (const auto* let = body.as<LetNode>()) {
    body = let->body;
    ++lets;
  }
  CHECK(lets == 1000);
  CHECK(passes::to_a_normal_form(out).same_as(out));
}

TEST_CASE("ToANormalForm handles a chain of 100000 lets whose values nest calls") {
  const Var x = Var::make("x", tensor2());
  const Op exp = Op::make("exp");
  const Op add = Op::make("add");
  std::vector<Var> vars;
  for (int i = 0; i < 100000; ++i) {
    vars.push_back(Var::make("v" + std::to_string(i), tensor2()));
  }
  Expr body = vars.back();
  for (std::size_t i = vars.size(); i-- > 0;) {
    const Expr previous = i == 0 ? Expr(x) : Expr(vars[i - 1]);
    body = Let::make(vars[i], Call::make(add, {Call::make(exp, {previous}), x}), body);
  }
  const Function out = passes::to_a_normal_form(Function::make({x}, body, tensor2()));
  std::size_t lets = 0;
  Expr rest = out->body;
  while (const auto* let = rest.as<LetNode>()) {
    rest = let->body;
    ++lets;
  }
  CHECK(lets == 200000);
  CHECK(rest.same_as(vars.back()));
}

/// A function InferType must type before ToANormalForm can bind its calls.
const char* const untyped_nested_call = R"(
def @main(%x: Tensor[(2), float32]) {
  let %a = exp(%x);
  add(negative(%a), %a)
}
)";
const char* const untyped_nested_call_in_a_normal_form = R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %a: Tensor[(2), float32] = exp(%x);
  let %x0: Tensor[(2), float32] = negative(%a);
  let %x1: Tensor[(2), float32] = add(%x0, %a);
  %x1
}
)";

TEST_CASE("ToANormalForm runs InferType first in a static sequential at opt_level 1") {
  const IRModule mod = parse_module(untyped_nested_call);
  const IRModule expected = parse_module(untyped_nested_call_in_a_normal_form);
  const auto pipeline = sequential(passes::ToANormalForm{});
  PassContext o1{{.opt_level = 1}};
  CHECK_NOTHROW(assert_structural_equal(pipeline(mod, o1), expected));
  PassContext o0{{.opt_level = 0}};
  CHECK(pipeline(mod, o0).same_as(mod));
}

TEST_CASE("ToANormalForm runs InferType first in a pipeline built at run time") {
  const IRModule mod = parse_module(untyped_nested_call);
  const IRModule expected = parse_module(untyped_nested_call_in_a_normal_form);
  PassContext o1{{.opt_level = 1}};
  const Pass listed = sequential(std::vector<Pass>{PassRegistry::global().create("ToANormalForm")});
  CHECK_NOTHROW(assert_structural_equal(listed(mod, o1), expected));
  const Pass parsed = parse_pipeline("sequential(ToANormalForm)");
  CHECK_NOTHROW(assert_structural_equal(parsed(mod, o1), expected));
}

TEST_CASE("ToANormalForm is registered by name with opt_level 1 and requires InferType") {
  REQUIRE(PassRegistry::global().contains("ToANormalForm"));
  const Pass p = PassRegistry::global().create("ToANormalForm");
  CHECK(p.info().opt_level == 1);
  CHECK(p.info().required.contains("InferType"));
  CHECK(passes::ToANormalForm::info().opt_level == 1);
  CHECK(passes::ToANormalForm::info().name == "ToANormalForm");
}
