// Definitions of <ctir/runtime/structural_equal.hpp>.
#pragma once

#include <ctir/runtime/structural_equal.hpp>

#include <ctir/core/type_list.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <optional>

namespace ctir::runtime {

CTIR_INLINE bool structural_equal(const ObjectRef& a, const ObjectRef& b,
                                  StructuralEqualOptions options) {
  return detail::structural::equal_objects<type_list<>>(a.get(), b.get(), options);
}

CTIR_INLINE std::optional<StructuralMismatch>
find_structural_mismatch(const ObjectRef& a, const ObjectRef& b, StructuralEqualOptions options) {
  return detail::structural::first_mismatch(a.get(), b.get(), options);
}

} // namespace ctir::runtime
