// Definitions of <ctir/runtime/structural_equal.hpp>.
#pragma once

#include <ctir/runtime/structural_equal.hpp>

#include <ctir/ir/detail/structural_instances.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <optional>

namespace ctir::runtime {

CTIR_INLINE bool structural_equal(const ObjectRef& a, const ObjectRef& b,
                                  StructuralEqualOptions options) {
  // The IR's node types through their compiled hooks (the instance the library holds for
  // modules, whose universe is every IR node type), any other node through its field table.
  return detail::structural::equal_objects<
      detail::structural::equal_universe_t<IRModule, IRModule>>(a.get(), b.get(), options);
}

CTIR_INLINE std::optional<StructuralMismatch>
find_structural_mismatch(const ObjectRef& a, const ObjectRef& b, StructuralEqualOptions options) {
  return detail::structural::first_mismatch(a.get(), b.get(), options);
}

} // namespace ctir::runtime
