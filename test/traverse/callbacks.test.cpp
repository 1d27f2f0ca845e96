// Tests of include/ctir/traverse/callbacks.hpp: results, orders, on<...>, excluding<...>,
// not_into<...>, lists and Mapped.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <type_traits>
#include <vector>

using namespace ctir;

// The vocabulary is constexpr where it can be.
static_assert(advance.action() == WalkAction::advance);
static_assert(skip.was_skipped());
static_assert(interrupt().was_interrupted());
static_assert(WalkOrder(pre_order) == WalkOrder::pre);
static_assert(WalkOrder(post_order) == WalkOrder::post);
static_assert(std::is_same_v<decltype(interrupt(Var())), WalkResult<Var>>);
// on<...> takes node types or Refs, and names node types.
inline constexpr auto on_statement = [](const Stmt&) {};
static_assert(std::is_same_v<decltype(on<For, TensorStoreNode>(on_statement))::match_types,
                             type_list<ForNode, TensorStoreNode>>);
// excluding<...> takes node types or Refs and wraps any callback.
static_assert(std::is_same_v<decltype(excluding<PrimExpr>(on_statement))::excluded_types,
                             type_list<PrimExprNode>>);
// Mapped<Add> and Mapped<AddNode> name the same view.
static_assert(std::is_same_v<Mapped<Add>, Mapped<AddNode>>);
// Traversal roots: Refs and node handles.
static_assert(traversal_root<PrimFunc>);
static_assert(traversal_root<ObjectRef>);
static_assert(traversal_root<IRModule>);
static_assert(!traversal_root<int>);
static_assert(!traversal_root<PrimFuncNode>);

TEST_CASE("advance, skip and interrupt convert to a WalkResult with a payload") {
  WalkResult<int> a = advance;
  WalkResult<int> s = skip;
  WalkResult<int> i = interrupt();
  WalkResult<int> p = interrupt(7);
  CHECK(a.action() == WalkAction::advance);
  CHECK_FALSE(a.payload().has_value());
  CHECK(s.was_skipped());
  CHECK(i.was_interrupted());
  CHECK_FALSE(i.payload().has_value());
  CHECK(p.was_interrupted());
  REQUIRE(p.payload().has_value());
  CHECK(*p.payload() == 7);
}

TEST_CASE("a WalkResult with a payload converts to one with a wider payload") {
  For loop = For::make(Var::make("i", DataType::int32()), 0, 1, SeqStmt::make({}));
  WalkResult<Stmt> result = interrupt(loop);
  REQUIRE(result.payload().has_value());
  CHECK(result.payload()->same_as(loop));
}

TEST_CASE("MapResult holds either unchanged or a replacement, literals included") {
  MapResult<PrimExpr> kept = unchanged;
  CHECK(kept.is_unchanged());
  CHECK_FALSE(kept.node().defined());
  MapResult<PrimExpr> replaced = 128;
  CHECK_FALSE(replaced.is_unchanged());
  CHECK(replaced.node().as<IntImmNode>()->value == 128);
  MapResult<PrimExpr> to_null = PrimExpr();
  CHECK_FALSE(to_null.is_unchanged());
  CHECK_FALSE(to_null.node().defined());
}

TEST_CASE("a callback list keeps its callbacks in order and gives access to them") {
  int calls = 0;
  auto list =
      callbacks([&](const For&) { ++calls; }, on<TensorStore>([&](const auto&) { ++calls; }));
  static_assert(decltype(list)::size == 2);
  get<0>(list)(For());
  CHECK(calls == 1);
}

