// Tests of structural_hash (static layer).
#include <ctir/ctir.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <deep_nesting.hpp>
#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>

using namespace ctir;
using ctir::testing::make_add;

namespace {

Var int_var(const char* name) { return Var::make(name, DataType::int32()); }

template <class T>
std::uint64_t hash_of(const T& value, bool map_free_vars = false) {
  const std::uint64_t h = structural_hash(value, {.map_free_vars = map_free_vars});
  CHECK(runtime::structural_hash(value, {.map_free_vars = map_free_vars}) == h);
  return h;
}

} // namespace

TEST_CASE("structurally equal programs hash alike") {
  CHECK(hash_of(make_add(1)) == hash_of(make_add(1)));
  CHECK(hash_of(make_add(1)) != hash_of(make_add(2)));
}

TEST_CASE("the hash is the same in every run: no address enters it") {
  // A golden value: hashes depend only on structure, type keys and values.
  CHECK(hash_of(make_add(1)) == 10057645021486673516ULL);
  CHECK(hash_of(make_add(1), true) == 10057645021486673516ULL);
}

TEST_CASE("free variables hash by name and type, bound ones by definition order") {
  // Two different free variables named x: unequal, but they hash alike (a hash may
  // collide; it must not depend on addresses).
  const Var x = int_var("x");
  const Var other_x = int_var("x");
  const Var y = int_var("y");
  CHECK_FALSE(structural_equal(x + 1, other_x + 1));
  CHECK(hash_of(x + 1) == hash_of(other_x + 1));
  CHECK(hash_of(x + 1) != hash_of(y + 1));
  // With map_free_vars, free variables hash by the order of their first encounter.
  CHECK(hash_of(x + 1, true) == hash_of(y + 1, true));
  CHECK(hash_of(x + y, true) == hash_of(y + x, true));
  CHECK(hash_of(x + y, true) != hash_of(x + x, true));
}

TEST_CASE("bound variables hash by the order of their definitions, not their names") {
  auto sub = [](bool swapped) {
    const Var a = Var::make("a");
    const Var b = Var::make("b");
    return Function::make({a, b}, swapped ? call("subtract", {b, a}) : call("subtract", {a, b}));
  };
  CHECK(hash_of(sub(false)) == hash_of(sub(false)));
  CHECK(hash_of(sub(false)) != hash_of(sub(true)));
}

TEST_CASE("a variable's type is hashed at its definition") {
  const Var p = Var::make("p", tensor_type({4}, DataType::float32()));
  const Var q = Var::make("p", tensor_type({4}, DataType::float16()));
  CHECK(hash_of(Function::make({p}, p)) != hash_of(Function::make({q}, q)));
}

TEST_CASE("plain values hash bitwise, with every NaN alike") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(hash_of(FloatImm::make(nan)) == hash_of(FloatImm::make(-nan)));
  CHECK(hash_of(FloatImm::make(0.0)) != hash_of(FloatImm::make(-0.0)));
  CHECK(hash_of(IntImm::make(1, DataType::int32())) != hash_of(IntImm::make(1, DataType::int64())));
}

TEST_CASE("ignored fields do not change the hash") {
  const PrimFunc f = make_add(1);
  CHECK(hash_of(f) == hash_of(PrimFunc::make("renamed", f->params, f->body)));
}

TEST_CASE("a null value and a null field hash without error") {
  CHECK(hash_of(PrimExpr()) == hash_of(Expr()));
  const Var x = int_var("x");
  const Var A = Var::make("A", tensor_type({4}, DataType::int32()));
  const Stmt store = TensorStore::make(A, {0}, x);
  CHECK(hash_of(IfThenElse::make(lt(x, 1), store)) !=
        hash_of(IfThenElse::make(lt(x, 1), store, store)));
}

TEST_CASE("hashes spread: distinct small programs rarely share one") {
  std::set<std::uint64_t> seen;
  const Var x = int_var("x");
  int programs = 0;
  for (int a = 0; a < 20; ++a) {
    for (int b = 0; b < 20; ++b) {
      seen.insert(hash_of(x * a + b));
      seen.insert(hash_of(x * a - b));
      programs += 2;
    }
  }
  CHECK(seen.size() == static_cast<std::size_t>(programs));
}

