// The type-erased walk: callbacks registered at run time, children reached through each node
// type's for_each_child hook (or its field table).
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/runtime/callbacks.hpp>

#include <optional>

namespace ctir::runtime {

/// Walks `root` and calls on each node the first registered callback whose type is the
/// node's type or an ancestor of it (post-order unless `order` is WalkOrder::pre), as
/// ctir::walk does, for any node type, those registered at run time included.
///
/// Returns the interrupt's payload when a callback interrupted (a null ObjectRef for an
/// interrupt without payload), else an empty optional. Throws a ctir::Error if a callback
/// is not a walk callback. The walk runs on an explicit stack: any depth fits.
std::optional<ObjectRef> walk(const ObjectRef& root, const Callbacks& callbacks,
                              WalkOrder order = WalkOrder::post);

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/walk-inl.hpp>
#endif
