// Tests of the compile-time match table of a traversal's callbacks
// (traverse/detail/callback_set.hpp): what each callback matches, and which tables
// traversals whose callbacks match alike share.
#include <ctir/ctir.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/type_graph.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <type_traits>

namespace {
using namespace ctir;
using ctir::detail::traverse::bound_tuple_t;
using ctir::detail::traverse::callback_set;
using ctir::detail::traverse::handled_types_t;
using ctir::detail::traverse::npos;

/// The callback set a walk or map builds from arguments of these types.
template <class... Args>
using set_of = callback_set<bound_tuple_t<0, Args...>>;

// Callables of distinct types, as two lambdas are.
struct CountAdds {
  void operator()(const Add&) const {}
};
struct OtherCountAdds {
  void operator()(const Add&) const {}
};
struct CountMuls {
  void operator()(const Mul&) const {}
};
struct CountExprs {
  void operator()(const PrimExpr&) const {}
};

using AddSet = set_of<CountAdds>;
using OtherAddSet = set_of<OtherCountAdds>;
using MulSet = set_of<CountMuls>;
using ExprSet = set_of<CountExprs>;

template <class Node>
int count_nodes(const PrimExpr& root) {
  int count = 0;
  walk(root, on<Node>([&](const Object&) { ++count; }));
  return count;
}

} // namespace

TEST_CASE("a callback matches the nodes of its parameter's type and of its subtypes") {
  static_assert(AddSet::first_match_v<AddNode> == 0);
  static_assert(AddSet::first_match_v<MulNode> == npos);
  static_assert(ExprSet::handles_v<AddNode> && ExprSet::handles_v<VarNode>);
  static_assert(!ExprSet::handles_v<ForNode>);
  CHECK(AddSet::size == 1);
}

TEST_CASE("traversals whose callbacks match alike share one match table") {
  // Different callables, same matched types: the tables the engines compute from the
  // match table (pruning, handled types) are computed once for both.
  static_assert(!std::is_same_v<AddSet, OtherAddSet>);
  static_assert(std::is_same_v<AddSet::matcher, OtherAddSet::matcher>);
  static_assert(std::is_same_v<AddSet::match_key, OtherAddSet::match_key>);
  static_assert(std::is_same_v<handled_types_t<AddSet, type_list<AddNode, MulNode>>,
                               handled_types_t<OtherAddSet, type_list<AddNode, MulNode>>>);
  // Other matched types, or the same with an exclusion, make another table.
  static_assert(!std::is_same_v<AddSet::matcher, MulSet::matcher>);
  using ExcludingSet = set_of<decltype(excluding<AddNode>(CountExprs{}))>;
  static_assert(!std::is_same_v<ExprSet::matcher, ExcludingSet::matcher>);
  static_assert(!ExcludingSet::handles_v<AddNode> && ExcludingSet::handles_v<MulNode>);
  CHECK(std::is_same_v<handled_types_t<MulSet, type_list<AddNode, MulNode>>, type_list<MulNode>>);
}

TEST_CASE("a callback bound to final types matches nodes of those types only") {
  // A final type has no subtype, not even one registered at run time: a traversal that
  // handles it statically never asks the callback about a node of another type.
  static_assert(AddSet::bound_within_v<type_list<AddNode>>);
  static_assert(!AddSet::bound_within_v<type_list<MulNode>>);
  // An abstract type may have subtypes registered at run time.
  static_assert(!ExprSet::bound_within_v<type_list<AddNode, MulNode, VarNode>>);
  using Both = set_of<CountAdds, CountMuls>;
  CHECK(Both::bound_within_v<type_list<AddNode, MulNode>>);
  CHECK_FALSE(Both::bound_within_v<type_list<AddNode>>);
}

TEST_CASE("maps whose callbacks match alike rewrite independently") {
  // Sharing the match table shares no state: each map calls its own callable.
  Var x = Var::make("x", DataType::int32());
  PrimExpr tree = Add::make(Mul::make(x, x), Add::make(x, IntImm::make(1)));
  int first = 0;
  int second = 0;
  PrimExpr once = map(tree, [&](const Add& add) -> PrimExpr {
    ++first;
    return add;
  });
  PrimExpr twice = map(tree, [&](const Add& add) -> PrimExpr {
    ++second;
    return Sub::make(add->a, add->b);
  });
  CHECK(once.same_as(tree));
  CHECK(first == 2);
  CHECK(second == 2);
  CHECK(count_nodes<SubNode>(twice) == 2);
  CHECK(count_nodes<AddNode>(twice) == 0);
}
