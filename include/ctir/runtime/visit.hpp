// The type-erased visit: runtime callbacks that drive the traversal through default_visit.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/traverse/visit.hpp>

#include <optional>

#ifndef CTIR_HEADER_ONLY
namespace ctir::detail::traverse {
// runtime::Visitor is compiled once, in the library; callbacks instantiate only the
// default_visit they call.
extern template class static_visitor<opaque_root, runtime_set<runtime_op::visit>>;
} // namespace ctir::detail::traverse
#endif

namespace ctir::runtime {

/// Visits `root` as ctir::visit does, for any node type: each registered callback takes
/// (runtime::Visitor& v, const ObjectRef& node) and calls `v.default_visit(node)` when (and
/// if) it wants the node's children visited; nodes no callback matches are visited by
/// default. Returns the interrupt's payload (a null ObjectRef for an interrupt without
/// payload) or an empty optional. Throws a ctir::Error if a callback is not a visit callback.
std::optional<ObjectRef> visit(const ObjectRef& root, const Callbacks& callbacks);

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/visit-inl.hpp>
#endif
