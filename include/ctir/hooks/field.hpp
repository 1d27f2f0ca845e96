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

/// One field of a node type: how to reach it, its name, its def-region kind and flags.
///
/// Built with `ctir::field<&Node::member>("name")` (or CTIR_FIELD(member)) and refined
/// with `.def_simple()`, `.def_pattern()`, `.ignore()`, `.elide_default()`.
template <class Accessor, DefRegionKind Kind = DefRegionKind::none, std::uint32_t Flags = 0>
struct field_desc {
  using accessor = Accessor;
  using owner = typename Accessor::owner;
  using value_type = typename Accessor::value_type;
  using element_type = field_element_t<value_type>;
  static constexpr DefRegionKind def_kind = Kind;
  static constexpr std::uint32_t flags = Flags;
  static constexpr FieldKind kind = field_kind_of_v<value_type>;
  static constexpr bool ignored = (Flags & field_flags::ignore) != 0;

  static_assert(Kind == DefRegionKind::none || kind != FieldKind::value,
                "ctir: only node fields can be definition regions");

  std::string_view name;

  static constexpr decltype(auto) get(const owner& object) noexcept {
    return Accessor::get(object);
  }
  static constexpr decltype(auto) get(owner& object) noexcept { return Accessor::get(object); }

  /// This field as a definition site of exactly the variable it holds.
  constexpr auto def_simple() const noexcept {
    return field_desc<Accessor, DefRegionKind::def_simple, Flags>{name};
  }
  /// This field as a pattern: it defines every variable in its subtree.
  constexpr auto def_pattern() const noexcept {
    return field_desc<Accessor, DefRegionKind::def_pattern, Flags>{name};
  }
  /// Hidden from every structural utility.
  constexpr auto ignore() const noexcept {
    return field_desc<Accessor, Kind, Flags | field_flags::ignore>{name};
  }
  /// Printed by format_tree only when not value-initialized.
  constexpr auto elide_default() const noexcept {
    return field_desc<Accessor, Kind, Flags | field_flags::elide_default>{name};
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
