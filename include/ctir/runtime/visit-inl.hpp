// Definitions of <ctir/runtime/visit.hpp>.
#pragma once

#include <ctir/runtime/visit.hpp>

#include <ctir/traverse/detail/walk_engine.hpp>

#include <optional>
#include <utility>

#ifndef CTIR_HEADER_ONLY
namespace ctir::detail::traverse {
template class static_visitor<opaque_root, runtime_set<runtime_op::visit>>;
} // namespace ctir::detail::traverse
#endif

namespace ctir::runtime {

CTIR_INLINE std::optional<ObjectRef> visit(const ObjectRef& root, const Callbacks& callbacks) {
  using namespace detail::traverse;
  callbacks.expect(Callbacks::Kind::visit, "visit");
  const runtime_set<runtime_op::visit> set{&callbacks};
  payload_slot<ObjectRef> slot;
  Visitor visitor(set, &slot);
  visitor.visit_node(root.get());
  return std::move(slot.value);
}

} // namespace ctir::runtime
