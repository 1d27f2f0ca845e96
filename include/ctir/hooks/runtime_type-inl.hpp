// Definitions of <ctir/hooks/runtime_type.hpp>.
#pragma once

#include <ctir/hooks/runtime_type.hpp>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace ctir {

CTIR_INLINE bool value_traits<DynamicValue>::equal(const DynamicValue& a, const DynamicValue& b) {
  if (a.index() != b.index()) {
    return false;
  }
  return std::visit(
      [&](const auto& va) {
        using V = std::decay_t<decltype(va)>;
        return value_traits<V>::equal(va, std::get<V>(b));
      },
      a);
}

CTIR_INLINE std::uint64_t value_traits<DynamicValue>::hash(const DynamicValue& a) {
  return hash_combine(a.index(), std::visit(
                                     [](const auto& v) {
                                       using V = std::decay_t<decltype(v)>;
                                       return value_traits<V>::hash(v);
                                     },
                                     a));
}

CTIR_INLINE void value_traits<DynamicValue>::print(const DynamicValue& a, std::string& out) {
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        value_traits<V>::print(v, out);
      },
      a);
}

namespace detail {

CTIR_INLINE ObjectRef checked_dynamic_value(ObjectRef value, const FieldInfo& field) {
  if (value.defined() &&
      !value->type_info().derives_from(*TypeRegistry::global().find(field.element_type_index))) {
    throw bad_node_cast("ctir: field '" + std::string(field.name) + "' cannot hold a " +
                        std::string(value->dynamic_type_key()));
  }
  return value;
}

/// The scope of run-time field `index` of `fields` (own fields, after `inherited` ones) in
/// `info`; throws type_registration_error for a scope that names no suitable field.
CTIR_INLINE void resolve_dynamic_scope(const std::string& key,
                                       const std::vector<RuntimeFieldSpec>& fields,
                                       std::size_t index, std::size_t inherited, FieldInfo& info) {
  const RuntimeFieldSpec& f = fields[index];
  info.scope = f.scope;
  const auto fail = [&](const std::string& why) {
    throw type_registration_error("ctir: field '" + f.name + "' of '" + key + "': " + why);
  };
  if (f.scope != DefScope::rest_of_node && f.def_kind == DefRegionKind::none) {
    fail("a scope is declared, but the field defines nothing (give it a def_kind)");
  }
  if ((f.flags & field_flags::block) != 0 &&
      (f.kind == FieldKind::value || f.def_kind != DefRegionKind::none)) {
    fail("a block is a field of nodes that defines nothing");
  }
  const auto later = [&](const std::string& name) {
    for (std::size_t j = index + 1; j < fields.size(); ++j) {
      if (fields[j].name == name) {
        return j;
      }
    }
    return fields.size();
  };
  if (f.scope != DefScope::field) {
    if (!f.scope_field.empty() || !f.recursive_field.empty()) {
      fail("scope_field and recursive_field go with DefScope::field");
    }
    return;
  }
  if (f.def_kind != DefRegionKind::def_simple) {
    fail("DefScope::field applies to def_simple fields (a pattern's variables come into scope "
         "as the pattern is met)");
  }
  const std::size_t begin = later(f.scope_field);
  if (begin == fields.size()) {
    fail("its scope_field '" + f.scope_field + "' is not a field declared after it");
  }
  info.scope_begin = static_cast<std::uint16_t>(inherited + begin);
  if (f.recursive_field.empty()) {
    return;
  }
  const std::size_t recursive = later(f.recursive_field);
  if (recursive >= begin) {
    fail("its recursive_field '" + f.recursive_field +
         "' is not a field declared between it and its scope_field");
  }
  const TypeInfo* type = TypeRegistry::global().find(f.recursive_type_key);
  if (type == nullptr) {
    fail("its recursive_type_key names an unknown type '" + f.recursive_type_key + "'");
  }
  info.recursive_field = static_cast<std::uint16_t>(inherited + recursive);
  info.recursive_type_index = type->index;
  info.recursive_type_depth = type->depth;
}

CTIR_INLINE const TypeInfo& add_dynamic_type(std::string key, std::string_view parent_key,
                                             const std::vector<RuntimeFieldSpec>& fields,
                                             bool is_abstract, const DynamicAccessTable& access) {
  RuntimeTypeSpec spec;
  spec.key = std::move(key);
  spec.parent_key = std::string(parent_key);
  spec.is_abstract = is_abstract;
  std::uint32_t node_slots = 0;
  std::uint32_t array_slots = 0;
  std::uint32_t value_slots = 0;
  const TypeInfo* parent = TypeRegistry::global().find(parent_key);
  const std::size_t inherited = parent != nullptr ? parent->fields.size() : 0;
  if (inherited + fields.size() >= FieldInfo::no_field) {
    throw type_registration_error("ctir: too many fields in '" + spec.key + "'");
  }
  for (std::size_t index = 0; index < fields.size(); ++index) {
    const RuntimeFieldSpec& f = fields[index];
    FieldInfo info;
    info.name = f.name; // the registry copies the name into storage it owns
    info.kind = f.kind;
    info.def_kind = f.def_kind;
    info.flags = f.flags;
    resolve_dynamic_scope(spec.key, fields, index, inherited, info);
    if (f.kind != FieldKind::value) {
      const TypeInfo* element = TypeRegistry::global().find(f.element_type_key);
      if (element == nullptr) {
        throw type_registration_error(
            "ctir: field '" + f.name + "' of '" + spec.key + "' names an unknown element type '" +
            f.element_type_key +
            "' (register it first: ctir::register_ir_types() registers the IR's types, "
            "ctir::register_type<T>() any static type)");
      }
      info.element_type_index = element->index;
    }
    if (f.kind == FieldKind::node) {
      info.slot = node_slots++;
      info.get = access.get;
      info.set = access.set;
    } else if (f.kind == FieldKind::node_array) {
      info.slot = array_slots++;
      info.size = access.size;
      info.at = access.at;
      info.set_at = access.set_at;
    } else {
      info.slot = value_slots++;
      info.equal = access.equal;
      info.hash = access.hash;
      info.print = access.print;
      info.is_default = access.is_default;
      info.value_type = &value_type_id_v<DynamicValue>; // a DynamicValue, whatever it holds
      info.value_address = access.value_address;
    }
    spec.own_fields.push_back(info);
  }
  spec.destroy = access.destroy;
  spec.clone = access.clone;
  return TypeRegistry::global().add_runtime_type(std::move(spec));
}

CTIR_INLINE DynamicSlotCounts dynamic_slot_counts(const TypeInfo& type, std::string_view base_key,
                                                  const DynamicAccessTable& access) {
  if (type.is_abstract || type.parent == nullptr || type.clone != access.clone) {
    throw Error("ctir: make_dynamic<" + std::string(base_key) + ">: '" + std::string(type.key) +
                "' is not a concrete type registered with "
                "register_dynamic_type<" +
                std::string(base_key) + ">");
  }
  DynamicSlotCounts counts;
  for (const FieldInfo& field : type.fields) {
    if (field.get == access.get) {
      counts.nodes = std::max<std::size_t>(counts.nodes, field.slot + 1U);
    } else if (field.size == access.size) {
      counts.arrays = std::max<std::size_t>(counts.arrays, field.slot + 1U);
    } else if (field.equal == access.equal) {
      counts.values = std::max<std::size_t>(counts.values, field.slot + 1U);
    }
  }
  return counts;
}

} // namespace detail
} // namespace ctir
