// Structural equality of the type-erased layer: driven by the runtime field tables only.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <optional>

namespace ctir::runtime {

/// structural_equal through TypeInfo::fields alone, for any node type, including those
/// registered at run time with TypeRegistry::add_runtime_type. Same semantics and same
/// results as ctir::structural_equal.
bool structural_equal(const ObjectRef& a, const ObjectRef& b, StructuralEqualOptions options = {});

/// find_structural_mismatch through TypeInfo::fields alone; same results as
/// ctir::find_structural_mismatch.
std::optional<StructuralMismatch> find_structural_mismatch(const ObjectRef& a, const ObjectRef& b,
                                                           StructuralEqualOptions options = {});

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/structural_equal-inl.hpp>
#endif
