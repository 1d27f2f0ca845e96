// Tests of include/ctir/core/ref.hpp and node.hpp: handles, identity and hierarchy casts.
#include <ctir/core/core.hpp>
#include <ctir/hooks/type_table.hpp>

#include <deep_nesting.hpp>
#include <doctest/doctest.h>

#include <thread>
#include <unordered_set>
#include <vector>

namespace ref_test {
using namespace ctir;

struct ShapeNode : Object {
  CTIR_ABSTRACT_NODE(ShapeNode, Object, "ref_test.Shape");
};
struct CircleNode : ShapeNode {
  CTIR_NODE(CircleNode, ShapeNode, "ref_test.Circle");
  double radius = 0;
  CTIR_FIELDS(CTIR_FIELD(radius));
};
/// A subclass of a concrete type: `is<CircleNode>` must accept it.
struct RingNode final : CircleNode {
  CTIR_NODE(RingNode, CircleNode, "ref_test.Ring");
  double inner = 0;
  CTIR_FIELDS(CTIR_FIELD(inner));
};
struct SquareNode final : ShapeNode {
  CTIR_NODE(SquareNode, ShapeNode, "ref_test.Square");
  Ref<ShapeNode> inside;
  CTIR_FIELDS(CTIR_FIELD(inside));
};

/// A node with any number of children.
struct GroupNode final : ShapeNode {
  CTIR_NODE(GroupNode, ShapeNode, "ref_test.Group");
  std::vector<Ref<ShapeNode>> items;
  CTIR_FIELDS(CTIR_FIELD(items));
};

} // namespace ref_test

using namespace ref_test;

static_assert(ctir::ir_node<CircleNode>);
static_assert(ctir::concrete_node<CircleNode>);
static_assert(!ctir::concrete_node<ShapeNode>);
static_assert(RingNode::type_depth == 3);
static_assert(ctir::ancestor_indices_v<RingNode>[1] == ShapeNode::type_index);
static_assert(std::is_convertible_v<ctir::Ref<RingNode>, ctir::Ref<ShapeNode>>);
static_assert(!std::is_convertible_v<ctir::Ref<ShapeNode>, ctir::Ref<RingNode>>);

TEST_CASE("is and as follow the class hierarchy") {
  ctir::Ref<ShapeNode> ring = ctir::make_object<RingNode>();
  ctir::Ref<ShapeNode> square = ctir::make_object<SquareNode>();
  CHECK(ring.is<RingNode>());
  CHECK(ring.is<CircleNode>());
  CHECK(ring.is<ShapeNode>());
  CHECK(ring.is<ctir::Object>());
  CHECK_FALSE(ring.is<SquareNode>());
  CHECK(ring.as<CircleNode>() != nullptr);
  CHECK(square.as<CircleNode>() == nullptr);
  CHECK(ring.is<ctir::Ref<CircleNode>>());
  ctir::Ref<ShapeNode> null;
  CHECK_FALSE(null.is<ShapeNode>());
  CHECK(null.as<ShapeNode>() == nullptr);
}

TEST_CASE("downcast checks the dynamic type and names both types when it fails") {
  ctir::Ref<ShapeNode> ring = ctir::make_object<RingNode>();
  ctir::Ref<CircleNode> circle = ctir::downcast<CircleNode>(ring);
  CHECK(circle.same_as(ring));
  CHECK_THROWS_WITH_AS(ctir::downcast<SquareNode>(ring),
                       "ctir: cannot downcast a ref_test.Ring to ref_test.Square",
                       ctir::bad_node_cast);
  CHECK_FALSE(ctir::try_downcast<SquareNode>(ring).defined());
  CHECK_FALSE(ctir::downcast<SquareNode>(ctir::Ref<ShapeNode>()).defined());
}

