// Tests of structural_equal and find_structural_mismatch (static layer).
#include <ctir/ctir.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <deep_nesting.hpp>
#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <cmath>
#include <limits>
#include <string>

using namespace ctir;
using ctir::testing::make_add;

namespace {

template <class T>
ObjectRef erased(const T& value) {
  if constexpr (requires { value.node(); }) {
    return value.node();
  } else {
    return value;
  }
}

/// The path of the first mismatch, from both layers (which must agree), or "" if equal.
template <class A, class B>
std::string mismatch_path(const A& a, const B& b, StructuralEqualOptions options = {}) {
  const auto fast = find_structural_mismatch(a, b, options);
  const auto erased_result = runtime::find_structural_mismatch(erased(a), erased(b), options);
  REQUIRE(fast.has_value() == erased_result.has_value());
  if (!fast) {
    return "";
  }
  CHECK(fast->lhs_path == erased_result->lhs_path);
  CHECK(fast->rhs_path == erased_result->rhs_path);
  CHECK(fast->lhs_path == fast->rhs_path);
  return fast->lhs_path.str();
}

Var int_var(const char* name) { return Var::make(name, DataType::int32()); }

/// `let %v = value; body` as a graph-level expression.
Expr let(const Var& v, Expr value, Expr body) {
  return Let::make(v, std::move(value), std::move(body));
}

} // namespace

TEST_CASE("two builds of seed 003's add_one are different objects but structurally equal") {
  const PrimFunc first = make_add(1);
  const PrimFunc second = make_add(1);
  CHECK_FALSE(first.same_as(second));
  CHECK(structural_equal(first, second));
  CHECK(structural_hash(first) == structural_hash(second));
  CHECK(runtime::structural_equal(first, second));
  CHECK(mismatch_path(first, second).empty());
}

TEST_CASE("a free variable equals only itself unless free variables are mapped") {
  const Var x = int_var("x");
  const Var y = int_var("y");
  CHECK_FALSE(structural_equal(x + 1, y + 1));
  CHECK(structural_equal(x + 1, y + 1, {.map_free_vars = true}));
  CHECK(structural_equal(x + 1, x + 1));
  CHECK(mismatch_path(x + 1, y + 1) == "<root>.a");
  const auto mismatch = find_structural_mismatch(x + 1, y + 1);
  REQUIRE(mismatch);
  CHECK(mismatch->lhs_node.same_as(x));
  CHECK(mismatch->rhs_node.same_as(y));
  CHECK(mismatch->reason.find("free variables 'x' and 'y'") != std::string::npos);
}

TEST_CASE("mapped free variables pair up one to one and consistently") {
  const Var x = int_var("x");
  const Var y = int_var("y");
  const Var z = int_var("z");
  const StructuralEqualOptions mapped{.map_free_vars = true};
  CHECK(structural_equal(x + y, y + x, mapped));
  // x pairs with z, so a later y cannot pair with z too, and the reverse.
  CHECK_FALSE(structural_equal(x + y, z + z, mapped));
  CHECK_FALSE(structural_equal(z + z, x + y, mapped));
  CHECK(mismatch_path(x + y, z + z, mapped) == "<root>.b");
  CHECK(mismatch_path(z + z, x + y, mapped) == "<root>.b");
  CHECK_FALSE(structural_equal(x + x, y + z, mapped));
}

TEST_CASE("a variable defined in the program pairs with its counterpart, names aside") {
  const Var a = int_var("a");
  const Var b = int_var("b");
  const Expr lhs = let(a, IntImm::make(1), a);
  const Expr rhs = let(b, IntImm::make(1), b);
  CHECK(structural_equal(lhs, rhs));
  CHECK(runtime::structural_equal(lhs, rhs));
  // ... and a definition site binds even though the variables are different objects,
  // while a use of another variable does not match.
  const Expr wrong = let(b, IntImm::make(1), int_var("c"));
  CHECK_FALSE(structural_equal(lhs, wrong));
  CHECK(mismatch_path(lhs, wrong) == "<root>.body");
}

