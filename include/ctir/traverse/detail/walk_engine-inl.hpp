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

} // namespace ctir::detail::traverse
