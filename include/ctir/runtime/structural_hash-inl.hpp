// Definitions of <ctir/runtime/structural_hash.hpp>.
#pragma once

#include <ctir/runtime/structural_hash.hpp>

#include <ctir/core/type_list.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstdint>

namespace ctir::runtime {

CTIR_INLINE std::uint64_t structural_hash(const ObjectRef& value, StructuralHashOptions options) {
  return detail::structural::hash_object<type_list<>>(value.get(), options);
}

} // namespace ctir::runtime