TEST_CASE("a bound variable cannot pair with a variable that is already paired") {
  const Var a = int_var("a");
  const Var b = int_var("b");
  const Var c = int_var("c");
  const Var d = int_var("d");
  // let a = 1; let b = 2; a + b   versus   let c = 1; let d = 2; c + c
  const Expr lhs = let(a, IntImm::make(1), let(b, IntImm::make(2), a + b));
  const Expr rhs = let(c, IntImm::make(1), let(d, IntImm::make(2), c + c));
  CHECK_FALSE(structural_equal(lhs, rhs));
  CHECK_FALSE(structural_equal(rhs, lhs));
  CHECK(mismatch_path(lhs, rhs) == "<root>.body.body.b");
}

TEST_CASE("a def_pattern region binds n in A's shape and checks it in B's") {
  const PrimFunc lhs = make_add(1);
  const PrimFunc rhs = make_add(1);
  CHECK(structural_equal(lhs, rhs));

  // B's shape uses another variable m: a pattern defines it, but lhs's n is bound to
  // rhs's n already, so the mention in B's shape disagrees.
  const auto n = int_var("n");
  const auto m = int_var("m");
  const auto i = int_var("i");
  const auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  const auto B = Var::make("B", TensorType::make({m}, DataType::float32()));
  const PrimFunc mixed = PrimFunc::make(
      "add_one", {A, B},
      For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f)));
  CHECK_FALSE(structural_equal(lhs, mixed));
  CHECK_FALSE(structural_equal(mixed, lhs));
  CHECK(mismatch_path(lhs, mixed) == "<root>.params[1].ty.shape[0]");
  CHECK(mismatch_path(mixed, lhs) == "<root>.params[1].ty.shape[0]");

  // Two programs that both use two shape variables are equal.
  const auto n2 = int_var("n2");
  const auto m2 = int_var("m2");
  const auto i2 = int_var("i2");
  const auto A2 = Var::make("A", TensorType::make({n2}, DataType::float32()));
  const auto B2 = Var::make("B", TensorType::make({m2}, DataType::float32()));
  const PrimFunc mixed2 = PrimFunc::make(
      "add_one", {A2, B2},
      For::make(i2, 0, n2, TensorStore::make(B2, {i2}, TensorLoad::make(A2, {i2}) + 1.0f)));
  CHECK(structural_equal(mixed, mixed2));
}

TEST_CASE("a variable's type is compared where it is defined") {
  const auto n = int_var("n");
  const auto n2 = int_var("n");
  const Var p = Var::make("p", TensorType::make({n}, DataType::float32()));
  const Var q = Var::make("p", TensorType::make({n2}, DataType::float16()));
  const Function f = Function::make({p}, p);
  const Function g = Function::make({q}, q);
  CHECK_FALSE(structural_equal(f, g));
  CHECK(mismatch_path(f, g) == "<root>.params[0].ty.dtype");
  const auto mismatch = find_structural_mismatch(f, g);
  REQUIRE(mismatch);
  CHECK(mismatch->lhs_node.is<TensorTypeNode>());
  CHECK(mismatch->reason == "field 'dtype' differs: float32 vs float16");
}

TEST_CASE("bindings hold for the whole comparison, so a reused variable must pair the same way") {
  const auto i = int_var("i");
  const auto j = int_var("j");
  const auto k = int_var("k");
  const Var A = Var::make("A", tensor_type({4}, DataType::int32()));
  auto loop = [&](const Var& v) { return For::make(v, 0, 4, TensorStore::make(A, {v}, 0)); };
  const SeqStmt reused = SeqStmt::make({loop(i), loop(i)});
  const SeqStmt also_reused = SeqStmt::make({loop(j), loop(j)});
  const SeqStmt fresh = SeqStmt::make({loop(j), loop(k)});
  CHECK(structural_equal(reused, also_reused));
  CHECK_FALSE(structural_equal(reused, fresh));
  CHECK(mismatch_path(reused, fresh) == "<root>.seq[1].var");
}

