// The type-erased visit: runtime callbacks that drive the traversal through default_visit.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/traverse/visit.hpp>

#include <optional>

namespace ctir::runtime {

/// Visits `root` as ctir::visit does, for any node type: each registered callback takes
/// (runtime::Visitor& v, const ObjectRef& node) and calls `v.default_visit(node)` when (and
/// if) it wants the node's children visited; nodes no callback matches are visited by
/// default. Returns the interrupt's payload (a null ObjectRef for an interrupt without
/// payload) or an empty optional. Throws a ctir::Error if a callback is not a visit callback.
inline std::optional<ObjectRef> visit(const ObjectRef& root, const Callbacks& callbacks) {
  using namespace detail::traverse;
  callbacks.expect(Callbacks::Kind::visit, "visit");
  const runtime_set<runtime_op::visit> set{&callbacks};
  payload_slot<ObjectRef> slot;
  Visitor visitor(set, &slot);
  visitor.visit_node(root.get());
  return std::move(slot.value);
}

} // namespace ctir::runtime
