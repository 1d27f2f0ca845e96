// Tests of include/ctir/runtime/mapped.hpp: a runtime map callback that takes a Mapped view
// reads the mapped children before its node is built.
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/mapped.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include "counting_new.hpp"
#include "deep_nesting.hpp"
#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {

bool is_zero_imm(const ObjectRef& node) {
  const auto* imm = node.as<IntImmNode>();
  return imm != nullptr && imm->value == 0;
}

/// `x + 0 -> x` reading the mapped children.
runtime::Callbacks fold_with_view() {
  runtime::Callbacks cbs;
  cbs.on("ir.Add", [](const runtime::Mapped& add) -> MapResult<Object> {
    if (is_zero_imm(add.get("b"))) {
      return add.get("a");
    }
    return unchanged;
  });
  return cbs;
}

/// `x + 0 -> x` on the rebuilt node.
runtime::Callbacks fold_on_node() {
  runtime::Callbacks cbs;
  cbs.on("ir.Add", [](const ObjectRef& node) -> MapResult<Object> {
    const auto& add = static_cast<const AddNode&>(*node);
    if (is_zero_imm(add.b)) {
      return ObjectRef(add.a);
    }
    return unchanged;
  });
  return cbs;
}

/// `((x + 0) * (y + 0 + 0)) + 0` inside a store, with some adds that stay.
PrimFunc folding_input() {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  Var A = Var::make("A", TensorType::make({IntImm::make(8)}, DataType::int32()));
  Var i = Var::make("i", DataType::int32());
  PrimExpr zero = IntImm::make(0);
  PrimExpr value =
      Add::make(Mul::make(Add::make(x, zero), Add::make(Add::make(y, zero), zero)), zero) +
      (Add::make(x, zero) + 1);
  return PrimFunc::make("fold", {A, x, y},
                        For::make(i, 0, 8, TensorStore::make(A, {i}, value + (x + 2))));
}

PrimFunc fold_statically(const PrimFunc& input) {
  return map(input, [](const Mapped<Add>& add) -> MapResult<PrimExpr> {
    if (is_zero_imm(add[&AddNode::b])) {
      return add[&AddNode::a];
    }
    return unchanged;
  });
}

} // namespace

TEST_CASE("a runtime map with a Mapped callback folds like the static Mapped map and the node "
          "callback") {
  const PrimFunc input = folding_input();
  const ObjectRef viewed = runtime::map(input, fold_with_view());
  const ObjectRef on_node = runtime::map(input, fold_on_node());
  const PrimFunc expected = fold_statically(input);
  CHECK_FALSE(viewed.same_as(input));
  CHECK(structural_equal(viewed, expected));
  CHECK(structural_equal(on_node, expected));
  std::size_t adds = 0;
  runtime::Callbacks count;
  count.on("ir.Add", [&](const ObjectRef&) { ++adds; });
  runtime::walk(viewed, count);
  CHECK(adds == 4); // the sum of the product and x + 1, x + 1, the store's sum, x + 2
}

TEST_CASE("a runtime Mapped callback allocates what the static Mapped map does, no node it "
          "drops" *
          doctest::skip(!counts_allocations)) {
  const PrimFunc input = folding_input();
  const runtime::Callbacks viewed = fold_with_view();
  const runtime::Callbacks on_node = fold_on_node();
  // The first maps compute the callbacks' reach tables, which they keep.
  static_cast<void>(runtime::map(input, viewed));
  static_cast<void>(runtime::map(input, on_node));
  const long by_view = allocations_during([&] { static_cast<void>(runtime::map(input, viewed)); });
  const long by_node = allocations_during([&] { static_cast<void>(runtime::map(input, on_node)); });
  const long by_static = allocations_during([&] { static_cast<void>(fold_statically(input)); });
  CHECK(by_view == by_static);
  // The node callback sees `(y + 0) + 0` rebuilt around `y` before it drops it, and the
  // outer `... + 0` rebuilt around the product.
  CHECK(by_node > by_view);
}

TEST_CASE("a Mapped view shows the original, the mapped children and builds the node once") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  const PrimExpr input = Mul::make(x, Add::make(x, 3));
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [&](const ObjectRef& v) -> ObjectRef { return v.same_as(x) ? y : v; });
  int muls = 0;
  cbs.on("ir.Mul", [&](const runtime::Mapped& mul) -> MapResult<Object> {
    ++muls;
    CHECK(mul.original().same_as(input));
    CHECK(mul.changed());
    CHECK(mul.get("a").same_as(y));
    const ObjectRef b = mul.get("b");
    CHECK_FALSE(b.same_as(input.as<MulNode>()->b));
    CHECK(b.as<AddNode>()->a.same_as(y));
    const ObjectRef& built = mul.node();
    CHECK(built.same_as(mul.node()));
    CHECK_FALSE(built.same_as(input));
    // After node() the children are read from the built node.
    CHECK(mul.get("b").same_as(built.as<MulNode>()->b));
    return unchanged;
  });
  const ObjectRef out = runtime::map(input, cbs);
  CHECK(muls == 1);
  REQUIRE(out.as<MulNode>() != nullptr);
  CHECK(out.as<MulNode>()->a.same_as(y));
  CHECK(structural_equal(out, Mul::make(y, Add::make(y, 3))));
}