TEST_CASE("graph-level nodes compare as a DAG: sharing must match") {
  const Var x = Var::make("x", tensor_type({4}, DataType::float32()));
  const Var y = Var::make("x", tensor_type({4}, DataType::float32()));
  auto add = [](const Var& v) { return call("add", {v, Expr(PrimExpr(1.0f))}); };
  const Call shared_add = add(x);
  const Function shared = Function::make({x}, call("multiply", {shared_add, shared_add}));
  const Function unshared = Function::make({y}, call("multiply", {add(y), add(y)}));
  CHECK_FALSE(structural_equal(shared, unshared));
  CHECK_FALSE(structural_equal(unshared, shared));
  CHECK_FALSE(runtime::structural_equal(shared, unshared));
  CHECK(mismatch_path(shared, unshared) == "<root>.body.args[1]");
  CHECK(mismatch_path(unshared, shared) == "<root>.body.args[1]");
  const auto mismatch = find_structural_mismatch(shared, unshared);
  REQUIRE(mismatch);
  CHECK(mismatch->reason.find("share nodes differently") != std::string::npos);

  // The same sharing on both sides is equal.
  const Var z = Var::make("z", tensor_type({4}, DataType::float32()));
  const Call other_shared_add = add(z);
  const Function shared_too =
      Function::make({z}, call("multiply", {other_shared_add, other_shared_add}));
  CHECK(structural_equal(shared, shared_too));
  CHECK(structural_equal(unshared, Function::make({z}, call("multiply", {add(z), add(z)}))));
}

TEST_CASE("graph-level leaves compare by value: operators, global variables, constants") {
  // call() makes a new Op node each time; GlobalVars compare by name.
  const Expr one = Constant::make(TensorData::scalar(DataType::float32(), 1));
  const Tuple shared_leaves = Tuple::make({one, one, Tuple::make({}), GlobalVar::make("f")});
  const Tuple distinct_leaves =
      Tuple::make({Constant::make(TensorData::scalar(DataType::float32(), 1)),
                   Constant::make(TensorData::scalar(DataType::float32(), 1)), Tuple::make({}),
                   GlobalVar::make("f")});
  CHECK(structural_equal(shared_leaves, distinct_leaves));
  CHECK(structural_equal(call("add", {one}), call("add", {one})));
  const GlobalVar f = GlobalVar::make("f");
  const GlobalVar other_f = GlobalVar::make("f");
  const GlobalVar g = GlobalVar::make("g");
  CHECK(structural_equal(f, other_f));
  CHECK_FALSE(structural_equal(f, g));
  CHECK(mismatch_path(f, g) == "<root>.name");
}

TEST_CASE("tensor-level expressions compare as trees: sharing is ignored") {
  const Var x = int_var("x");
  const PrimExpr twice = x * 2;
  CHECK(structural_equal(twice + twice, (x * 2) + (x * 2)));
  CHECK(structural_equal((x * 2) + (x * 2), twice + twice));
}

TEST_CASE("floats compare bitwise, except that NaN equals NaN") {
  const double quiet = std::numeric_limits<double>::quiet_NaN();
  const double negative_nan = -quiet;
  CHECK(structural_equal(FloatImm::make(quiet), FloatImm::make(negative_nan)));
  CHECK_FALSE(structural_equal(FloatImm::make(-0.0), FloatImm::make(0.0)));
  CHECK(mismatch_path(FloatImm::make(-0.0), FloatImm::make(0.0)) == "<root>.value");
  CHECK_FALSE(structural_equal(FloatImm::make(1.0), FloatImm::make(quiet)));
}