namespace {

PrimExpr deep_chain(std::size_t depth, PrimExpr leaf) {
  PrimExpr e = std::move(leaf);
  for (std::size_t k = 0; k < depth; ++k) {
    e = Add::make(e, 1);
  }
  return e;
}

PrimExpr prim_dag(int k, const PrimExpr& leaf) {
  PrimExpr d = leaf;
  for (int level = 0; level < k; ++level) {
    d = Add::make(d, d);
  }
  return d;
}

/// The same value as prim_dag, without any sharing (2^k leaves).
PrimExpr prim_tree(int k, const PrimExpr& leaf) {
  if (k == 0) {
    return leaf;
  }
  return Add::make(prim_tree(k - 1, leaf), prim_tree(k - 1, leaf));
}

Expr graph_dag(int k, const Expr& leaf) {
  Expr d = leaf;
  for (int level = 0; level < k; ++level) {
    d = call("add", {d, d});
  }
  return d;
}

Expr graph_tree(int k, const Expr& leaf) {
  if (k == 0) {
    return leaf;
  }
  return call("add", {graph_tree(k - 1, leaf), graph_tree(k - 1, leaf)});
}

} // namespace

TEST_CASE("a chain far deeper than native recursion could go hashes without exhausting the "
          "stack") {
  const Var x = int_var("x");
  const PrimExpr a = deep_chain(testing::deep_nesting, x);
  const PrimExpr b = deep_chain(testing::deep_nesting, x);
  CHECK(hash_of(a) == hash_of(b));
  CHECK(hash_of(a) != hash_of(deep_chain(testing::deep_nesting, IntImm::make(2))));
}

TEST_CASE("shared DAGs 60 levels deep hash in time linear in their distinct nodes" *
          doctest::timeout(60)) {
  const Var x = int_var("x");
  CHECK(hash_of(prim_dag(60, x)) == hash_of(prim_dag(60, x)));
  CHECK(hash_of(prim_dag(60, x)) != hash_of(prim_dag(60, int_var("y"))));
  const Var g = Var::make("g");
  CHECK(hash_of(graph_dag(60, g)) == hash_of(graph_dag(60, g)));
}

TEST_CASE("a memoized subtree contributes exactly what hashing it again would") {
  // Tensor-level sharing is not part of the value, so a DAG and its fully expanded tree
  // hash alike: that checks the memo (used for the DAG, never for the tree) against plain
  // hashing.
  const Var x = int_var("x");
  CHECK(hash_of(prim_dag(10, x)) == hash_of(prim_tree(10, x)));
  CHECK(hash_of(prim_dag(10, x), true) == hash_of(prim_tree(10, x), true));
  CHECK(structural_equal(prim_dag(10, x), prim_tree(10, x)));
}

TEST_CASE("a graph-level DAG hashes apart from its expanded tree, as it compares") {
  const Var g = Var::make("g");
  CHECK_FALSE(structural_equal(graph_dag(10, g), graph_tree(10, g)));
  CHECK(hash_of(graph_dag(10, g)) != hash_of(graph_tree(10, g)));
  // %0 = add(%x, %x); add(%0, %0) against add(add(%x, %x), add(%x, %x)).
  const Var x = Var::make("x");
  const Expr shared = call("add", {x, x});
  const Expr dag = call("add", {shared, shared});
  const Expr tree = call("add", {call("add", {x, x}), call("add", {x, x})});
  CHECK_FALSE(structural_equal(dag, tree));
  CHECK(hash_of(dag) != hash_of(tree));
  // Equal DAGs built apart hash alike, whichever of their nodes is shared where.
  const Expr again = call("add", {x, x});
  CHECK(structural_equal(dag, Expr(call("add", {again, again}))));
  CHECK(hash_of(dag) == hash_of(call("add", {again, again})));
  // Sharing in different places: (s, s, t) against (s, t, t).
  const Expr t = call("multiply", {x, x});
  const Expr left = Tuple::make({shared, shared, t});
  const Expr right = Tuple::make({shared, t, t});
  CHECK_FALSE(structural_equal(left, right));
  CHECK(hash_of(left) != hash_of(right));
}

