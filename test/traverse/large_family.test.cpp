// Tests of the static walk and map over a family larger than a traversal compiles code for
// member by member (inline_dispatch_limit, traverse/detail/engine_common.hpp): the members no
// callback handles are walked and rebuilt through their field tables, with the same results.
#include <ctir/core/core.hpp>
#include <ctir/hooks/hooks_all.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <deep_nesting.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace large {
using namespace ctir;

struct ExprNode : Object {
  CTIR_ABSTRACT_NODE(ExprNode, Object, "large.Expr");
};
using Expr = Ref<ExprNode>;

// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): fifty-six node types that differ only in name
#define CTIR_TEST_LARGE_NODE(k)                                                                    \
  struct L##k##Node final : ExprNode {                                                             \
    CTIR_NODE(L##k##Node, ExprNode, "large.L" #k);                                                 \
    Expr lhs;                                                                                      \
    Expr rhs;                                                                                      \
    std::int64_t value = 0;                                                                        \
    CTIR_FIELDS(CTIR_FIELD(lhs), CTIR_FIELD(rhs), CTIR_FIELD(value));                              \
  };
CTIR_TEST_LARGE_NODE(0)
CTIR_TEST_LARGE_NODE(1)
CTIR_TEST_LARGE_NODE(2)
CTIR_TEST_LARGE_NODE(3)
CTIR_TEST_LARGE_NODE(4)
CTIR_TEST_LARGE_NODE(5)
CTIR_TEST_LARGE_NODE(6)
CTIR_TEST_LARGE_NODE(7)
CTIR_TEST_LARGE_NODE(8)
CTIR_TEST_LARGE_NODE(9)
CTIR_TEST_LARGE_NODE(10)
CTIR_TEST_LARGE_NODE(11)
CTIR_TEST_LARGE_NODE(12)
CTIR_TEST_LARGE_NODE(13)
CTIR_TEST_LARGE_NODE(14)
CTIR_TEST_LARGE_NODE(15)
CTIR_TEST_LARGE_NODE(16)
CTIR_TEST_LARGE_NODE(17)
CTIR_TEST_LARGE_NODE(18)
CTIR_TEST_LARGE_NODE(19)
CTIR_TEST_LARGE_NODE(20)
CTIR_TEST_LARGE_NODE(21)
CTIR_TEST_LARGE_NODE(22)
CTIR_TEST_LARGE_NODE(23)
CTIR_TEST_LARGE_NODE(24)
CTIR_TEST_LARGE_NODE(25)
CTIR_TEST_LARGE_NODE(26)
CTIR_TEST_LARGE_NODE(27)
CTIR_TEST_LARGE_NODE(28)
CTIR_TEST_LARGE_NODE(29)
CTIR_TEST_LARGE_NODE(30)
CTIR_TEST_LARGE_NODE(31)
CTIR_TEST_LARGE_NODE(32)
CTIR_TEST_LARGE_NODE(33)
CTIR_TEST_LARGE_NODE(34)
CTIR_TEST_LARGE_NODE(35)
CTIR_TEST_LARGE_NODE(36)
CTIR_TEST_LARGE_NODE(37)
CTIR_TEST_LARGE_NODE(38)
CTIR_TEST_LARGE_NODE(39)
CTIR_TEST_LARGE_NODE(40)
CTIR_TEST_LARGE_NODE(41)
CTIR_TEST_LARGE_NODE(42)
CTIR_TEST_LARGE_NODE(43)
CTIR_TEST_LARGE_NODE(44)
CTIR_TEST_LARGE_NODE(45)
CTIR_TEST_LARGE_NODE(46)
CTIR_TEST_LARGE_NODE(47)
CTIR_TEST_LARGE_NODE(48)
CTIR_TEST_LARGE_NODE(49)
CTIR_TEST_LARGE_NODE(50)
CTIR_TEST_LARGE_NODE(51)
CTIR_TEST_LARGE_NODE(52)
CTIR_TEST_LARGE_NODE(53)
CTIR_TEST_LARGE_NODE(54)
CTIR_TEST_LARGE_NODE(55)
#undef CTIR_TEST_LARGE_NODE

} // namespace large

CTIR_FAMILY(large::ExprNode, large::L0Node, large::L1Node, large::L2Node, large::L3Node,
            large::L4Node, large::L5Node, large::L6Node, large::L7Node, large::L8Node,
            large::L9Node, large::L10Node, large::L11Node, large::L12Node, large::L13Node,
            large::L14Node, large::L15Node, large::L16Node, large::L17Node, large::L18Node,
            large::L19Node, large::L20Node, large::L21Node, large::L22Node, large::L23Node,
            large::L24Node, large::L25Node, large::L26Node, large::L27Node, large::L28Node,
            large::L29Node, large::L30Node, large::L31Node, large::L32Node, large::L33Node,
            large::L34Node, large::L35Node, large::L36Node, large::L37Node, large::L38Node,
            large::L39Node, large::L40Node, large::L41Node, large::L42Node, large::L43Node,
            large::L44Node, large::L45Node, large::L46Node, large::L47Node, large::L48Node,
            large::L49Node, large::L50Node, large::L51Node, large::L52Node, large::L53Node,
            large::L54Node, large::L55Node);

