// The runtime descriptor of a node type: identity, ancestry and its field table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ctir {

class Object;
struct ChildVisitor;
template <class T>
class Ref;
using ObjectRef = Ref<Object>;

/// How a field takes part in variable definitions (TVM's definition regions).
enum class DefRegionKind : std::uint8_t {
  none,        ///< a use site
  def_simple,  ///< defines exactly the variable stored in the field
  def_pattern, ///< defines every variable in the field's subtree, its types included
};

/// The name of a definition-region kind as users write it ("NONE", "DEF_SIMPLE", ...).
constexpr std::string_view to_string(DefRegionKind kind) noexcept {
  switch (kind) {
  case DefRegionKind::none:
    return "NONE";
  case DefRegionKind::def_simple:
    return "DEF_SIMPLE";
  case DefRegionKind::def_pattern:
    return "DEF_PATTERN";
  }
  return "?";
}

namespace detail {
/// The definition region of a child: a pattern sticks for the whole subtree, a simple
/// definition covers only the node in the field.
constexpr DefRegionKind child_region(DefRegionKind parent, DefRegionKind field) noexcept {
  // The common case, a use field, in one instruction: none and def_simple map to none.
  static_assert(static_cast<int>(DefRegionKind::none) == 0 &&
                static_cast<int>(DefRegionKind::def_simple) == 1 &&
                static_cast<int>(DefRegionKind::def_pattern) == 2);
  if (field == DefRegionKind::none) {
    return static_cast<DefRegionKind>(static_cast<std::uint8_t>(parent) & 2U);
  }
  return parent == DefRegionKind::def_pattern ? DefRegionKind::def_pattern : field;
}
} // namespace detail

/// Where the variables a definition field defines are in scope (after their definition
/// site has been met): what the well-formedness checker enforces and what a printer opens
/// scopes for.
enum class DefScope : std::uint8_t {
  rest_of_node, ///< the node's fields after the definition field (the default)
  field,        ///< from a named later field of the node to the node's end (`for`: its body)
  block_end,    ///< from the end of the node to the end of the enclosing block (`Bind`)
};

/// The name of a scope kind, as the field tables print it.
constexpr std::string_view to_string(DefScope scope) noexcept {
  switch (scope) {
  case DefScope::rest_of_node:
    return "rest_of_node";
  case DefScope::field:
    return "field";
  case DefScope::block_end:
    return "block_end";
  }
  return "?";
}

/// What a field holds, as far as the structural utilities care.
enum class FieldKind : std::uint8_t {
  node,       ///< a Ref<T> to a node (may be null)
  node_array, ///< a sequence of Ref<T>
  value,      ///< a plain value compared, hashed and printed through value_traits
};

/// Per-field flags.
namespace field_flags {
/// Compared, hashed, visited and printed by no utility (spans, caches, name hints).
inline constexpr std::uint32_t ignore = 1U << 0;
/// Printed by format_tree only when it differs from a value-initialized value.
inline constexpr std::uint32_t elide_default = 1U << 1;
/// A block: a nested scope in the printed text (`{ ... }`). Definitions that last to the
/// end of the enclosing block (DefScope::block_end) end with it.
inline constexpr std::uint32_t block = 1U << 2;
} // namespace field_flags

/// The run-time identity of a plain field's C++ value type, without RTTI: the address of
/// `value_type_id_v<V>`, one object per type V in a linked program. A language binding
/// keys its converters by it (`field.value_type == &value_type_id_v<DataType>`).
struct ValueTypeId {};

/// The identity of value type V (see ValueTypeId).
template <class V>
inline constexpr ValueTypeId value_type_id_v{};

/// The type-erased description of one field: what the runtime layer walks.
///
/// Accessors take the FieldInfo itself so that one function can serve many
/// fields (a node type registered at run time stores its fields in slots).
struct FieldInfo {
  std::string_view name;
  FieldKind kind = FieldKind::value;
  DefRegionKind def_kind = DefRegionKind::none;
  std::uint32_t flags = 0;
  std::uint32_t slot = 0;
  /// For node and node_array fields: the type index of the declared element node type.
  std::uint32_t element_type_index = 0;

  // def_kind != none: where the variables the field defines are in scope.
  DefScope scope = DefScope::rest_of_node;
  /// For DefScope::field: the index in TypeInfo::fields of the field the scope starts at.
  std::uint16_t scope_begin = no_field;
  /// A recursive definition (a `let` of a function): when the field at this index holds a
  /// node of the type (recursive_type_index, recursive_type_depth), the scope starts there
  /// instead, so that the definition is in scope in its own value. no_field: never.
  std::uint16_t recursive_field = no_field;
  std::uint32_t recursive_type_index = 0;
  std::uint32_t recursive_type_depth = 0;

