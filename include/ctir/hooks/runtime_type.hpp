// Node types described at run time (a plug-in's types): fields held in slots.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/type_table.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
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
  static bool equal(const DynamicValue& a, const DynamicValue& b);
  static std::uint64_t hash(const DynamicValue& a);
  static void print(const DynamicValue& a, std::string& out);
};

/// One field of a node type described at run time.
struct RuntimeFieldSpec {
  std::string name;
  FieldKind kind = FieldKind::node;
  DefRegionKind def_kind = DefRegionKind::none;
  /// field_flags: ignore, elide_default, block (a nested scope of the printed text).
  std::uint32_t flags = 0;
  /// For node and node_array fields: the key of the type its elements must have.
  std::string element_type_key = "Object";
  /// For definition fields: where their variables are in scope (see field_desc::scope_over).
  DefScope scope = DefScope::rest_of_node;
  /// For DefScope::field: the later field of this type the scope starts at.
  std::string scope_field = {};
  /// For a recursive definition: an own field between this one and scope_field in which the
  /// variable is in scope too when it holds a node of type recursive_type_key.
  std::string recursive_field = {};
  std::string recursive_type_key = {};
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

/// `value` if the field may hold it; throws bad_node_cast naming the field otherwise.
ObjectRef checked_dynamic_value(ObjectRef value, const FieldInfo& field);

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
  static const void* value_address(const Object& a, const FieldInfo& field) {
    return &as_dynamic<Base>(a).values[field.slot];
  }
  static void destroy(Object* object) noexcept { delete &as_dynamic<Base>(*object); }
  static Object* clone(const Object& object) {
    return static_cast<Base*>(new DynamicNode<Base>(as_dynamic<Base>(object)));
  }
};

/// The slot accessors of DynamicNode<Base> as plain function pointers: all that the
/// registration code, which is not a template, needs to know of Base.
struct DynamicAccessTable {
  const Object* (*get)(const Object&, const FieldInfo&);
  void (*set)(Object&, const FieldInfo&, ObjectRef);
  std::size_t (*size)(const Object&, const FieldInfo&);
  const Object* (*at)(const Object&, const FieldInfo&, std::size_t);
  void (*set_at)(Object&, const FieldInfo&, std::size_t, ObjectRef);
  bool (*equal)(const Object&, const Object&, const FieldInfo&);
  std::uint64_t (*hash)(const Object&, const FieldInfo&);
  void (*print)(const Object&, const FieldInfo&, std::string&);
  bool (*is_default)(const Object&, const FieldInfo&);
  const void* (*value_address)(const Object&, const FieldInfo&);
  void (*destroy)(Object*) noexcept;
  Object* (*clone)(const Object&);
};

template <class Base>
inline constexpr DynamicAccessTable dynamic_access_table_v = {
    &dynamic_accessors<Base>::get,        &dynamic_accessors<Base>::set,
    &dynamic_accessors<Base>::size,       &dynamic_accessors<Base>::at,
    &dynamic_accessors<Base>::set_at,     &dynamic_accessors<Base>::equal,
    &dynamic_accessors<Base>::hash,       &dynamic_accessors<Base>::print,
    &dynamic_accessors<Base>::is_default, &dynamic_accessors<Base>::value_address,
    &dynamic_accessors<Base>::destroy,    &dynamic_accessors<Base>::clone};

/// register_dynamic_type once Base is registered: builds the spec and registers it.
const TypeInfo& add_dynamic_type(std::string key, std::string_view parent_key,
                                 const std::vector<RuntimeFieldSpec>& fields, bool is_abstract,
                                 const DynamicAccessTable& access);

/// How many node, array and value slots a DynamicNode of `type` needs.
struct DynamicSlotCounts {
  std::size_t nodes = 0;
  std::size_t arrays = 0;
  std::size_t values = 0;
};

/// The slots of `type`; throws unless `type` is concrete and was registered with
/// register_dynamic_type<Base> (`base_key` and `access` describe Base).
DynamicSlotCounts dynamic_slot_counts(const TypeInfo& type, std::string_view base_key,
                                      const DynamicAccessTable& access);

} // namespace detail

/// Registers a node type described at run time, derived from the compiled-in node type
/// Base, and returns its descriptor. Every runtime-layer utility (walk, map, equality,
/// hashing, printing the tree) then works on its objects through the descriptor.
template <ir_node Base>
const TypeInfo& register_dynamic_type(std::string key, const std::vector<RuntimeFieldSpec>& fields,
                                      bool is_abstract = false) {
  register_type<Base>();
  return detail::add_dynamic_type(std::move(key), Base::type_key, fields, is_abstract,
                                  detail::dynamic_access_table_v<Base>);
}

/// Creates an object of a type registered with register_dynamic_type<Base>; its slots
/// start null / empty / none. Fill them through the returned Owned before publishing.
template <ir_node Base>
Owned<DynamicNode<Base>> make_dynamic(const TypeInfo& type) {
  const detail::DynamicSlotCounts slots =
      detail::dynamic_slot_counts(type, Base::type_key, detail::dynamic_access_table_v<Base>);
  auto* node = new DynamicNode<Base>();
  node->nodes.resize(slots.nodes);
  node->arrays.resize(slots.arrays);
  node->values.resize(slots.values);
  detail::object_access::stamp(*node, &type);
  return Owned<DynamicNode<Base>>(node);
}

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/hooks/runtime_type-inl.hpp>
#endif
