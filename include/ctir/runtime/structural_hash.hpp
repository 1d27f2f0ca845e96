// Structural hashing of the type-erased layer: driven by the runtime field tables only.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstdint>

namespace ctir::runtime {

/// structural_hash through TypeInfo::fields alone, for any node type, including those
/// registered at run time with TypeRegistry::add_runtime_type. Gives the same value as
/// ctir::structural_hash.
inline std::uint64_t structural_hash(const ObjectRef& value, StructuralHashOptions options = {}) {
  return detail::structural::hash_object<type_list<>>(value.get(), options);
}

} // namespace ctir::runtime
