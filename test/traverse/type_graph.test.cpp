// Tests of the static type graph the traversals prune with (traverse/detail/type_graph.hpp):
// which node types a traversal from a root can meet, in breadth-first order, cycles included,
// and which of them may lead to a matched node.
#include <ctir/core/core.hpp>
#include <ctir/hooks/hooks_all.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/detail/type_graph.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace graph_test {
using namespace ctir;

struct ItemNode : Object {
  CTIR_ABSTRACT_NODE(ItemNode, Object, "graph_test.Item");
};
using Item = Ref<ItemNode>;

struct LeafNode;
using Leaf = Ref<LeafNode>;

/// Reached only through an ignored field: not part of the graph.
struct HiddenNode final : Object {
  CTIR_NODE(HiddenNode, Object, "graph_test.Hidden");
  std::int64_t value = 0;
  CTIR_FIELDS(CTIR_FIELD(value));
};
using Hidden = Ref<HiddenNode>;

/// Holds items (a cycle through the family), a leaf and a hidden node it does not walk.
struct ListNode final : ItemNode {
  CTIR_NODE(ListNode, ItemNode, "graph_test.List");
  std::vector<Item> items;
  Leaf last;
  Hidden note;
  CTIR_FIELDS(CTIR_FIELD(items), CTIR_FIELD(last), CTIR_FIELD(note).ignore());
};

struct LeafNode final : ItemNode {
  CTIR_NODE(LeafNode, ItemNode, "graph_test.Leaf");
  std::int64_t value = 0;
  CTIR_FIELDS(CTIR_FIELD(value));
};

/// A root with a list and a leaf of its own (the leaf is met twice, listed once).
struct RootNode final : Object {
  CTIR_NODE(RootNode, Object, "graph_test.Root");
  Item body;
  Leaf first;
  CTIR_FIELDS(CTIR_FIELD(body), CTIR_FIELD(first));
};

} // namespace graph_test

CTIR_FAMILY(graph_test::ItemNode, graph_test::ListNode, graph_test::LeafNode);

namespace {
using namespace ctir;
using ctir::detail::traverse::contain_table;
using ctir::detail::traverse::reachable_types_t;

/// A matcher that hits the nodes of type Hit and does not enter those of type Opaque.
template <class Hit, class Opaque = void>
struct hits {
  template <class T>
  static constexpr bool direct_v = std::is_same_v<T, Hit>;
  template <class T>
  static constexpr bool opaque_v = std::is_same_v<T, Opaque>;
};

template <class Matcher>
using root_table = contain_table<reachable_types_t<graph_test::RootNode>, Matcher>;

template <class... Ts>
std::vector<std::string> keys(type_list<Ts...>) {
  return {std::string(Ts::type_key)...};
}

} // namespace

TEST_CASE("the type graph lists each reachable node type once, root first, breadth first") {
  using reached = reachable_types_t<graph_test::RootNode>;
  // Root; its fields' types (Item, Leaf); Item's members (List; Leaf is listed); List's
  // fields lead back to Item and Leaf, and its ignored field is not entered.
  CHECK(keys(reached{}) == std::vector<std::string>{"graph_test.Root", "graph_test.Item",
                                                    "graph_test.Leaf", "graph_test.List"});
  static_assert(list_index_v<graph_test::HiddenNode, reached> == not_in_list);
}

TEST_CASE("a node type with no child fields is a graph of its own alone") {
  CHECK(keys(reachable_types_t<graph_test::LeafNode>{}) ==
        std::vector<std::string>{"graph_test.Leaf"});
}

TEST_CASE("the type graph of a tensor-level function holds its statements and expressions") {
  using reached = reachable_types_t<PrimFuncNode>;
  const std::vector<std::string> found = keys(reached{});
  CHECK(found.front() == "ir.PrimFunc");
  for (const std::string_view key : {"ir.For", "ir.SeqStmt", "ir.Add", "ir.TensorLoad",
                                     "ir.TensorStore", "ir.Var", "ir.IfThenElse"}) {
    CAPTURE(key);
    CHECK(std::count(found.begin(), found.end(), std::string(key)) == 1);
  }
  // Graph-level nodes cannot appear under a tensor-level function.
  static_assert(list_index_v<CallNode, reached> == not_in_list);
  static_assert(list_index_v<FunctionNode, reached> == not_in_list);
}

TEST_CASE("every type that leads to a matched type may contain a match, through cycles") {
  using table = root_table<hits<graph_test::LeafNode>>;
  static_assert(table::may_contain_v<graph_test::RootNode>);
  static_assert(table::may_contain_v<graph_test::ItemNode>);
  static_assert(table::may_contain_v<graph_test::ListNode>);
  static_assert(table::may_contain_v<graph_test::LeafNode>);
  static_assert(table::enters_children_v<graph_test::ListNode, DefRegionKind::none>);
  // A leaf has no child field, so there is nothing below it to enter.
  static_assert(!table::enters_children_v<graph_test::LeafNode, DefRegionKind::none>);
  CHECK(table::is_static_type(graph_test::ListNode::type_index));
  CHECK_FALSE(table::is_static_type(graph_test::HiddenNode::type_index));
}

TEST_CASE("a type that cannot lead to a matched type is pruned") {
  // A list is reached from the root through the family, never from a leaf.
  using table = root_table<hits<graph_test::ListNode>>;
  static_assert(table::may_contain_v<graph_test::RootNode>);
  static_assert(table::may_contain_v<graph_test::ItemNode>);
  static_assert(table::may_contain_v<graph_test::ListNode>);
  static_assert(!table::may_contain_v<graph_test::LeafNode>);
  // The root's leaf field is not entered; its item field is.
  static_assert(table::enters_children_v<graph_test::RootNode, DefRegionKind::none>);
  CHECK_FALSE(table::may_contain_dynamic(graph_test::LeafNode::type_index));
  CHECK(table::may_contain_dynamic(graph_test::ListNode::type_index));
}

TEST_CASE("a type the traversal does not enter holds no match below it") {
  // Leaves are still reached through the family, but not through a list.
  using table = root_table<hits<graph_test::LeafNode, graph_test::ListNode>>;
  static_assert(!table::may_contain_v<graph_test::ListNode>);
  static_assert(table::may_contain_v<graph_test::ItemNode>);
  static_assert(table::may_contain_v<graph_test::RootNode>);
}

TEST_CASE("nothing may contain a match when no type is hit") {
  using table = root_table<hits<void>>;
  static_assert(!table::may_contain_v<graph_test::RootNode>);
  static_assert(!table::may_contain_v<graph_test::ItemNode>);
  static_assert(!table::enters_children_v<graph_test::RootNode, DefRegionKind::none>);
}
