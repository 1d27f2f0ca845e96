// Structural hashing of the type-erased layer: driven by the runtime field tables only.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <cstdint>

namespace ctir::runtime {

/// structural_hash through TypeInfo::fields alone, for any node type, including those
/// registered at run time with TypeRegistry::add_runtime_type. Gives the same value as
/// ctir::structural_hash.
std::uint64_t structural_hash(const ObjectRef& value, StructuralHashOptions options = {});

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/structural_hash-inl.hpp>
#endif
