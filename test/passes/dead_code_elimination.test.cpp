// Tests of ctir/passes/dead_code_elimination.hpp: unused let bindings are dropped.
#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <cstddef>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// The definition of the pass, written as directly as possible: innermost first, a let
/// goes when its (already cleaned) body does not mention its variable. Quadratic on a
/// chain of lets, so for small inputs only.
Function drop_unmentioned_lets(const Function& f) {
  return map(f, [](const Let& let) -> Expr {
    const auto mentioned = walk(let->body, [&](const Var& v) -> WalkResult<bool> {
      return v.same_as(let->var) ? interrupt(true) : WalkResult<bool>(advance);
    });
    return mentioned.has_value() ? Expr(let) : let->body;
  });
}

Type tensor2() { return TensorType::make({2}, DataType::float32()); }

/// `let %v0 = exp(%x); ... let %v<n-1> = exp(%x); (the kept variables)`: each variable is
/// used only by the tuple at the end of the chain, where `kept(k)` says it is.
template <class Kept>
Function late_use_chain(std::size_t n, Kept kept) {
  const Var x = Var::make("x", tensor2());
  std::vector<Var> vars;
  std::vector<Expr> used;
  for (std::size_t k = 0; k < n; ++k) {
    vars.push_back(Var::make("v" + std::to_string(k), tensor2()));
    if (kept(k)) {
      used.push_back(vars.back());
    }
  }
  Expr body = Tuple::make(std::move(used));
  for (std::size_t k = n; k-- > 0;) {
    body = Let::make(vars[k], Call::make(Op::make("exp"), {x}), body);
  }
  return Function::make({x}, body);
}

std::size_t count_lets(const Function& f) {
  std::size_t lets = 0;
  walk(f, [&](const Let&) { ++lets; });
  return lets;
}

} // namespace

TEST_CASE("DeadCodeElimination meets the laws of its golden cases") {
  check_golden_laws("dead_code_elimination", passes::DeadCodeElimination{}, {.min_runs = 6});
}

TEST_CASE("DeadCodeElimination is registered by name with opt_level 1") {
  REQUIRE(PassRegistry::global().contains("DeadCodeElimination"));
  CHECK(PassRegistry::global().create("DeadCodeElimination").info().opt_level == 1);
}

TEST_CASE("DeadCodeElimination drops exactly the lets whose cleaned body does not mention them") {
  std::size_t functions = 0;
  for (const IRModule& mod : well_typed_generated_modules(40)) {
    for (const auto& function : mod.functions_of<FunctionNode>()) {
      // Not a structured binding: clang 14 cannot capture one in CAPTURE's lambda.
      const std::string& name = function.first->name;
      const Function& f = function.second;
      CAPTURE(name);
      CHECK_NOTHROW(
          assert_structural_equal(passes::eliminate_dead_code(f), drop_unmentioned_lets(f)));
      ++functions;
    }
  }
  CHECK(functions >= 40);
}

TEST_CASE("DeadCodeElimination drops a binding used only by a dead binding's value") {
  // let %a = exp(%x); let %b = (let %c = negative(%a); %c); %x : %b is dead, so %a, used
  // only inside %b's value, is dead too; %c is gone with %b.
  const Var x = Var::make("x", tensor2());
  const Var a = Var::make("a", tensor2());
  const Var b = Var::make("b", tensor2());
  const Var c = Var::make("c", tensor2());
  const Expr b_value = Let::make(c, Call::make(Op::make("negative"), {a}), c);
  const Function f =
      Function::make({x}, Let::make(a, Call::make(Op::make("exp"), {x}), Let::make(b, b_value, x)));
  const Function out = passes::eliminate_dead_code(f);
  CHECK(out->body.same_as(x));
}

TEST_CASE("DeadCodeElimination keeps a binding used in a live closure") {
  const Var x = Var::make("x", tensor2());
  const Var a = Var::make("a", tensor2());
  const Var g = Var::make("g");
  const Var p = Var::make("p", tensor2());
  const Function closure = Function::make({p}, Call::make(Op::make("add"), {p, a}));
  const Function f = Function::make({x}, Let::make(a, Call::make(Op::make("exp"), {x}),
                                                   Let::make(g, closure, Call::make(g, {x}))));
  CHECK(passes::eliminate_dead_code(f).same_as(f));
}

TEST_CASE("DeadCodeElimination returns a function without lets as itself") {
  const Var x = Var::make("x", tensor2());
  const Var y = Var::make("y", tensor2());
  const Function f = Function::make({x, y}, fibonacci_dag(x, y, 2000));
  CHECK(passes::eliminate_dead_code(f).same_as(f));
}

TEST_CASE("DeadCodeElimination is linear on a long chain of lets used at its end") {
  // Asking each let whether the rest of the chain mentions its variable walks the whole
  // rest: 200,000 lets would take 2 * 10^10 node visits. Once each node costs the same.
  constexpr std::size_t n = 200'000;
  const Function all_used = late_use_chain(n, [](std::size_t) { return true; });
  CHECK(passes::eliminate_dead_code(all_used).same_as(all_used));

  const Function half_used = late_use_chain(n, [](std::size_t k) { return k % 2 == 0; });
  const Function out = passes::eliminate_dead_code(half_used);
  CHECK(count_lets(out) == n / 2);
  // The kept lets are the even ones, in order.
  const auto* let = out->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->var->name == "v0");
  const auto* next = let->body.as<LetNode>();
  REQUIRE(next != nullptr);
  CHECK(next->var->name == "v2");
}
