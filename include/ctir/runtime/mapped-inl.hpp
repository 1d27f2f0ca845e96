// Definitions of <ctir/runtime/mapped.hpp>.
#pragma once

#include <ctir/runtime/mapped.hpp>

#include <ctir/core/error.hpp>

#include <string>
#include <string_view>

namespace ctir::runtime {

CTIR_INLINE const FieldInfo& Mapped::field_named(std::string_view name, FieldKind kind) const {
  for (const FieldInfo& field : original_->type_info().fields) {
    if (field.kind == kind && !field.ignored() && field.name == name) {
      return field;
    }
  }
  no_such_field(name, kind);
}

CTIR_INLINE void Mapped::no_such_field(std::string_view name, FieldKind kind) const {
  const TypeInfo& type = original_->type_info();
  std::string names;
  for (const FieldInfo& field : type.fields) {
    if (field.kind == FieldKind::value || field.ignored()) {
      continue; // not mapped
    }
    names += names.empty() ? "" : ", ";
    names += field.name;
    names += field.kind == FieldKind::node_array ? "[]" : "";
  }
  throw Error("ctir::runtime::Mapped::get: '" + std::string(type.key) + "' has no node" +
              (kind == FieldKind::node_array ? "-array" : "") + " field '" + std::string(name) +
              "' (its node fields: " + (names.empty() ? "none" : names) + ")");
}

CTIR_INLINE ObjectRef Mapped::get(std::string_view field) const {
  const FieldInfo& info = field_named(field, FieldKind::node);
  if (settled_ != nullptr) {
    return ObjectRef::borrow(info.get(*settled_, info));
  }
  return child(info, 0);
}

CTIR_INLINE ObjectRef Mapped::get(std::string_view field, std::size_t index) const {
  const FieldInfo& info = field_named(field, FieldKind::node_array);
  const std::size_t count = info.size(*original_, info);
  if (index >= count) {
    throw Error("ctir::runtime::Mapped::get: element " + std::to_string(index) + " of '" +
                std::string(field) + "' in a '" + std::string(original_->type_info().key) +
                "' that has " + std::to_string(count));
  }
  if (settled_ != nullptr) {
    return ObjectRef::borrow(info.at(*settled_, info, index));
  }
  return child(info, index);
}

CTIR_INLINE std::size_t Mapped::size(std::string_view field) const {
  const FieldInfo& info = field_named(field, FieldKind::node_array);
  return info.size(*original_, info);
}

} // namespace ctir::runtime
