// Tests of include/ctir/core/child_visitor.hpp: the filter passes over exactly the node
// types and sites it marks, and a PassThroughVisitor goes through the nodes it marks as
// only their children while the stack is above its floor.
#include <ctir/core/child_visitor.hpp>
#include <ctir/hooks/type_table.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace ctir;

struct LeafNode : Object {
  CTIR_NODE(LeafNode, Object, "child_visitor_test.Leaf");
  int value = 0;
  CTIR_FIELDS(CTIR_FIELD(value));
};

struct OtherLeafNode : Object {
  CTIR_NODE(OtherLeafNode, Object, "child_visitor_test.OtherLeaf");
};

struct CountingVisitor : PassThroughVisitor {
  std::array<FilterSlot, filter_slots> slots{};
  std::array<ForEachChild, filter_slots> slot_children{};
  std::vector<std::string> visited;

  CountingVisitor() {
    for (std::uint32_t slot = 0; slot < filter_slots; ++slot) {
      slots[slot].index = slot ^ 1U;
    }
    filter = slots.data();
    children = slot_children.data();
    visit = [](ChildVisitor& self, const Object& child, DefRegionKind) {
      static_cast<CountingVisitor&>(self).visited.emplace_back(child.dynamic_type_key());
      return child.dynamic_type_key() != "child_visitor_test.OtherLeaf";
    };
  }

  void skip(std::uint32_t type_index, DefRegionKind region) {
    FilterSlot& slot = slots[type_index % filter_slots];
    if (slot.index != type_index) {
      slot = {type_index, 0};
    }
    slot.skip = static_cast<std::uint8_t>(slot.skip | (1U << static_cast<unsigned>(region)));
  }

  void pass_through(std::uint32_t type_index, DefRegionKind region, ForEachChild for_each) {
    FilterSlot& slot = slots[type_index % filter_slots];
    if (slot.index != type_index) {
      slot = {type_index, 0};
    }
    slot.pass_through =
        static_cast<std::uint8_t>(slot.pass_through | (1U << static_cast<unsigned>(region)));
    slot_children[type_index % filter_slots] = for_each;
  }
};

/// A for_each_child that records the node it was called on and reports no child.
std::vector<std::string> passed_through;
bool record_pass_through(const Object& node, DefRegionKind, ChildVisitor&) {
  passed_through.emplace_back(node.dynamic_type_key());
  return true;
}

} // namespace

TEST_CASE("a child visitor calls visit for every child its filter does not mark") {
  Ref<LeafNode> leaf = make_object<LeafNode>();
  CountingVisitor visitor;
  CHECK(visitor(*leaf, DefRegionKind::none));
  CHECK(visitor(*leaf, DefRegionKind::def_simple));
  CHECK(visitor.visited.size() == 2);
}

TEST_CASE("a child visitor passes over a marked type only at the marked kind of site") {
  Ref<LeafNode> leaf = make_object<LeafNode>();
  CountingVisitor visitor;
  visitor.skip(LeafNode::type_index, DefRegionKind::none);
  CHECK(visitor(*leaf, DefRegionKind::none));
  CHECK(visitor.visited.empty());
  CHECK(visitor(*leaf, DefRegionKind::def_pattern));
  CHECK(visitor.visited == std::vector<std::string>{"child_visitor_test.Leaf"});
}

TEST_CASE("a child visitor's filter tells apart types that share a slot") {
  // A slot describes one type index: another type in the same slot is visited.
  Ref<OtherLeafNode> other = make_object<OtherLeafNode>();
  CountingVisitor visitor;
  const std::uint32_t slot = OtherLeafNode::type_index % ChildVisitor::filter_slots;
  visitor.slots[slot] = {OtherLeafNode::type_index ^ (1U << 20), 0xFF};
  CHECK_FALSE(visitor(*other, DefRegionKind::none)); // visited, and it asked to stop
  CHECK(visitor.visited == std::vector<std::string>{"child_visitor_test.OtherLeaf"});
}

TEST_CASE("a pass-through visitor goes into a marked type's children without calling visit") {
  Ref<LeafNode> leaf = make_object<LeafNode>();
  CountingVisitor visitor;
  visitor.pass_through(LeafNode::type_index, DefRegionKind::none, &record_pass_through);
  passed_through.clear();
  CHECK(visitor(*leaf, DefRegionKind::none));
  CHECK(passed_through == std::vector<std::string>{"child_visitor_test.Leaf"});
  CHECK(visitor.visited.empty());
  // At another kind of site the node is visited.
  CHECK(visitor(*leaf, DefRegionKind::def_simple));
  CHECK(passed_through.size() == 1);
  CHECK(visitor.visited == std::vector<std::string>{"child_visitor_test.Leaf"});
}

TEST_CASE("below the stack floor a pass-through visitor hands the node to visit") {
  Ref<LeafNode> leaf = make_object<LeafNode>();
  CountingVisitor visitor;
  visitor.pass_through(LeafNode::type_index, DefRegionKind::none, &record_pass_through);
  visitor.native_floor = ~std::uintptr_t{0}; // every stack position is below it
  passed_through.clear();
  CHECK(visitor(*leaf, DefRegionKind::none));
  CHECK(passed_through.empty());
  CHECK(visitor.visited == std::vector<std::string>{"child_visitor_test.Leaf"});
}

TEST_CASE("a plain child visitor ignores the pass-through marks") {
  Ref<LeafNode> leaf = make_object<LeafNode>();
  CountingVisitor visitor;
  visitor.pass_through(LeafNode::type_index, DefRegionKind::none, &record_pass_through);
  passed_through.clear();
  ChildVisitor& plain = visitor;
  CHECK(plain(*leaf, DefRegionKind::none));
  CHECK(passed_through.empty());
  CHECK(visitor.visited == std::vector<std::string>{"child_visitor_test.Leaf"});
}
