// The type-erased mutate: runtime callbacks that drive the rewriting through default_mutate.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/traverse/mutate.hpp>

#ifndef CTIR_HEADER_ONLY
namespace ctir::detail::traverse {
// runtime::Mutator and its engine are compiled once, in the library; callbacks instantiate
// only the default_mutate they call.
extern template class rewrite_engine<opaque_root, runtime_set<runtime_op::mutate>,
                                     rewrite_mode::mutate,
                                     static_mutator<opaque_root, runtime_set<runtime_op::mutate>>>;
extern template class static_mutator<opaque_root, runtime_set<runtime_op::mutate>>;
} // namespace ctir::detail::traverse
#endif

namespace ctir::runtime {

/// Mutates `root` as ctir::mutate does, for any node type: each registered callback takes
/// (runtime::Mutator& m, const ObjectRef& node), returns the new node, and calls
/// `m.default_mutate(node)` when it wants the node's children rewritten; nodes no callback
/// matches are mutated by default. Returns `root` itself when nothing changed. Throws a
/// ctir::Error if a callback is not a mutate callback.
ObjectRef mutate(const ObjectRef& root, const Callbacks& callbacks);

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/mutate-inl.hpp>
#endif
