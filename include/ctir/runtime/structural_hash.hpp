// Structural hashing of the type-erased layer: for any node type, whatever its root's type.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <cstdint>

namespace ctir::runtime {

/// structural_hash of a value of any node type, including those registered at run time
/// with TypeRegistry::add_runtime_type: the IR's node types are hashed through their
/// compiled hooks, every other node through its TypeInfo::fields. Gives the same value
/// as ctir::structural_hash.
std::uint64_t structural_hash(const ObjectRef& value, StructuralHashOptions options = {});

} // namespace ctir::runtime

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/structural_hash-inl.hpp>
#endif