TEST_CASE("a shared subtree that defines variables hashes like its unshared copies") {
  // A closure used twice: its first visit defines its parameter (not memoizable), the
  // second sees only known variables (memoized), and both agree with fresh copies.
  auto closure = [] {
    const Var p = Var::make("p");
    return Function::make({p}, call("negative", {p}));
  };
  const Function shared = closure();
  const Tuple twice = Tuple::make({shared, shared, shared});
  const Function first = closure();
  const Tuple copies = Tuple::make({first, first, first});
  CHECK(hash_of(twice) == hash_of(copies));
  CHECK(structural_equal(twice, copies));
  // A shared subtree that uses a variable bound outside it.
  const Var v = Var::make("v");
  const Expr use = call("add", {v, Expr(PrimExpr(1.0f))});
  const Expr with_sharing = Let::make(v, PrimExpr(0.0f), Tuple::make({use, use}));
  const Var w = Var::make("w");
  const Expr without_sharing = Let::make(w, PrimExpr(0.0f),
                                         Tuple::make({call("add", {w, Expr(PrimExpr(1.0f))}),
                                                      call("add", {w, Expr(PrimExpr(1.0f))})}));
  // Graph-level sharing is part of the value: the shared call is one node used twice.
  CHECK_FALSE(structural_equal(with_sharing, without_sharing));
  CHECK(hash_of(with_sharing) != hash_of(without_sharing));
  const Var u = Var::make("u");
  const Expr use_u = call("add", {u, Expr(PrimExpr(1.0f))});
  const Expr shared_again = Let::make(u, PrimExpr(0.0f), Tuple::make({use_u, use_u}));
  CHECK(structural_equal(with_sharing, shared_again));
  CHECK(hash_of(with_sharing) == hash_of(shared_again));
  // A shared subtree whose first visit meets a free variable for the first time.
  const Var free = Var::make("free");
  const Expr free_use = call("add", {free, free});
  const Expr free_again = call("add", {free, free});
  CHECK(hash_of(Tuple::make({free_use, free_use})) ==
        hash_of(Tuple::make({free_again, free_again})));
}

TEST_CASE("IRModules hash through their node") {
  const IRModule first{make_add(1)};
  const IRModule second{make_add(1)};
  CHECK(structural_hash(first) == structural_hash(second));
  CHECK(structural_hash(first) == structural_hash(first.node()));
}

TEST_CASE("the running hash stays partly reduced yet congruent to the exact polynomial") {
  using detail::structural::add61;
  using detail::structural::fold61;
  using detail::structural::hash_base;
  using detail::structural::hash_prime;
  using detail::structural::mul61;
  using detail::structural::reduce61;
  const std::uint64_t bound = (std::uint64_t{1} << 62U) + 16;
  auto exact = [](std::uint64_t acc, std::uint64_t token) {
    return add61(mul61(reduce61(acc), hash_base), reduce61(token));
  };
  // The extremes of what fold61 accepts and of 64-bit tokens.
  const std::uint64_t accs[] = {0,
                                1,
                                hash_prime - 1,
                                hash_prime,
                                hash_prime + 1,
                                std::uint64_t{1} << 61U,
                                (std::uint64_t{1} << 62U) - 1,
                                bound - 1};
  const std::uint64_t tokens[] = {0,
                                  1,
                                  hash_prime - 1,
                                  hash_prime,
                                  hash_prime + 1,
                                  ~hash_prime,
                                  ~std::uint64_t{0},
                                  std::uint64_t{1} << 63U};
  for (const std::uint64_t acc : accs) {
    for (const std::uint64_t token : tokens) {
      CAPTURE(acc);
      CAPTURE(token);
      const std::uint64_t folded = fold61(acc, token);
      CHECK(folded < bound);
      CHECK(reduce61(folded) == exact(acc, token));
    }
  }
  // A long run never leaves the bound and stays congruent to the fully reduced hash.
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  std::uint64_t partial = 0;
  std::uint64_t reduced = 0;
  for (int k = 0; k < 100000; ++k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t token = k % 7 == 0 ? ~std::uint64_t{0} : state ^ (state >> 29U);
    partial = fold61(partial, token);
    reduced = exact(reduced, token);
    REQUIRE(partial < bound);
    REQUIRE(reduce61(partial) == reduced);
  }
}