TEST_CASE("a Mapped callback that keeps its node gets it rebuilt from the mapped children") {
  Var x = Var::make("x", DataType::int32());
  const PrimExpr input = Sub::make(Add::make(x, 0), 5);
  runtime::Callbacks cbs;
  cbs.on("ir.Add", [](const runtime::Mapped& add) -> MapResult<Object> {
    return is_zero_imm(add.get("b")) ? MapResult<Object>(add.get("a")) : unchanged;
  });
  bool changed = false;
  cbs.on("ir.Sub", [&](const runtime::Mapped& sub) -> MapResult<Object> {
    changed = sub.changed();
    return unchanged;
  });
  const ObjectRef out = runtime::map(input, cbs);
  CHECK(changed);
  REQUIRE(out.as<SubNode>() != nullptr);
  CHECK(out.as<SubNode>()->a.same_as(x));
  // Nothing changed below: the view is the original, and the map returns its input.
  const PrimExpr plain = Sub::make(x, 5);
  CHECK(runtime::map(plain, cbs).same_as(plain));
  CHECK_FALSE(changed);
}

TEST_CASE("a Mapped view reads node-array fields, of types registered at run time too") {
  Var x = Var::make("x", DataType::int32());
  Var A = Var::make("A", TensorType::make({IntImm::make(4)}, DataType::int32()));
  const Stmt first = TensorStore::make(A, {Add::make(x, 0)}, x);
  const Stmt second = Bind::make(Var::make("z", DataType::int32()), 1);
  const ObjectRef block = plugin_block({first, second}, "tag");
  runtime::Callbacks cbs;
  cbs.on("ir.Add", [](const runtime::Mapped& add) -> MapResult<Object> {
    return is_zero_imm(add.get("b")) ? MapResult<Object>(add.get("a")) : unchanged;
  });
  std::size_t sizes = 0;
  cbs.on("test.PluginBlock", [&](const runtime::Mapped& view) -> MapResult<Object> {
    sizes = view.size("children");
    CHECK(view.changed());
    const ObjectRef store = view.get("children", 0);
    CHECK_FALSE(store.same_as(first));
    CHECK(store.as<TensorStoreNode>()->indices[0].same_as(x));
    CHECK(view.get("children", 1).same_as(second));
    CHECK_THROWS_WITH_AS(view.get("children", 2),
                         doctest::Contains("element 2 of 'children' in a 'test.PluginBlock' that "
                                           "has 2"),
                         Error);
    return unchanged;
  });
  const ObjectRef out = runtime::map(block, cbs);
  CHECK(sizes == 2);
  CHECK_FALSE(out.same_as(block));
  CHECK(out->dynamic_type_key() == "test.PluginBlock");
}

TEST_CASE("a Mapped view names the node's fields when asked for one it does not have") {
  Var x = Var::make("x", DataType::int32());
  runtime::Callbacks cbs;
  std::string message;
  cbs.on("ir.Add", [&](const runtime::Mapped& add) -> MapResult<Object> {
    try {
      static_cast<void>(add.get("c"));
    } catch (const Error& error) {
      message = error.what();
    }
    CHECK_THROWS_WITH_AS(add.get("a", 0), doctest::Contains("no node-array field 'a'"), Error);
    return unchanged;
  });
  const PrimExpr input = Add::make(x, 1);
  CHECK(runtime::map(input, cbs).same_as(input));
  CHECK(message.find("'ir.Add' has no node field 'c'") != std::string::npos);
  CHECK(message.find("its node fields: a, b") != std::string::npos);
}

TEST_CASE("a pre-order runtime map refuses a Mapped callback") {
  Var x = Var::make("x", DataType::int32());
  CHECK_THROWS_WITH_AS(runtime::map(Add::make(x, 0), fold_with_view(), WalkOrder::pre),
                       doctest::Contains("takes a runtime::Mapped view, which only a post-order "
                                         "map has"),
                       Error);
}

TEST_CASE("a Mapped callback sees the original and the mapped children in a chain far deeper "
          "than native recursion could go") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + 1;
  }
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [&](const ObjectRef& v) -> ObjectRef { return v.same_as(x) ? y : v; });
  std::size_t seen = 0;
  cbs.on("ir.Add", [&](const runtime::Mapped& add) -> MapResult<Object> {
    // Past the native stack budget the explicit-stack path builds the node first; the view
    // still tells the original from it.
    if (add.changed() && !add.original().same_as(add.node()) &&
        add.original().as<AddNode>() != nullptr && add.get("a").get() != nullptr) {
      ++seen;
    }
    return unchanged;
  });
  const ObjectRef out = runtime::map(chain, cbs);
  CHECK(seen == deep_nesting);
  ObjectRef bottom = out;
  while (const auto* add = bottom.as<AddNode>()) {
    bottom = add->a;
  }
  CHECK(bottom.same_as(y));
}
