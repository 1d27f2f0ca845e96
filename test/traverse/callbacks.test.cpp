// Tests of include/ctir/traverse/callbacks.hpp: results, orders, on<...>, lists and Mapped.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

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
