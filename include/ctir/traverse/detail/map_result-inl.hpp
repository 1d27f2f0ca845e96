// Definitions of <ctir/traverse/detail/map_result.hpp>.
#pragma once

#include <ctir/traverse/detail/map_result.hpp>

#include <ctir/core/error.hpp>
#include <ctir/core/type_registry.hpp>

#include <string>
#include <string_view>

namespace ctir::detail::traverse {

CTIR_INLINE const ObjectRef& null_replacement() {
  static const ObjectRef sentinel = make_object<null_replacement_node>();
  return sentinel;
}

CTIR_INLINE void throw_misplaced(const Object& original, const Object& replacement,
                                 std::string_view expected) {
  throw NodeError(ObjectRef::borrow(&original),
                  "ctir::map: a callback replaced a " + std::string(original.dynamic_type_key()) +
                      " by a " + std::string(replacement.dynamic_type_key()) +
                      ", which cannot stand where a " + std::string(expected) + " is expected");
}

CTIR_INLINE void check_dynamic_field(const Object& parent, const FieldInfo& field,
                                     const mapped_ref& value, const Object& original) {
  if (!value.defined()) {
    return;
  }
  const TypeInfo* element = TypeRegistry::global().find(field.element_type_index);
  if (element != nullptr && !value->type_info().derives_from(*element)) {
    throw NodeError(ObjectRef::borrow(&original),
                    "ctir::map: a callback replaced a " + std::string(original.dynamic_type_key()) +
                        " by a " + std::string(value->dynamic_type_key()) + ", which field '" +
                        std::string(field.name) + "' of " + std::string(parent.dynamic_type_key()) +
                        " cannot hold (it holds " + std::string(element->key) + ")");
  }
}

} // namespace ctir::detail::traverse
