// Laws of walk and map, over every IR node type, on generated programs: identity maps
// return the same object, and the runtime layer walks and maps as the static layer does.
#include <ctir/ir/families.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <cstdint>
#include <tuple>
#include <vector>

namespace {

using namespace ctir;
using ctir::testing::IrGenerator;

using all_node_types = ctir::testing::all_ir_node_types;

constexpr int instances_per_type = 8;
constexpr int depth = 3;

template <class T>
std::uint64_t seed_for(int instance) {
  return static_cast<std::uint64_t>(instance) * 104729U + T::type_index;
}

/// Every node the static walk reaches, in the given order. ObjectRef roots keep one
/// instantiation of each traversal for all node types.
std::vector<const Object*> static_nodes(const ObjectRef& root, WalkOrder order) {
  std::vector<const Object*> nodes;
  walk(
      root, [&](const Object& node) { nodes.push_back(&node); }, order);
  return nodes;
}

std::vector<const Object*> runtime_nodes(const ObjectRef& root, WalkOrder order) {
  std::vector<const Object*> nodes;
  runtime::Callbacks callbacks;
  callbacks.on("Object", [&](const ObjectRef& node) { nodes.push_back(node.get()); });
  runtime::walk(root, callbacks, order);
  return nodes;
}

/// Whether each identity map returns `root` itself. The maps live in this one function:
/// a lambda written in the templated test case would be a new type, and a new map, for
/// every node type.
void check_identity_maps(const ObjectRef& x) {
  for (const WalkOrder order : {WalkOrder::pre, WalkOrder::post}) {
    CAPTURE(order == WalkOrder::pre);
    CHECK(map(
              x, [](const Var& v) { return v; }, order)
              .same_as(x));
    CHECK(map(
              x, [](const Object&) -> MapResult<ObjectRef> { return unchanged; }, order)
              .same_as(x));
    runtime::Callbacks callbacks;
    callbacks.on("Object", [](const ObjectRef& node) { return node; });
    CHECK(runtime::map(x, callbacks, order).same_as(x));
  }
}

} // namespace

TEST_CASE_TEMPLATE_DEFINE("map with identity callbacks returns the same object", T,
                          identity_map_law) {
  for (int k = 0; k < instances_per_type; ++k) {
    IrGenerator gen(seed_for<T>(k));
    const ObjectRef x = gen.template make<T>(depth);
    CAPTURE(k);
    check_identity_maps(x);
  }
}
TEST_CASE_TEMPLATE_APPLY(identity_map_law, all_node_types);

TEST_CASE_TEMPLATE_DEFINE("the runtime walk reaches the static walk's nodes in its order", T,
                          walk_parity_law) {
  for (int k = 0; k < instances_per_type; ++k) {
    IrGenerator gen(seed_for<T>(k));
    const ObjectRef x = gen.template make<T>(depth);
    CAPTURE(k);
    for (const WalkOrder order : {WalkOrder::pre, WalkOrder::post}) {
      const std::vector<const Object*> expected = static_nodes(x, order);
      CHECK_FALSE(expected.empty());
      CHECK(runtime_nodes(x, order) == expected);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(walk_parity_law, all_node_types);
