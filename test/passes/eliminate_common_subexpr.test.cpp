// Tests of ctir/passes/eliminate_common_subexpr.hpp: equal calls computed once.
#include <ctir/passes/eliminate_common_subexpr.hpp>

#include <ctir/pass/sequential.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("EliminateCommonSubexpr meets the laws of its golden cases") {
  check_golden_laws("eliminate_common_subexpr", passes::EliminateCommonSubexpr{},
                    {.min_runs = 12, .stays_typed = true});
}

TEST_CASE("EliminateCommonSubexpr shares the very node of the first call") {
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Op exp = Op::make("exp");
  const Call first = Call::make(exp, {x});
  const Function f =
      Function::make({x}, Call::make(Op::make("add"), {first, Call::make(Op::make("exp"), {x})}));
  const Function out = passes::eliminate_common_subexpr(f);
  const auto* call = out->body.as<CallNode>();
  REQUIRE(call != nullptr);
  CHECK(call->args[0].same_as(first));
  CHECK(call->args[1].same_as(first));
}

TEST_CASE("EliminateCommonSubexpr tells calls apart by their operator's name") {
  // Each call has an operator node of its own: calls of one operator are one computation,
  // calls of two operators on the same operands are two, whatever the hash table's order.
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Var y = Var::make("y", TensorType::make({2}, DataType::float32()));
  std::vector<Expr> calls;
  for (const char* name : {"add", "multiply", "subtract", "add", "multiply", "subtract"}) {
    calls.push_back(Call::make(Op::make(name), {x, y}));
  }
  const Function f = Function::make({x, y}, Tuple::make(calls));
  const Function out = passes::eliminate_common_subexpr(f);
  const auto* tuple = out->body.as<TupleNode>();
  REQUIRE(tuple != nullptr);
  REQUIRE(tuple->fields.size() == 6);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(tuple->fields[i + 3].same_as(tuple->fields[i]));
    for (std::size_t j = 0; j < i; ++j) {
      CHECK_FALSE(tuple->fields[i].same_as(tuple->fields[j]));
    }
  }
  CHECK(tuple->fields[0].as<CallNode>()->op.as<OpNode>()->name == "add");
  CHECK(tuple->fields[1].as<CallNode>()->op.as<OpNode>()->name == "multiply");
  CHECK(tuple->fields[2].as<CallNode>()->op.as<OpNode>()->name == "subtract");
}

TEST_CASE("EliminateCommonSubexpr does not reuse a variable outside its let") {
  // The first exp(%x) is bound to %inner inside the value of %v's let; after that let,
  // the second exp(%x) may share the call node but never use the out-of-scope %inner.
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Var inner = Var::make("inner", TensorType::make({2}, DataType::float32()));
  const Var v = Var::make("v", TensorType::make({2}, DataType::float32()));
  const Op exp = Op::make("exp");
  const Call first = Call::make(exp, {x});
  const Expr value = Let::make(inner, first, Call::make(Op::make("negative"), {inner}));
  const Function f = Function::make(
      {x}, Let::make(v, value, Call::make(Op::make("add"), {v, Call::make(exp, {x})})),
      TensorType::make({2}, DataType::float32()), {}, "main");
  const IRModule mod{f};
  const IRModule out = passes::EliminateCommonSubexpr{}(mod);
  const auto* let = downcast<FunctionNode>(out.lookup("main"))->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->value.same_as(value));
  const auto* add = let->body.as<CallNode>();
  REQUIRE(add != nullptr);
  CHECK(add->args[1].same_as(first));
  CHECK(passes::InferType{}(out).same_as(out));
  CHECK(check_same_behaviour(mod, out) == 3);
}

TEST_CASE("EliminateCommonSubexpr handles a chain of 100000 nested calls in linear time") {
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  const Op exp = Op::make("exp");
  Expr a = x;
  Expr b = x;
  for (int i = 0; i < 100000; ++i) {
    a = Call::make(exp, {a});
    b = Call::make(exp, {b});
  }
  const Function out =
      passes::eliminate_common_subexpr(Function::make({x}, Call::make(Op::make("add"), {a, b})));
  const auto* call = out->body.as<CallNode>();
  REQUIRE(call != nullptr);
  CHECK(call->args[0].same_as(a));
  CHECK(call->args[1].same_as(a));
}

TEST_CASE("EliminateCommonSubexpr works inside 20000 nested typed closures, not in their types") {
  const Op exp = Op::make("exp");
  const Function f = passes::infer_type(nested_closures(20000, [&](const Var& x) {
    return Call::make(Op::make("add"), {Call::make(exp, {x}), Call::make(exp, {x})});
  }));
  const Function out = passes::eliminate_common_subexpr(f);
  const auto* call = innermost_body(out).as<CallNode>();
  REQUIRE(call != nullptr);
  CHECK(call->args[0].same_as(call->args[1]));
  CHECK(passes::eliminate_common_subexpr(out).same_as(out));
}