TEST_CASE("same_as and == compare identity, not contents") {
  ctir::Ref<CircleNode> a = ctir::make_object<CircleNode>();
  ctir::Ref<CircleNode> b = ctir::make_object<CircleNode>();
  ctir::Ref<ShapeNode> a_again = a;
  CHECK(a.same_as(a_again));
  CHECK_FALSE(a.same_as(b));
  CHECK(a == a_again);
  CHECK_FALSE(a == b);
  std::unordered_set<ctir::Ref<CircleNode>> set{a, b, a};
  CHECK(set.size() == 2);
  CHECK(ctir::Ref<CircleNode>() == nullptr);
}

TEST_CASE("reference counts follow copies, moves and resets") {
  ctir::Ref<CircleNode> a = ctir::make_object<CircleNode>();
  const ctir::Object* raw = a.get();
  CHECK(raw->use_count() == 1);
  {
    ctir::Ref<ShapeNode> copy = a;
    CHECK(raw->use_count() == 2);
    ctir::Ref<ShapeNode> moved = std::move(copy);
    CHECK(raw->use_count() == 2);
    CHECK_FALSE(copy.defined());
  }
  CHECK(raw->use_count() == 1);
  ctir::Ref<CircleNode> other = a;
  other = ctir::Ref<CircleNode>();
  CHECK(raw->use_count() == 1);
  const ctir::Ref<CircleNode>& alias = a;
  a = alias; // self-assignment keeps the object alive
  CHECK(raw->use_count() == 1);
}

TEST_CASE("adopt_released takes over the reference that release gave up") {
  ctir::Ref<ShapeNode> shape = ctir::make_object<CircleNode>();
  const ctir::Object* raw = shape.get();
  const ctir::Ref<CircleNode> circle =
      ctir::Ref<CircleNode>::adopt_released(static_cast<const CircleNode*>(shape.release()));
  CHECK_FALSE(shape.defined());
  CHECK(circle.get() == raw);
  CHECK(raw->use_count() == 1);
}

TEST_CASE("a chain far deeper than native recursion could go is destroyed without exhausting the "
          "stack") {
  ctir::Ref<ShapeNode> chain = ctir::make_object<CircleNode>();
  for (int i = 0; i < ctir::testing::deep_nesting; ++i) {
    auto square = ctir::make_object<SquareNode>();
    square->inside = std::move(chain);
    chain = std::move(square);
  }
  chain.reset();
  CHECK_FALSE(chain.defined());
}

namespace {

/// Released after main returns, after the destruction queue of the main thread was used:
/// freeing its child must not touch a queue that is already gone (AddressSanitizer
/// reports it if it does).
const ctir::Ref<ShapeNode> square_held_until_exit = [] {
  auto square = ctir::make_object<SquareNode>();
  square->inside = ctir::make_object<CircleNode>();
  return ctir::Ref<ShapeNode>(std::move(square));
}();

} // namespace

TEST_CASE("a node with children held in static storage outlives the destruction queue") {
  CHECK(square_held_until_exit.defined());
  ctir::Ref<ShapeNode> square = ctir::make_object<SquareNode>();
  square.reset(); // uses the queue, which is made only now
  CHECK(square_held_until_exit->use_count() == 1);
}

TEST_CASE("a node with more children than the queue's inline slots is destroyed") {
  // Freeing the group queues its 10,000 children at once, each with a child of its own.
  auto group = ctir::make_object<GroupNode>();
  ctir::Ref<ShapeNode> probe = ctir::make_object<CircleNode>();
  for (int i = 0; i < 10'000; ++i) {
    auto square = ctir::make_object<SquareNode>();
    square->inside = i == 5000 ? probe : ctir::make_object<CircleNode>();
    group->items.emplace_back(std::move(square));
  }
  ctir::Ref<ShapeNode> held = std::move(group).publish();
  CHECK(probe->use_count() == 2);
  held.reset();
  CHECK(probe->use_count() == 1);
}

TEST_CASE("reference counting is exact under concurrent copies") {
  ctir::Ref<CircleNode> shared = ctir::make_object<CircleNode>();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&shared] {
      for (int i = 0; i < 20'000; ++i) {
        ctir::Ref<ShapeNode> copy = shared;
        (void)copy;
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  CHECK(shared->use_count() == 1);
}