namespace {
using namespace ctir;
using namespace large;

constexpr std::size_t member_count = 56;
static_assert(family_t<ExprNode>::size == member_count);
static_assert(member_count > detail::traverse::inline_dispatch_limit,
              "the family must be larger than the traversals compile member by member");

template <class N>
Expr make_member(Expr lhs, Expr rhs, std::int64_t value) {
  auto node = make_object<N>();
  node->lhs = std::move(lhs);
  node->rhs = std::move(rhs);
  node->value = value;
  return Expr(std::move(node));
}

using Factory = Expr (*)(Expr, Expr, std::int64_t);
constexpr Factory factories[member_count] = {
    &make_member<L0Node>,  &make_member<L1Node>,  &make_member<L2Node>,  &make_member<L3Node>,
    &make_member<L4Node>,  &make_member<L5Node>,  &make_member<L6Node>,  &make_member<L7Node>,
    &make_member<L8Node>,  &make_member<L9Node>,  &make_member<L10Node>, &make_member<L11Node>,
    &make_member<L12Node>, &make_member<L13Node>, &make_member<L14Node>, &make_member<L15Node>,
    &make_member<L16Node>, &make_member<L17Node>, &make_member<L18Node>, &make_member<L19Node>,
    &make_member<L20Node>, &make_member<L21Node>, &make_member<L22Node>, &make_member<L23Node>,
    &make_member<L24Node>, &make_member<L25Node>, &make_member<L26Node>, &make_member<L27Node>,
    &make_member<L28Node>, &make_member<L29Node>, &make_member<L30Node>, &make_member<L31Node>,
    &make_member<L32Node>, &make_member<L33Node>, &make_member<L34Node>, &make_member<L35Node>,
    &make_member<L36Node>, &make_member<L37Node>, &make_member<L38Node>, &make_member<L39Node>,
    &make_member<L40Node>, &make_member<L41Node>, &make_member<L42Node>, &make_member<L43Node>,
    &make_member<L44Node>, &make_member<L45Node>, &make_member<L46Node>, &make_member<L47Node>,
    &make_member<L48Node>, &make_member<L49Node>, &make_member<L50Node>, &make_member<L51Node>,
    &make_member<L52Node>, &make_member<L53Node>, &make_member<L54Node>, &make_member<L55Node>};

/// A node as the tests record it: its member number and its value.
struct Seen {
  std::size_t kind;
  std::int64_t value;
  bool operator==(const Seen&) const = default;
};

/// A full binary tree whose node kinds cycle through the family, with its pre-order and
/// post-order sequences computed while it is built.
struct Tree {
  Expr root;
  std::vector<Seen> pre;
  std::vector<Seen> post;
};

Tree build(int depth, std::int64_t& counter) {
  Tree tree;
  const auto value = counter++;
  const auto kind = static_cast<std::size_t>(value * 5) % member_count;
  Tree lhs;
  Tree rhs;
  if (depth > 0) {
    lhs = build(depth - 1, counter);
    rhs = build(depth - 1, counter);
  }
  tree.root = factories[kind](lhs.root, rhs.root, value);
  tree.pre.push_back({kind, value});
  for (auto* part : {&lhs, &rhs}) {
    tree.pre.insert(tree.pre.end(), part->pre.begin(), part->pre.end());
    tree.post.insert(tree.post.end(), part->post.begin(), part->post.end());
  }
  tree.post.push_back({kind, value});
  return tree;
}

Tree sample_tree() {
  std::int64_t counter = 0;
  return build(8, counter); // 511 nodes
}

std::vector<Seen> only(const std::vector<Seen>& all, std::size_t a, std::size_t b) {
  std::vector<Seen> kept;
  for (const Seen& s : all) {
    if (s.kind == a || s.kind == b) {
      kept.push_back(s);
    }
  }
  return kept;
}

} // namespace

TEST_CASE("a walk over a large family meets the handled members in post-order") {
  const Tree tree = sample_tree();
  std::vector<Seen> seen;
  walk(
      tree.root,
      [&](const Ref<L3Node>& n) {
        seen.push_back({3, n->value});
      },
      [&](const Ref<L17Node>& n) {
        seen.push_back({17, n->value});
      });
  CHECK(seen == only(tree.post, 3, 17));
  CHECK_FALSE(seen.empty());
}

