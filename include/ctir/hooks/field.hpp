// Field descriptors: one entry of a node type's structural hooks.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/hooks/value_traits.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ctir {

namespace detail {

template <class M>
struct member_pointer_traits;

template <class C, class V>
struct member_pointer_traits<V C::*> {
  using owner = C;
  using value_type = V;
};

template <class T>
struct is_ref : std::false_type {};
template <class T>
struct is_ref<Ref<T>> : std::true_type {};

template <class T>
struct is_ref_vector : std::false_type {};
template <class T>
struct is_ref_vector<std::vector<Ref<T>>> : std::true_type {};

} // namespace detail

/// Reads a data member through a member pointer.
template <auto Member>
struct member_accessor {
  using owner = typename detail::member_pointer_traits<decltype(Member)>::owner;
  using value_type = typename detail::member_pointer_traits<decltype(Member)>::value_type;
  static constexpr const value_type& get(const owner& object) noexcept { return object.*Member; }
  static constexpr value_type& get(owner& object) noexcept { return object.*Member; }
};

/// What a value of type V is as a field: a node, a sequence of nodes or a plain value.
template <class V>
inline constexpr FieldKind field_kind_of_v =
    detail::is_ref<V>::value          ? FieldKind::node
    : detail::is_ref_vector<V>::value ? FieldKind::node_array
                                      : FieldKind::value;

/// The node type of a node or node-array field value type.
template <class V>
struct field_element {
  using type = void;
};
template <class N>
struct field_element<Ref<N>> {
  using type = N;
};
template <class N>
struct field_element<std::vector<Ref<N>>> {
  using type = N;
};
template <class V>
using field_element_t = typename field_element<V>::type;

namespace detail {

/// The scope declarations of a field descriptor, as types (see field_desc::scope_over).
struct scope_rest_of_node {
  static constexpr DefScope kind = DefScope::rest_of_node;
  using recursive_type = void;
};
template <class Recursive = void>
struct scope_field {
  static constexpr DefScope kind = DefScope::field;
  using recursive_type = Recursive;
};
struct scope_block_end {
  static constexpr DefScope kind = DefScope::block_end;
  using recursive_type = void;
};

} // namespace detail

/// The names a field descriptor carries: its own, and those of the fields its scope names.
struct field_names {
  std::string_view name;
  /// .scope_over(field): where the scope starts.
  std::string_view scope_field;
  /// .recursive_in<T>(field): where it starts when that field holds a T.
  std::string_view recursive_field;
};

/// One field of a node type: how to reach it, its name, its def-region kind, its scope and
/// flags.
///
/// Built with `ctir::field<&Node::member>("name")` (or CTIR_FIELD(member)) and refined
/// with `.def_simple()`, `.def_pattern()`, `.ignore()`, `.elide_default()`, `.block()`,
/// and, on definition fields, where their variables are in scope: `.scope_over("body")`,
/// `.scope_to_block_end()`, `.recursive_in<FunctionNode>("value")`.
template <class Accessor, DefRegionKind Kind = DefRegionKind::none, std::uint32_t Flags = 0,
          class Scope = detail::scope_rest_of_node>
struct field_desc {
  using accessor = Accessor;
  using owner = typename Accessor::owner;
  using value_type = typename Accessor::value_type;
  using element_type = field_element_t<value_type>;
  /// For .recursive_in<T>(): T; else void.
  using recursive_type = typename Scope::recursive_type;
  static constexpr DefRegionKind def_kind = Kind;
  static constexpr std::uint32_t flags = Flags;
  static constexpr FieldKind kind = field_kind_of_v<value_type>;
  static constexpr bool ignored = (Flags & field_flags::ignore) != 0;
  static constexpr bool is_block = (Flags & field_flags::block) != 0;
  static constexpr DefScope scope = Scope::kind;

  static_assert(Kind == DefRegionKind::none || kind != FieldKind::value,
                "ctir: only node fields can be definition regions");
  // An error here means .block() was called on a plain value or a definition field: a block
  // is a field of nodes whose statements or expressions form a nested scope.
  static_assert(!is_block || (kind != FieldKind::value && Kind == DefRegionKind::none),
                "ctir: .block() marks a field of nodes (not a plain value, not a definition) "
                "as a nested scope");

  std::string_view name;
  /// For .scope_over(): the field the scope starts at.
  std::string_view scope_field{};
  /// For .recursive_in<T>(): the field in which the definition is also in scope when it
  /// holds a T.
  std::string_view recursive_field{};

