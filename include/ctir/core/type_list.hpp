// Flat compile-time type lists: the vocabulary of families and field tables.
#pragma once

#include <cstddef>
#include <type_traits>

namespace ctir {

/// A compile-time list of types; the elements are never instantiated.
template <class... Ts>
struct type_list {
  static constexpr std::size_t size = sizeof...(Ts);
};

namespace detail {

template <class... Lists>
struct concat_impl;

template <>
struct concat_impl<> {
  using type = type_list<>;
};

template <class... As>
struct concat_impl<type_list<As...>> {
  using type = type_list<As...>;
};

template <class... As, class... Bs, class... Rest>
struct concat_impl<type_list<As...>, type_list<Bs...>, Rest...> {
  using type = typename concat_impl<type_list<As..., Bs...>, Rest...>::type;
};

template <class T>
struct as_list {
  using type = type_list<T>;
};

template <class... Ts>
struct as_list<type_list<Ts...>> {
  using type = type_list<Ts...>;
};

} // namespace detail

/// Concatenates type lists.
template <class... Lists>
using concat_t = typename detail::concat_impl<Lists...>::type;

/// Flattens one level: each element that is itself a type_list is spliced in.
template <class... Ts>
using flat_list_t = concat_t<typename detail::as_list<Ts>::type...>;

/// Whether T is one of the elements of List.
template <class T, class List>
inline constexpr bool list_contains_v = false;

template <class T, class... Ts>
inline constexpr bool list_contains_v<T, type_list<Ts...>> = (std::is_same_v<T, Ts> || ...);

/// Whether some element of List satisfies Pred<element>::value.
template <template <class> class Pred, class List>
inline constexpr bool list_any_v = false;

template <template <class> class Pred, class... Ts>
inline constexpr bool list_any_v<Pred, type_list<Ts...>> = (Pred<Ts>::value || ...);

/// Calls f(std::type_identity<T>{}) for every element, in order.
template <class... Ts, class F>
constexpr void for_each_type(type_list<Ts...>, F&& f) {
  (f(std::type_identity<Ts>{}), ...);
}

} // namespace ctir
