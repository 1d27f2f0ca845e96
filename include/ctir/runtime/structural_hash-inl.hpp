// Definitions of <ctir/runtime/structural_hash.hpp>.
#pragma once

#include <ctir/runtime/structural_hash.hpp>

#include <ctir/ir/detail/structural_instances.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstdint>

namespace ctir::runtime {

CTIR_INLINE std::uint64_t structural_hash(const ObjectRef& value, StructuralHashOptions options) {
  // The IR's node types through their compiled hooks (the instance the library holds for
  // modules, whose universe is every IR node type), any other node through its field table.
  return detail::structural::hash_object<
      detail::structural::static_universe_t<detail::structural::root_node_t<IRModule>>>(value.get(),
                                                                                        options);
}

} // namespace ctir::runtime
