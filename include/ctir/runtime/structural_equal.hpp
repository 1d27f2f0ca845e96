// Structural equality of the type-erased layer: for any node type, whatever its root's type.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <optional>

namespace ctir::runtime {

/// structural_equal of two values of any node type, including those registered at run
/// time with TypeRegistry::add_runtime_type: the IR's node types are compared through
/// their compiled hooks, every other node through its TypeInfo::fields. Same semantics
/// and same results as ctir::structural_equal.
bool structural_equal(const ObjectRef& a, const ObjectRef& b, StructuralEqualOptions options = {});

/// find_structural_mismatch through TypeInfo::fields alone; same results as
/// ctir::find_structural_mismatch.
std::optional<StructuralMismatch> find_structural_mismatch(const ObjectRef& a, const ObjectRef& b,
                                                           StructuralEqualOptions options = {});

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/structural_equal-inl.hpp>
#endif