  // kind == node
  const Object* (*get)(const Object&, const FieldInfo&) = nullptr;
  void (*set)(Object&, const FieldInfo&, ObjectRef) = nullptr;
  // kind == node_array
  std::size_t (*size)(const Object&, const FieldInfo&) = nullptr;
  const Object* (*at)(const Object&, const FieldInfo&, std::size_t) = nullptr;
  void (*set_at)(Object&, const FieldInfo&, std::size_t, ObjectRef) = nullptr;
  // kind == value
  bool (*equal)(const Object&, const Object&, const FieldInfo&) = nullptr;
  std::uint64_t (*hash)(const Object&, const FieldInfo&) = nullptr;
  void (*print)(const Object&, const FieldInfo&, std::string&) = nullptr;
  bool (*is_default)(const Object&, const FieldInfo&) = nullptr;
  /// The C++ type of the value (null when unknown: it is then only printable) and the
  /// address of the value in a node, to be read as that type.
  const ValueTypeId* value_type = nullptr;
  const void* (*value_address)(const Object&, const FieldInfo&) = nullptr;

  /// Marks an absent field index (scope_begin, recursive_field).
  static constexpr std::uint16_t no_field = 0xFFFF;

  constexpr bool ignored() const noexcept { return (flags & field_flags::ignore) != 0; }
  constexpr bool is_block() const noexcept { return (flags & field_flags::block) != 0; }
};

/// Identity, ancestry and hooks of a node type, static or registered at run time.
struct TypeInfo {
  std::uint32_t index = 0;
  std::string_view key;
  const TypeInfo* parent = nullptr;
  /// Number of ancestors; ancestors[depth] == index.
  std::uint32_t depth = 0;
  const std::uint32_t* ancestors = nullptr;
  bool is_abstract = false;
  /// Whether no type may derive from this one (a C++ `final` class): a field of this
  /// static type then holds exactly this type, and no runtime type may name it as parent.
  bool is_final = false;
  /// Whether this type's objects are variables (defined at def sites, paired by equality).
  bool is_variable = false;
  /// All fields, inherited ones first, in declaration order.
  std::span<const FieldInfo> fields;
  void (*destroy)(Object*) noexcept = nullptr;
  /// A copy with reference count 0, used to rebuild a node with changed fields.
  Object* (*clone)(const Object&) = nullptr;
  /// For variables: the name hint.
  std::string_view (*variable_name)(const Object&) = nullptr;
  /// Optional one-line rendering used instead of the generic one (PrimType prints "int32").
  void (*repr)(const Object&, std::string&) = nullptr;
  /// Optional: reports each non-null child of a node at a site of kind `region` to
  /// `visitor(child, kind)` (core/child_visitor.hpp), in field order, `kind` being the
  /// child's own site's kind; returns false as soon as the visitor does. Static types get
  /// one compiled from their hooks, which reads the fields directly; without it,
  /// traversals read the children through `fields`.
  bool (*for_each_child)(const Object&, DefRegionKind region, ChildVisitor& visitor) = nullptr;
  /// Optional: for_each_child for a visitor that is a PassThroughVisitor (the runtime
  /// walk's), which goes straight into the children of a child whose filter slot says so.
  bool (*walk_children)(const Object&, DefRegionKind region, ChildVisitor& visitor) = nullptr;

  /// Whether objects of this type are also of the type with index `other_index` at
  /// depth `other_depth` (every type is derived from itself).
  constexpr bool derives_from(std::uint32_t other_index, std::uint32_t other_depth) const noexcept {
    return depth >= other_depth && ancestors[other_depth] == other_index;
  }
  bool derives_from(const TypeInfo& other) const noexcept {
    return derives_from(other.index, other.depth);
  }
};

namespace detail {
/// FNV-1a, 32 bits: the type index of a type key.
constexpr std::uint32_t fnv1a32(std::string_view text) noexcept {
  std::uint32_t hash = 2166136261U;
  for (char c : text) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 16777619U;
  }
  return hash;
}
} // namespace detail

/// The type index of a type key: stable across builds and processes.
constexpr std::uint32_t type_index_of_key(std::string_view key) noexcept {
  return detail::fnv1a32(key);
}

} // namespace ctir
