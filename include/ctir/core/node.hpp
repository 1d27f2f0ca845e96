// Declaring node types: type key, parent, compile-time index and ancestry.
#pragma once

#include <ctir/core/object.hpp>

#include <array>
#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

/// Declares a concrete node type inside its class body.
///
///     struct ForNode : StmtNode {
///       CTIR_NODE(ForNode, StmtNode, "tensor.For");
///       ...
///     };
#define CTIR_NODE(Self, Base, Key) CTIR_DETAIL_NODE(Self, Base, Key, false)

/// Declares an abstract node type (a family root such as PrimExprNode) inside its class body.
#define CTIR_ABSTRACT_NODE(Self, Base, Key) CTIR_DETAIL_NODE(Self, Base, Key, true)

#define CTIR_DETAIL_NODE(Self, Base, Key, Abstract)                                                \
  using self_type = Self;                                                                          \
  using base_type = Base;                                                                          \
  static constexpr ::std::string_view type_key = Key;                                              \
  static constexpr ::std::uint32_t type_index = ::ctir::type_index_of_key(Key);                    \
  static constexpr ::std::uint32_t type_depth = Base::type_depth + 1;                              \
  static constexpr bool is_abstract_type = Abstract

namespace ctir {

/// A type declared with CTIR_NODE or CTIR_ABSTRACT_NODE (or Object itself).
template <class T>
concept ir_node = std::derived_from<T, Object> && requires {
  { T::type_key } -> std::convertible_to<std::string_view>;
  { T::type_index } -> std::convertible_to<std::uint32_t>;
  typename T::self_type;
} && std::is_same_v<typename T::self_type, T>;

/// A node type whose objects can be created (not a family root).
template <class T>
concept concrete_node = ir_node<T> && !T::is_abstract_type;

namespace detail {

template <class T>
constexpr void fill_ancestors(std::uint32_t* out) {
  out[T::type_depth] = T::type_index;
  if constexpr (!std::is_same_v<T, Object>) {
    fill_ancestors<typename T::base_type>(out);
  }
}

} // namespace detail

/// The type indices of T's ancestors, root first, T last.
template <ir_node T>
inline constexpr auto ancestor_indices_v = [] {
  std::array<std::uint32_t, T::type_depth + 1> result{};
  detail::fill_ancestors<T>(result.data());
  return result;
}();

/// Whether `object` is a T (or derived from T). Works for types registered at run time.
template <ir_node T>
constexpr bool instance_of(const Object& object) noexcept {
  if constexpr (std::is_same_v<T, Object>) {
    return true;
  } else if constexpr (std::is_final_v<T>) {
    return object.dynamic_type_index() == T::type_index;
  } else {
    return object.type_info().derives_from(T::type_index, T::type_depth);
  }
}

} // namespace ctir