TEST_CASE("plain value fields take part: an IntImm's dtype") {
  const IntImm a = IntImm::make(1, DataType::int32());
  const IntImm b = IntImm::make(1, DataType::int64());
  CHECK_FALSE(structural_equal(a, b));
  CHECK(mismatch_path(a, b) == "<root>.dtype");
  const auto mismatch = find_structural_mismatch(a, b);
  REQUIRE(mismatch);
  CHECK(mismatch->lhs_node.same_as(a));
  CHECK(mismatch->rhs_node.same_as(b));
  CHECK(mismatch->reason == "field 'dtype' differs: int32 vs int64");
}

TEST_CASE("ignored fields take no part: name hints and spans") {
  const PrimFunc f = make_add(1);
  const PrimFunc renamed = PrimFunc::make("another_name", f->params, f->body);
  CHECK(structural_equal(f, renamed));
  auto located = clone_object(*make_add(1));
  located->span.line = 3;
  located->span.column = 7;
  CHECK(structural_equal(f, PrimFunc(std::move(located))));
}

TEST_CASE("a null field differs from a present one") {
  const Var x = int_var("x");
  const Var A = Var::make("A", tensor_type({4}, DataType::int32()));
  const Stmt store = TensorStore::make(A, {0}, x);
  const IfThenElse without_else = IfThenElse::make(lt(x, 1), store);
  const IfThenElse with_else = IfThenElse::make(lt(x, 1), store, store);
  CHECK_FALSE(structural_equal(without_else, with_else));
  CHECK(mismatch_path(without_else, with_else) == "<root>.else_case");
  const auto mismatch = find_structural_mismatch(without_else, with_else);
  REQUIRE(mismatch);
  CHECK(mismatch->lhs_node.same_as(without_else)); // the holder of the null field
  CHECK(mismatch->rhs_node.same_as(with_else->else_case));
  CHECK(structural_equal(PrimExpr(), PrimExpr()));
  CHECK_FALSE(structural_equal(PrimExpr(), PrimExpr(x)));
  CHECK(mismatch_path(PrimExpr(), PrimExpr(x)) == "<root>");
}

TEST_CASE("arrays of different lengths differ at the first missing element") {
  const Var A = Var::make("A", tensor_type({4}, DataType::int32()));
  const Stmt s0 = TensorStore::make(A, {0}, 0);
  const Stmt s1 = TensorStore::make(A, {1}, 1);
  const SeqStmt two = SeqStmt::make({s0, s1});
  const SeqStmt three = SeqStmt::make({s0, s1, s1});
  CHECK_FALSE(structural_equal(two, three));
  CHECK(mismatch_path(two, three) == "<root>.seq[2]");
  const auto mismatch = find_structural_mismatch(two, three);
  REQUIRE(mismatch);
  CHECK(mismatch->lhs_node.same_as(two));
  CHECK(mismatch->rhs_node.same_as(s1));
  CHECK(mismatch->reason == "array 'seq' has 2 elements on the lhs and 3 on the rhs");
  // An element difference before the end is reported first.
  const SeqStmt other = SeqStmt::make({s1, s1, s1});
  CHECK(mismatch_path(two, other) == "<root>.seq[0].indices[0].value");
}

TEST_CASE("nodes of different types differ at their position") {
  const Var x = int_var("x");
  CHECK_FALSE(structural_equal(x + 1, x - 1));
  CHECK(mismatch_path(x + 1, x - 1) == "<root>");
  const auto mismatch = find_structural_mismatch(x + 1, x - 1);
  REQUIRE(mismatch);
  CHECK(mismatch->reason == "lhs is a ir.Add, rhs is a ir.Sub");
}

TEST_CASE("a node's plain values are compared before its children") {
  const Var A = Var::make("A", tensor_type({4}, DataType::int32()));
  const auto i = int_var("i");
  const For serial = For::make(i, 0, 4, TensorStore::make(A, {i}, 0), ForKind::serial);
  const For parallel = For::make(i, 0, 4, TensorStore::make(A, {i}, 1), ForKind::parallel);
  CHECK(mismatch_path(serial, parallel) == "<root>.kind");
}