TEST_CASE("callback lists nest into the arguments of a traversal") {
  Var out = Var::make("out", TensorType::make({2}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  Stmt body = For::make(i, 0, 2, TensorStore::make(out, {i}, 1.0f));
  std::vector<std::string> seen;
  auto first = callbacks([&](const For&) { seen.push_back("For"); });
  walk(
      body, first, [&](const TensorStore&) { seen.push_back("TensorStore"); },
      callbacks([&](const IntImm&) { seen.push_back("IntImm"); }), pre_order);
  CHECK(seen == std::vector<std::string>{"For", "IntImm", "IntImm", "TensorStore"});
}

TEST_CASE("the same callbacks serve a walk and a map when their results fit both") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr e = x + 1;
  int seen = 0;
  auto count = [&](const IntImm& imm) {
    ++seen;
    return imm;
  };
  PrimExpr same = map(e, count);
  CHECK(same.same_as(e));
  CHECK(seen == 1);
}

TEST_CASE("excluding leaves a callback's excluded types and their subtypes out") {
  Var n = Var::make("n", DataType::int32());
  Var x = Var::make("x", TensorType::make({n}, DataType::float32()));
  Function f = Function::make(
      {x},
      call("add", {x, Constant::make(TensorData::from_doubles(DataType::float32(), {}, {1.0}))}));
  int exprs = 0;
  int vars = 0;
  int others = 0;
  // The first matching callback runs: the excluded one lets variables through to the next.
  walk(
      f, excluding<Var>([&](const Expr&) { ++exprs; }), [&](const Var&) { ++vars; },
      [&](const Object&) { ++others; });
  CHECK(exprs == 4); // the Op, the Constant, the Call, the Function; not x or n
  CHECK(vars == 3);  // x at its definition and its use, n in x's type
  CHECK(others > 0); // the TensorType and its PrimTypes
  // It narrows an on<...>, a with_def_region_kind callback and a list alike.
  int defined = 0;
  walk(f, excluding<Var>(on<Call, Var>([&](const Expr&) { ++exprs; })),
       excluding<TensorType>(with_def_region_kind(
           [&](const Var&, DefRegionKind kind) { defined += kind != DefRegionKind::none; })));
  CHECK(exprs == 5);
  CHECK(defined == 2); // x and n, at the parameter
  int calls = 0;
  walk(f, excluding<Constant>(callbacks(
              [&](const Call&) { ++calls; },
              [&](const Constant&) { FAIL("an excluded constant was passed to a callback"); })));
  CHECK(calls == 1);
}

TEST_CASE("a map whose callback excludes PrimExpr rewrites graph-level nodes and keeps types") {
  Var n = Var::make("n", DataType::int32());
  Var x = Var::make("x", TensorType::make({n}, DataType::float32()));
  Function f = Function::make({x}, call("add", {x, x}));
  int seen = 0;
  Function same = map(f, excluding<PrimExpr>([&](const Expr& e) -> Expr {
                        ++seen;
                        return e;
                      }));
  CHECK(same.same_as(f));
  CHECK(seen == 3); // the Op, the Call, the Function
  Function renamed =
      map(f, excluding<PrimExpr>([&](const Call& c) -> Expr { return call("multiply", c->args); }));
  CHECK(renamed->body.as<CallNode>()->op.as<OpNode>()->name == "multiply");
  CHECK(renamed->params[0].same_as(x));
}

TEST_CASE("not_into keeps a traversal out of the types it names and everything inside them") {
  Var n = Var::make("n", DataType::int32());
  Var x = Var::make("x", TensorType::make({n}, DataType::float32()));
  Function f = Function::make({x}, call("add", {x, x}));
  int vars = 0;
  int types = 0;
  walk(f, not_into<Type>(callbacks([&](const Var&) { ++vars; }, [&](const Type&) { ++types; })));
  CHECK(vars == 3); // x at its definition and its two uses; not n, inside x's type
  CHECK(types == 0);
  // A map renames what it enters and keeps what it does not: x's type still holds n.
  Var m = Var::make("m", DataType::int32());
  Var y = Var::make("y", x->ty);
  auto rename = [&](const Var& v) -> Var { return v.same_as(n) ? m : v.same_as(x) ? y : v; };
  Function renamed = map(f, not_into<Type>(rename));
  REQUIRE(renamed->params.size() == 1);
  CHECK(renamed->params[0].same_as(y));
  CHECK(renamed->params[0]->ty.same_as(x->ty));
  Function everywhere = map(f, rename);
  CHECK(!everywhere->params[0]->ty.same_as(x->ty)); // without not_into, n becomes m
}

TEST_CASE("not_into keeps a traversal out of node types registered at run time below them") {
  // A probe is a PrimExpr registered at run time; as a call's argument it sits in a field of
  // static type Expr, which the traversal enters.
  Var x = Var::make("x", DataType::float32());
  Expr inner = call("add", {x, x});
  PrimExpr probe = testing::probe_expr({inner});
  Expr outer = call("add", {x, probe});
  int calls = 0;
  walk(outer, [&](const Call&) { ++calls; });
  CHECK(calls == 2);
  calls = 0;
  walk(outer, not_into<PrimExpr>([&](const Call&) { ++calls; }));
  CHECK(calls == 1);
  Expr renamed = map(
      outer, not_into<PrimExpr>([&](const Call& c) -> Expr { return call("multiply", c->args); }));
  const auto* top = renamed.as<CallNode>();
  REQUIRE(top != nullptr);
  CHECK(top->op.as<OpNode>()->name == "multiply");
  CHECK(top->args[1].same_as(probe));
}