TEST_CASE("EliminateCommonSubexpr rewrites a node both branches share once, valid in each") {
  // The shared exp(negative(%x)) must not reuse %t, which only the then branch binds: its
  // one rewrite serves both branches, so it is the node itself.
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  const Var c = Var::make("c", TensorType::make({}, DataType::boolean()));
  const Var t = Var::make("t", type);
  const Op negative = Op::make("negative");
  const Call shared = Call::make(Op::make("exp"), {Call::make(negative, {x})});
  const Expr then_branch =
      Let::make(t, Call::make(negative, {x}), Call::make(Op::make("add"), {t, shared}));
  const Expr else_branch = Call::make(Op::make("subtract"), {shared, x});
  const Function f = Function::make({x, c}, If::make(c, then_branch, else_branch));
  CHECK(passes::eliminate_common_subexpr(f).same_as(f));
}

TEST_CASE("EliminateCommonSubexpr takes a DAG of 1000 bindings each used twice in stride") {
  // %k = add(%k-1, %k-2): 2^1000 paths, so this finishes only if each node is met once.
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  const Var y = Var::make("y", type);
  const Expr newer = fibonacci_dag(x, y, 1000);
  const Function f = Function::make({x, y}, Call::make(Op::make("multiply"), {newer, newer}));
  CHECK(passes::eliminate_common_subexpr(f).same_as(f));
}

TEST_CASE(
    "EliminateCommonSubexpr rewrites a dataflow graph as it rewrites the same graph in a let") {
  // Without a let, an if or a closure a function is one block, which the pass handles
  // without placing each computation; inside a let's body the general placement runs. Both
  // must give the same rewrite. Blocks of `a = add(prev, x); b = multiply(r_j, r_k);
  // d = multiply(a, b); c = add(prev, x); r = subtract(d, c)`: c repeats a, and the r_j
  // are used many times.
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  std::vector<Expr> results{x};
  std::uint64_t state = 7;
  const auto pick = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return results[static_cast<std::size_t>(state >> 33U) % results.size()];
  };
  for (int block = 0; block < 300; ++block) {
    const Expr prev = results.back();
    const Expr a = Call::make(Op::make("add"), {prev, x});
    const Expr b = Call::make(Op::make("multiply"), {pick(), pick()});
    const Expr d = Call::make(Op::make("multiply"), {a, b});
    const Expr c = Call::make(Op::make("add"), {prev, x});
    results.push_back(Call::make(Op::make("subtract"), {d, c}));
  }
  const Function flat = Function::make({x}, results.back());
  const Var unused = Var::make("unused", type);
  const Function in_let = Function::make({x}, Let::make(unused, x, results.back()));
  const Function flat_out = passes::eliminate_common_subexpr(flat);
  const Function let_out = passes::eliminate_common_subexpr(in_let);
  CHECK_FALSE(flat_out.same_as(flat));
  const auto* let = let_out->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(structural_equal(flat_out->body, let->body));
  // Each block's c became its a (and a repeated b its first): no two calls left are equal.
  std::vector<Call> calls;
  walk(flat_out, [&](const Call& call) { calls.push_back(call); });
  CHECK(calls.size() <= 4 * 300);
  std::set<std::uint64_t> hashes;
  for (const Call& call : calls) {
    hashes.insert(structural_hash(call));
  }
  CHECK(hashes.size() == calls.size());
}

TEST_CASE("EliminateCommonSubexpr runs InferType first in a sequential at opt_level 3") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  let %a = exp(%x);
  let %b = exp(%x);
  add(%a, %b)
}
)");
  const auto pipeline = sequential(passes::EliminateCommonSubexpr{});
  const IRModule expected = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %a: Tensor[(2), float32] = exp(%x);
  add(%a, %a)
}
)");
  PassContext o3{{.opt_level = 3}};
  CHECK_NOTHROW(assert_structural_equal(pipeline(mod, o3), expected));
  PassContext o2{{.opt_level = 2}};
  CHECK(pipeline(mod, o2).same_as(mod));
}

TEST_CASE("EliminateCommonSubexpr is registered by name with opt_level 3 and requires InferType") {
  REQUIRE(PassRegistry::global().contains("EliminateCommonSubexpr"));
  const Pass p = PassRegistry::global().create("EliminateCommonSubexpr");
  CHECK(p.info().opt_level == 3);
  CHECK(p.info().required.contains("InferType"));
  CHECK(passes::EliminateCommonSubexpr::info().opt_level == 3);
}