TEST_CASE("values of different static types compare, and so do IRModules") {
  const BaseFunc as_base = make_add(1);
  CHECK(structural_equal(make_add(1), as_base));
  CHECK_FALSE(structural_equal(as_base, make_add(2)));
  const IRModule first{make_add(1)};
  const IRModule second{make_add(1)};
  const IRModule third{make_add(2)};
  CHECK(structural_equal(first, second));
  CHECK_FALSE(structural_equal(first, third));
  CHECK(mismatch_path(first, third) == "<root>.functions[0].body.seq[0].body.seq[0].value.b.value");
}

namespace {

/// Add(...Add(Add(leaf, 1), 1)..., 1), `depth` levels.
PrimExpr deep_chain(std::size_t depth, PrimExpr leaf) {
  PrimExpr e = std::move(leaf);
  for (std::size_t k = 0; k < depth; ++k) {
    e = Add::make(e, 1);
  }
  return e;
}

constexpr auto deep = static_cast<std::size_t>(testing::deep_nesting);

} // namespace

TEST_CASE("a chain far deeper than native recursion could go compares equal without exhausting "
          "the stack") {
  const Var x = int_var("x");
  const PrimExpr a = deep_chain(deep, x);
  const PrimExpr b = deep_chain(deep, x);
  CHECK(structural_equal(a, b));
  CHECK(runtime::structural_equal(a, b));
  CHECK_FALSE(find_structural_mismatch(a, b).has_value());
}

TEST_CASE("a chain far deeper than native recursion could go that differs at the bottom "
          "reports the full path") {
  const PrimExpr a = deep_chain(deep, IntImm::make(1));
  const PrimExpr b = deep_chain(deep, IntImm::make(2));
  CHECK_FALSE(structural_equal(a, b));
  CHECK_FALSE(runtime::structural_equal(a, b));
  for (const auto& mismatch :
       {find_structural_mismatch(a, b), runtime::find_structural_mismatch(a, b)}) {
    REQUIRE(mismatch.has_value());
    const auto steps = mismatch->lhs_path.steps();
    REQUIRE(steps.size() == deep + 1);
    CHECK(steps.front().name == "a");
    CHECK(steps[deep - 1].name == "a");
    CHECK(steps.back().name == "value");
    CHECK(mismatch->lhs_node.is<IntImmNode>());
    CHECK(mismatch->lhs_path == mismatch->rhs_path);
  }
}

TEST_CASE("a graph-level let chain far deeper than native recursion could go binds every "
          "variable") {
  auto build = [](const char* prefix) {
    std::vector<Var> vars;
    vars.reserve(deep);
    for (std::size_t k = 0; k < deep; ++k) {
      vars.push_back(Var::make(prefix));
    }
    Expr body = vars.back();
    for (std::size_t k = deep; k-- > 0;) {
      body = Let::make(vars[k], k == 0 ? Expr(PrimExpr(0)) : Expr(vars[k - 1]), body);
    }
    return body;
  };
  const Expr a = build("a");
  const Expr b = build("b");
  CHECK(structural_equal(a, b));
  CHECK(runtime::structural_equal(a, b));
}

namespace {

/// d_k = d_{k-1} + d_{k-1}: 2^k paths, k + 1 distinct nodes.
PrimExpr prim_dag(int k, const PrimExpr& leaf) {
  PrimExpr d = leaf;
  for (int level = 0; level < k; ++level) {
    d = Add::make(d, d);
  }
  return d;
}

/// The graph-level version: d_k = add(d_{k-1}, d_{k-1}).
Expr graph_dag(int k, const Expr& leaf) {
  Expr d = leaf;
  for (int level = 0; level < k; ++level) {
    d = call("add", {d, d});
  }
  return d;
}

} // namespace