  constexpr field_names names() const noexcept { return {name, scope_field, recursive_field}; }
  /// The descriptor with these names (how a field list hands its fields out).
  static constexpr field_desc with_names(const field_names& names) noexcept {
    return {names.name, names.scope_field, names.recursive_field};
  }

  static constexpr decltype(auto) get(const owner& object) noexcept {
    return Accessor::get(object);
  }
  static constexpr decltype(auto) get(owner& object) noexcept { return Accessor::get(object); }

  /// This field as a definition site of exactly the variable it holds.
  constexpr auto def_simple() const noexcept {
    return field_desc<Accessor, DefRegionKind::def_simple, Flags, Scope>{name, scope_field,
                                                                         recursive_field};
  }
  /// This field as a pattern: it defines every variable in its subtree.
  constexpr auto def_pattern() const noexcept {
    return field_desc<Accessor, DefRegionKind::def_pattern, Flags, Scope>{name, scope_field,
                                                                          recursive_field};
  }
  /// Hidden from every structural utility.
  constexpr auto ignore() const noexcept {
    return field_desc<Accessor, Kind, Flags | field_flags::ignore, Scope>{name, scope_field,
                                                                          recursive_field};
  }
  /// Printed by format_tree only when not value-initialized.
  constexpr auto elide_default() const noexcept {
    return field_desc<Accessor, Kind, Flags | field_flags::elide_default, Scope>{name, scope_field,
                                                                                 recursive_field};
  }
  /// A nested scope in the printed text (an if's branch, a function's body, the statements
  /// of a `{ ... }`): definitions that last to the end of their block end with it.
  constexpr auto block() const noexcept {
    return field_desc<Accessor, Kind, Flags | field_flags::block, Scope>{name, scope_field,
                                                                         recursive_field};
  }

  /// The variable this def_simple field defines is in scope from the later field `field`
  /// to the end of the node (`for %i in range(b, e) { body }`: `.scope_over("body")`).
  /// Without a scope declaration, a definition is in scope in the node's later fields.
  constexpr auto scope_over(std::string_view field) const noexcept {
    // An error here means .scope_over() is on a field that defines nothing, or on a pattern,
    // whose variables come into scope as the pattern is met.
    static_assert(Kind == DefRegionKind::def_simple,
                  "ctir: .scope_over(field) says where the variable of a definition is in "
                  "scope: call it after .def_simple() (a .def_pattern()'s variables come into "
                  "scope as the pattern is met; only .scope_to_block_end() applies to it)");
    return field_desc<Accessor, Kind, Flags, detail::scope_field<>>{name, field, {}};
  }
  /// The variables this field defines stay in scope after the node, to the end of the
  /// enclosing block (`let %x = e;` statements, allocations).
  constexpr auto scope_to_block_end() const noexcept {
    // An error here means .scope_to_block_end() is on a field that defines nothing.
    static_assert(Kind != DefRegionKind::none,
                  "ctir: .scope_to_block_end() says how long the variables of a definition "
                  "stay in scope: call it after .def_simple() or .def_pattern()");
    return field_desc<Accessor, Kind, Flags, detail::scope_block_end>{name, {}, {}};
  }
  /// A recursive definition: when the earlier field `field` holds a node of type T (a
  /// function), the variable is in scope there too (`let %f = fn (...) { %f(...) }`).
  template <class T>
  constexpr auto recursive_in(std::string_view field) const noexcept {
    // An error here means .recursive_in() comes without (or before) .scope_over(): it moves
    // the start of a field scope to an earlier field.
    static_assert(Scope::kind == DefScope::field,
                  "ctir: .recursive_in<T>(field) extends a .scope_over(field) scope to an "
                  "earlier field: write .def_simple().scope_over(\"body\").recursive_in<T>(...)");
    return field_desc<Accessor, Kind, Flags, detail::scope_field<T>>{name, scope_field, field};
  }
};

/// A field reached through the member pointer `Member`.
template <auto Member>
constexpr auto field(std::string_view name) noexcept {
  static_assert(std::is_member_object_pointer_v<decltype(Member)>,
                "ctir::field<M>: M must be a pointer to a data member, like &ForNode::body");
  return field_desc<member_accessor<Member>>{name};
}

/// `CTIR_FIELD(body)` in a node declared with CTIR_NODE: the field `body` of this type.
#define CTIR_FIELD(member) ::ctir::field<&self_type::member>(#member)

} // namespace ctir
