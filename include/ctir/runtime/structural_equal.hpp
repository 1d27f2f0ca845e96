// Structural equality of the type-erased layer: driven by the runtime field tables only.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <optional>

namespace ctir::runtime {

/// structural_equal through TypeInfo::fields alone, for any node type, including those
/// registered at run time with TypeRegistry::add_runtime_type. Same semantics and same
/// results as ctir::structural_equal.
inline bool structural_equal(const ObjectRef& a, const ObjectRef& b,
                             StructuralEqualOptions options = {}) {
  return detail::structural::equal_objects<type_list<>>(a.get(), b.get(), options);
}

/// find_structural_mismatch through TypeInfo::fields alone; same results as
/// ctir::find_structural_mismatch.
inline std::optional<StructuralMismatch>
find_structural_mismatch(const ObjectRef& a, const ObjectRef& b,
                         StructuralEqualOptions options = {}) {
  return detail::structural::first_mismatch(a.get(), b.get(), options);
}

} // namespace ctir::runtime
