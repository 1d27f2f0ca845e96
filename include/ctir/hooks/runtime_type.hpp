// Node types described at run time (a plug-in's types): fields held in slots.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/type_table.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace ctir {

/// A plain value of a run-time described field.
using DynamicValue = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

template <>
struct value_traits<std::monostate> {
  static constexpr bool equal(std::monostate, std::monostate) noexcept { return true; }
  static constexpr std::uint64_t hash(std::monostate) noexcept { return 0x0E; }
  static void print(std::monostate, std::string& out) { out += "none"; }
};

template <>
struct value_traits<DynamicValue> {
  static bool equal(const DynamicValue& a, const DynamicValue& b) {
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
  static std::uint64_t hash(const DynamicValue& a) {
    return hash_combine(a.index(), std::visit(
                                       [](const auto& v) {
                                         using V = std::decay_t<decltype(v)>;
                                         return value_traits<V>::hash(v);
                                       },
                                       a));
  }
  static void print(const DynamicValue& a, std::string& out) {
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          value_traits<V>::print(v, out);
        },
        a);
  }
};

/// One field of a node type described at run time.
struct RuntimeFieldSpec {
  std::string name;
  FieldKind kind = FieldKind::node;
  DefRegionKind def_kind = DefRegionKind::none;
  std::uint32_t flags = 0;
  /// For node and node_array fields: the key of the type its elements must have.
  std::string element_type_key = "Object";
};

/// The storage of a run-time described node whose compiled-in parent is Base: Base's
/// own fields, then one slot per run-time field. It is a Base, so it can sit in any
/// field that holds a Base (a plug-in statement inside a SeqStmt, say).
template <class Base>
struct DynamicNode final : Base {
  std::vector<ObjectRef> nodes;
  std::vector<std::vector<ObjectRef>> arrays;
  std::vector<DynamicValue> values;
};

namespace detail {

template <class Base>
const DynamicNode<Base>& as_dynamic(const Object& object) {
  return static_cast<const DynamicNode<Base>&>(static_cast<const Base&>(object));
}
template <class Base>
DynamicNode<Base>& as_dynamic(Object& object) {
  return static_cast<DynamicNode<Base>&>(static_cast<Base&>(object));
}

inline ObjectRef checked_dynamic_value(ObjectRef value, const FieldInfo& field) {
  if (value.defined() &&
      !value->type_info().derives_from(*TypeRegistry::global().find(field.element_type_index))) {
    throw bad_node_cast("ctir: field '" + std::string(field.name) + "' cannot hold a " +
                        std::string(value->dynamic_type_key()));
  }
  return value;
}

template <class Base>
struct dynamic_accessors {
  static const Object* get(const Object& object, const FieldInfo& field) {
    return as_dynamic<Base>(object).nodes[field.slot].get();
  }
  static void set(Object& object, const FieldInfo& field, ObjectRef value) {
    as_dynamic<Base>(object).nodes[field.slot] = checked_dynamic_value(std::move(value), field);
  }
  static std::size_t size(const Object& object, const FieldInfo& field) {
    return as_dynamic<Base>(object).arrays[field.slot].size();
  }
  static const Object* at(const Object& object, const FieldInfo& field, std::size_t i) {
    return as_dynamic<Base>(object).arrays[field.slot][i].get();
  }
  static void set_at(Object& object, const FieldInfo& field, std::size_t i, ObjectRef value) {
    as_dynamic<Base>(object).arrays[field.slot][i] = checked_dynamic_value(std::move(value), field);
  }
  static bool equal(const Object& a, const Object& b, const FieldInfo& field) {
    return value_traits<DynamicValue>::equal(as_dynamic<Base>(a).values[field.slot],
                                             as_dynamic<Base>(b).values[field.slot]);
  }
  static std::uint64_t hash(const Object& a, const FieldInfo& field) {
    return value_traits<DynamicValue>::hash(as_dynamic<Base>(a).values[field.slot]);
  }
  static void print(const Object& a, const FieldInfo& field, std::string& out) {
    value_traits<DynamicValue>::print(as_dynamic<Base>(a).values[field.slot], out);
  }
  static bool is_default(const Object& a, const FieldInfo& field) {
    return std::holds_alternative<std::monostate>(as_dynamic<Base>(a).values[field.slot]);
  }
  static void destroy(Object* object) noexcept { delete &as_dynamic<Base>(*object); }
  static Object* clone(const Object& object) {
    return static_cast<Base*>(new DynamicNode<Base>(as_dynamic<Base>(object)));
  }
};

} // namespace detail

/// Registers a node type described at run time, derived from the compiled-in node type
/// Base, and returns its descriptor. Every runtime-layer utility (walk, map, equality,
/// hashing, printing the tree) then works on its objects through the descriptor.
template <ir_node Base>
const TypeInfo& register_dynamic_type(std::string key, const std::vector<RuntimeFieldSpec>& fields,
                                      bool is_abstract = false) {
  register_type<Base>();
  RuntimeTypeSpec spec;
  spec.key = std::move(key);
  spec.parent_key = std::string(Base::type_key);
  spec.is_abstract = is_abstract;
  std::uint32_t node_slots = 0;
  std::uint32_t array_slots = 0;
  std::uint32_t value_slots = 0;
  using access = detail::dynamic_accessors<Base>;
  for (const RuntimeFieldSpec& f : fields) {
    FieldInfo info;
    info.name = f.name; // the registry copies the name into storage it owns
    info.kind = f.kind;
    info.def_kind = f.def_kind;
    info.flags = f.flags;
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
      info.get = &access::get;
      info.set = &access::set;
    } else if (f.kind == FieldKind::node_array) {
      info.slot = array_slots++;
      info.size = &access::size;
      info.at = &access::at;
      info.set_at = &access::set_at;
    } else {
      info.slot = value_slots++;
      info.equal = &access::equal;
      info.hash = &access::hash;
      info.print = &access::print;
      info.is_default = &access::is_default;
    }
    spec.own_fields.push_back(info);
  }
  spec.destroy = &access::destroy;
  spec.clone = &access::clone;
  return TypeRegistry::global().add_runtime_type(std::move(spec));
}

/// Creates an object of a type registered with register_dynamic_type<Base>; its slots
/// start null / empty / none. Fill them through the returned Owned before publishing.
template <ir_node Base>
Owned<DynamicNode<Base>> make_dynamic(const TypeInfo& type) {
  if (type.is_abstract || type.parent == nullptr ||
      type.clone != &detail::dynamic_accessors<Base>::clone) {
    throw Error("ctir: make_dynamic<" + std::string(Base::type_key) + ">: '" +
                std::string(type.key) +
                "' is not a concrete type registered with "
                "register_dynamic_type<" +
                std::string(Base::type_key) + ">");
  }
  auto* node = new DynamicNode<Base>();
  std::size_t nodes = 0;
  std::size_t arrays = 0;
  std::size_t values = 0;
  for (const FieldInfo& field : type.fields) {
    if (field.get == &detail::dynamic_accessors<Base>::get) {
      nodes = std::max<std::size_t>(nodes, field.slot + 1U);
    } else if (field.size == &detail::dynamic_accessors<Base>::size) {
      arrays = std::max<std::size_t>(arrays, field.slot + 1U);
    } else if (field.equal == &detail::dynamic_accessors<Base>::equal) {
      values = std::max<std::size_t>(values, field.slot + 1U);
    }
  }
  node->nodes.resize(nodes);
  node->arrays.resize(arrays);
  node->values.resize(values);
  detail::object_access::stamp(*node, &type);
  return Owned<DynamicNode<Base>>(node);
}

} // namespace ctir
