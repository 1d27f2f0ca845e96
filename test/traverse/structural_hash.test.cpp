// Tests of structural_hash (static layer).
#include <ctir/ctir.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

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

TEST_CASE("a chain a million levels deep hashes without exhausting the stack") {
  const Var x = int_var("x");
  const PrimExpr a = deep_chain(1000000, x);
  const PrimExpr b = deep_chain(1000000, x);
  CHECK(hash_of(a) == hash_of(b));
  CHECK(hash_of(a) != hash_of(deep_chain(1000000, IntImm::make(2))));
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
