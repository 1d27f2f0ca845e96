// Definitions of <ctir/runtime/mutate.hpp>.
#pragma once

#include <ctir/runtime/mutate.hpp>

#ifndef CTIR_HEADER_ONLY
namespace ctir::detail::traverse {
template class rewrite_engine<opaque_root, runtime_set<runtime_op::mutate>, rewrite_mode::mutate,
                              static_mutator<opaque_root, runtime_set<runtime_op::mutate>>>;
template class static_mutator<opaque_root, runtime_set<runtime_op::mutate>>;
} // namespace ctir::detail::traverse
#endif

namespace ctir::runtime {

CTIR_INLINE ObjectRef mutate(const ObjectRef& root, const Callbacks& callbacks) {
  using namespace detail::traverse;
  callbacks.expect(Callbacks::Kind::mutate, "mutate");
  const runtime_set<runtime_op::mutate> set{&callbacks};
  Mutator mutator(set);
  return mutator.run(root);
}

} // namespace ctir::runtime
