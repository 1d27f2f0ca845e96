// The type-erased mutate: runtime callbacks that drive the rewriting through default_mutate.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/traverse/mutate.hpp>

namespace ctir::runtime {

/// Mutates `root` as ctir::mutate does, for any node type: each registered callback takes
/// (runtime::Mutator& m, const ObjectRef& node), returns the new node, and calls
/// `m.default_mutate(node)` when it wants the node's children rewritten; nodes no callback
/// matches are mutated by default. Returns `root` itself when nothing changed. Throws a
/// ctir::Error if a callback is not a mutate callback.
inline ObjectRef mutate(const ObjectRef& root, const Callbacks& callbacks) {
  using namespace detail::traverse;
  callbacks.expect(Callbacks::Kind::mutate, "mutate");
  const runtime_set<runtime_op::mutate> set{&callbacks};
  Mutator mutator(set);
  return mutator.run(root);
}

} // namespace ctir::runtime