TEST_CASE("a pre-order walk over a large family meets the handled members in pre-order") {
  const Tree tree = sample_tree();
  std::vector<Seen> seen;
  walk(
      tree.root,
      [&](const Ref<L3Node>& n) {
        seen.push_back({3, n->value});
      },
      [&](const Ref<L17Node>& n) {
        seen.push_back({17, n->value});
      },
      pre_order);
  CHECK(seen == only(tree.pre, 3, 17));
}

TEST_CASE("a pre-order skip over a large family keeps the walk out of that subtree") {
  const Tree tree = sample_tree();
  std::vector<Seen> seen;
  walk(
      tree.root, [&](const Ref<L0Node>&) { return skip; },
      [&](const Ref<L17Node>& n) {
        seen.push_back({17, n->value});
      },
      pre_order);
  // The root is an L0: nothing below it is walked.
  REQUIRE(tree.pre.front().kind == 0);
  CHECK(seen.empty());
}

TEST_CASE("an interrupt in a walk over a large family returns the first match") {
  const Tree tree = sample_tree();
  const std::optional<std::int64_t> found = walk(
      tree.root, [&](const Ref<L21Node>& n) { return interrupt(n->value); }, pre_order);
  const std::vector<Seen> expected = only(tree.pre, 21, 21);
  REQUIRE_FALSE(expected.empty());
  REQUIRE(found.has_value());
  CHECK(*found == expected.front().value);
}

TEST_CASE("a callback on the base type sees every member of a large family") {
  const Tree tree = sample_tree();
  std::size_t count = 0;
  walk(tree.root, [&](const Expr&) { ++count; });
  CHECK(count == tree.post.size());
}

TEST_CASE("a map over a large family replaces the handled members and rebuilds the rest") {
  const Tree tree = sample_tree();
  const Expr mapped = map(tree.root, [](const Ref<L3Node>& n) -> Expr {
    return make_member<L4Node>(n->lhs, n->rhs, n->value);
  });
  CHECK_FALSE(mapped.same_as(tree.root));
  std::vector<Seen> expected = tree.post;
  for (Seen& s : expected) {
    if (s.kind == 3) {
      s.kind = 4;
    }
  }
  std::vector<Seen> seen;
  walk(
      mapped,
      [&](const Ref<L3Node>& n) {
        seen.push_back({3, n->value});
      },
      [&](const Ref<L4Node>& n) {
        seen.push_back({4, n->value});
      });
  CHECK(seen == only(expected, 3, 4));
  std::size_t count = 0;
  walk(mapped, [&](const Expr&) { ++count; });
  CHECK(count == tree.post.size());
}

TEST_CASE("a map over a large family keeps the subtrees it does not change") {
  const Tree tree = sample_tree();
  const auto* root = static_cast<const L0Node*>(tree.root.get());
  // Change one node in the right subtree only: the left subtree is the same object.
  const std::int64_t target = tree.post[tree.post.size() - 2].value; // the root's rhs
  const Expr mapped = map(tree.root, [&](const Expr& n) -> Expr {
    if (n.same_as(root->rhs)) {
      return make_member<L1Node>(Expr(), Expr(), target);
    }
    return n;
  });
  const auto* new_root = static_cast<const L0Node*>(mapped.get());
  CHECK(new_root->lhs.same_as(root->lhs));
  CHECK_FALSE(new_root->rhs.same_as(root->rhs));
  CHECK(new_root->value == root->value);
}

TEST_CASE("a map over a large family that changes nothing returns its input") {
  const Tree tree = sample_tree();
  const Expr mapped = map(tree.root, [](const Ref<L5Node>& n) -> Expr { return n; });
  CHECK(mapped.same_as(tree.root));
}

TEST_CASE("a walk and a map over a large family handle a chain far deeper than native recursion "
          "could go") {
  // Whole rounds through the family, so that every member is in the chain `rounds` times.
  constexpr std::size_t rounds = testing::deep_nesting / member_count;
  Expr chain;
  for (std::size_t i = 0; i < rounds * member_count; ++i) {
    chain = factories[i % member_count](chain, Expr(), static_cast<std::int64_t>(i));
  }
  std::size_t count = 0;
  walk(chain, [&](const Ref<L9Node>&) { ++count; });
  CHECK(count == rounds);
  const Expr mapped = map(chain, [](const Ref<L9Node>& n) -> Expr {
    return make_member<L10Node>(n->lhs, n->rhs, n->value);
  });
  std::size_t nines = 0;
  std::size_t tens = 0;
  walk(
      mapped, [&](const Ref<L9Node>&) { ++nines; }, [&](const Ref<L10Node>&) { ++tens; });
  CHECK(nines == 0);
  CHECK(tens == 2 * rounds);
}
