// Definitions of <ctir/runtime/map.hpp>.
#pragma once

#include <ctir/runtime/map.hpp>

#include <ctir/traverse/detail/map_engine.hpp>
#include <ctir/traverse/detail/map_result.hpp>

namespace ctir::runtime {

CTIR_INLINE ObjectRef map(const ObjectRef& root, const Callbacks& callbacks, WalkOrder order) {
  using namespace detail::traverse;
  callbacks.expect(Callbacks::Kind::map, "map");
  if (!root.defined()) {
    return root;
  }
  const runtime_set<runtime_op::map> set{&callbacks};
  ObjectRef result;
  if (order == WalkOrder::pre) {
    rewrite_engine<opaque_root, runtime_set<runtime_op::map>, rewrite_mode::map_pre, no_mutator>
        engine(set);
    result = engine.map_dynamic(*root);
  } else {
    rewrite_engine<opaque_root, runtime_set<runtime_op::map>, rewrite_mode::map_post, no_mutator>
        engine(set);
    result = engine.map_dynamic(*root);
  }
  if (!result.defined()) {
    return root;
  }
  return is_null_replacement(result.get()) ? ObjectRef() : result;
}

} // namespace ctir::runtime
