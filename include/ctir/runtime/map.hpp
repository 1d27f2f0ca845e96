// The type-erased map: callbacks registered at run time, nodes rebuilt through their type's
// clone and field setters.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/runtime/callbacks.hpp>

namespace ctir::runtime {

/// Maps `root` as ctir::map does (post-order unless `order` is WalkOrder::pre), for any node
/// type, those registered at run time included: each node a registered callback matches is
/// replaced by what it returns, only the paths to the replacements are rebuilt (with the
/// types' clone and FieldInfo::set / set_at), and `root` itself comes back when nothing
/// changed. A variable whose type changed at its definition is repointed at its uses.
///
/// Throws a ctir::Error if a callback is not a map callback (one returning void or a
/// WalkResult returns no node), and a ctir::NodeError if a replacement cannot stand where
/// its node was. Recursive within a native stack budget and on an explicit stack beyond it:
/// any depth fits. Node types that cannot lead to a node a callback matches (see
/// Callbacks::reach) are not entered, and a map that changes nothing allocates nothing.
ObjectRef map(const ObjectRef& root, const Callbacks& callbacks, WalkOrder order = WalkOrder::post);

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/map-inl.hpp>
#endif