TEST_CASE("shared DAGs 60 levels deep compare in time linear in their distinct nodes" *
          doctest::timeout(60)) {
  const Var x = int_var("x");
  CHECK(structural_equal(prim_dag(60, x), prim_dag(60, x)));
  CHECK(runtime::structural_equal(prim_dag(60, x), prim_dag(60, x)));
  CHECK_FALSE(structural_equal(prim_dag(60, x), prim_dag(60, x + 0)));
  CHECK(mismatch_path(prim_dag(60, 1), prim_dag(60, 2)) == "<root>" + [] {
    std::string steps;
    for (int k = 0; k < 60; ++k) {
      steps += ".a";
    }
    return steps;
  }() + ".value");
  const Var g = Var::make("g", tensor_type({4}, DataType::float32()));
  CHECK(structural_equal(graph_dag(60, g), graph_dag(60, g)));
  CHECK(runtime::structural_equal(graph_dag(60, g), graph_dag(60, g)));
  CHECK_FALSE(structural_equal(graph_dag(60, g), graph_dag(60, Var::make("h"))));
}

TEST_CASE("a variable met again must meet the partner of its first encounter, on either side") {
  // Every use after the first is a lookup on the recursive path; both layers and the
  // mismatch report must agree with it.
  const Var A = Var::make("A", tensor_type({8}, DataType::int32()));
  auto program = [&](const Var& i, const Var& u, const Var& w) {
    return For::make(i, 0, 8, TensorStore::make(A, {i}, load(A, {u}) + load(A, {w}) * i + u));
  };
  const Var i = int_var("i");
  const Var j = int_var("j");
  const Var n = int_var("n");
  const Var m = int_var("m");
  auto both = [](const Stmt& a, const Stmt& b, StructuralEqualOptions options = {}) {
    const bool answer = structural_equal(a, b, options);
    CHECK(runtime::structural_equal(a, b, options) == answer);
    CHECK(find_structural_mismatch(a, b, options).has_value() == !answer);
    return answer;
  };
  CHECK(both(program(i, i, i), program(j, j, j)));
  CHECK(both(program(i, i, n), program(j, j, n)));
  // The lhs's loop variable used where the rhs uses a free one, and the reverse.
  CHECK_FALSE(both(program(i, i, n), program(j, n, n)));
  CHECK_FALSE(both(program(i, n, n), program(j, j, n)));
  CHECK(mismatch_path(program(i, i, n), program(j, n, n)) ==
        "<root>.body.seq[0].value.a.a.indices[0]");
  // One lhs variable against two rhs variables, and two against one.
  CHECK_FALSE(both(program(i, n, n), program(i, n, m), {.map_free_vars = true}));
  CHECK_FALSE(both(program(i, n, m), program(i, n, n), {.map_free_vars = true}));
  // Free variables: themselves only, unless mapped, then one to one.
  CHECK_FALSE(both(program(i, n, n), program(i, m, m)));
  CHECK(both(program(i, n, n), program(j, m, m), {.map_free_vars = true}));
  CHECK(both(program(i, n, m), program(j, m, n), {.map_free_vars = true}));
}

TEST_CASE("a plug-in type sharing a dispatch slot with a compiled type compares by its fields") {
  // The static layer dispatches through a table indexed by a hash of the type index; a
  // type outside the compiled universe can land in a compiled type's slot and must be
  // compared through its field table, not as that type.
  const TypeInfo& twin = ctir::testing::slot_twin_type();
  const Var x = int_var("x");
  const Var y = int_var("y");
  auto make = [&](const Var& v, std::int64_t value) {
    return ctir::testing::make_dynamic(twin, {v, IntImm::make(value)});
  };
  CHECK(structural_equal(make(x, 1), make(x, 1)));
  CHECK_FALSE(structural_equal(make(x, 1), make(x, 2)));
  CHECK(mismatch_path(make(x, 1), make(x, 2)) == "<root>.second.value");
  CHECK_FALSE(structural_equal(make(x, 1), make(y, 1)));
  CHECK(structural_equal(make(x, 1), make(y, 1), {.map_free_vars = true}));
  CHECK_FALSE(structural_equal(make(x, 1), ObjectRef(x)));
  CHECK(runtime::structural_equal(make(x, 1), make(y, 1), {.map_free_vars = true}));
}
