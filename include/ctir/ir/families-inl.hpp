// Definitions of <ctir/ir/families.hpp>.
#pragma once

#include <ctir/ir/families.hpp>

namespace ctir {

namespace detail {
template <class... Ts>
bool register_types(type_list<Ts...>) {
  (TypeRegistry::global().add(&type_info_v<Ts>), ...);
  return true;
}
} // namespace detail

CTIR_INLINE void register_ir_types() {
  static const bool registered = detail::register_types(ir_node_types{});
  (void)registered;
}

} // namespace ctir