TEST_CASE("a memoized subtree far into a program contributes what hashing it again would") {
  // The memo reads the partly reduced running hash at both ends of a shared subtree, after
  // thousands of tokens: a tensor-level DAG (memoized) and its expanded tree hash alike, on
  // the recursive fast path (a wide, shallow prefix) and past its depth budget (a chain).
  const Var x = int_var("x");
  const PrimExpr wide = prim_tree(11, x * 3 + 7);
  CHECK(hash_of(wide + prim_dag(8, x + 1)) == hash_of(wide + prim_tree(8, x + 1)));
  CHECK(hash_of(wide + prim_dag(8, x + 1), true) == hash_of(wide + prim_tree(8, x + 1), true));
  const PrimExpr deep = deep_chain(3000, x);
  CHECK(hash_of(deep + prim_dag(8, x + 1)) == hash_of(deep + prim_tree(8, x + 1)));
  CHECK(hash_of(prim_dag(8, x + 1) + deep) == hash_of(prim_tree(8, x + 1) + deep));
  CHECK(hash_of(wide + prim_dag(8, x + 1)) != hash_of(wide + prim_dag(8, x + 2)));
}

TEST_CASE("variables met again hash by their first encounter on the recursive path") {
  // Every use after the first is a lookup of the token fixed then: a definition's order, or
  // a free variable's name (its order under map_free_vars).
  const Var A = Var::make("A", tensor_type({8}, DataType::int32()));
  auto program = [&](const Var& i, const Var& u, const Var& w) {
    return For::make(i, 0, 8, TensorStore::make(A, {i}, load(A, {u}) + load(A, {w}) * i + u));
  };
  const Var i = int_var("i");
  const Var j = int_var("j");
  const Var n = int_var("n");
  const Var m = int_var("m");
  // Alpha-renamed loops hash alike; using the loop variable or a free one does not.
  CHECK(hash_of(program(i, i, i)) == hash_of(program(j, j, j)));
  CHECK(hash_of(program(i, i, n)) == hash_of(program(j, j, n)));
  CHECK(hash_of(program(i, i, n)) != hash_of(program(j, n, j)));
  // Free variables: by name without map_free_vars, by first encounter with it.
  CHECK(hash_of(program(i, n, n)) != hash_of(program(i, m, m)));
  CHECK(hash_of(program(i, n, n), true) == hash_of(program(j, m, m), true));
  CHECK(hash_of(program(i, n, m), true) != hash_of(program(i, n, n), true));
  CHECK(structural_equal(program(i, n, n), program(j, m, m), {.map_free_vars = true}));
  CHECK_FALSE(structural_equal(program(i, n, m), program(i, n, n), {.map_free_vars = true}));
}

TEST_CASE("a plug-in type sharing a dispatch slot with a compiled type hashes by its fields") {
  // The static layer dispatches through a table indexed by a hash of the type index; a
  // type outside the compiled universe can land in a compiled type's slot and must be
  // hashed through its field table, not as that type.
  const TypeInfo& twin = ctir::testing::slot_twin_type();
  const Var x = int_var("x");
  const ObjectRef a = ctir::testing::make_dynamic(twin, {x, IntImm::make(1)});
  const ObjectRef same = ctir::testing::make_dynamic(twin, {x, IntImm::make(1)});
  const ObjectRef other = ctir::testing::make_dynamic(twin, {x, IntImm::make(2)});
  CHECK(hash_of(a) == hash_of(same));
  CHECK(hash_of(a) != hash_of(other));
  CHECK(hash_of(a) != hash_of(ObjectRef(x)));
  CHECK(hash_of(a, true) ==
        hash_of(ctir::testing::make_dynamic(twin, {int_var("y"), IntImm::make(1)}), true));
}
