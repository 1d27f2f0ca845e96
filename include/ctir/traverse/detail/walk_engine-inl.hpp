// Definitions of <ctir/traverse/detail/walk_engine.hpp>.
#pragma once

#include <ctir/traverse/detail/walk_engine.hpp>

namespace ctir::detail::traverse {

CTIR_INLINE void push_walk_children(std::vector<walk_item>& stack, const Object& node,
                                    DefRegionKind region) {
  for_each_dynamic_child<true>(node, region, [&](const Object* child, DefRegionKind inner) {
    stack.push_back({child, inner, false});
  });
}

CTIR_INLINE bool walk_explicit(const Object& root, DefRegionKind region, void* engine,
                               const walk_hooks& hooks, structural::VisitedNodes& visited) {
  std::vector<walk_item> stack;
  stack.push_back({&root, region, false});
  while (!stack.empty()) {
    const walk_item current = stack.back();
    stack.pop_back();
    const Object& node = *current.node;
    if (current.exit) {
      if (hooks.call(engine, node, current.region) == WalkAction::interrupt) {
        return false;
      }
      continue;
    }
    if (node.use_count() > 1 && structural::visited_once(node) && !visited.first_visit(node)) {
      continue;
    }
    if (hooks.order == WalkOrder::pre) {
      const WalkAction action = hooks.call(engine, node, current.region);
      if (action == WalkAction::interrupt) {
        return false;
      }
      if (action == WalkAction::skip) {
        continue;
      }
    } else if (hooks.matches(engine, node)) {
      stack.push_back({&node, current.region, true});
    }
    if (!is_dynamic_use_site(node, current.region) &&
        hooks.may_contain(node.dynamic_type_index())) {
      push_walk_children(stack, node, current.region);
    }
  }
  return true;
}

} // namespace ctir::detail::traverse
