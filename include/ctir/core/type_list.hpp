// Flat compile-time type lists: the vocabulary of families, field tables, callback sets and
// pass pools. Every operation is a fold or an overload resolution, never a recursive
// instantiation, so that a list of hundreds of types costs the compiler little.
#pragma once

#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

namespace ctir {

/// A compile-time list of types; the elements are never instantiated.
template <class... Ts>
struct type_list {
  static constexpr std::size_t size = sizeof...(Ts);
};

namespace detail::lists {

// Concatenation and de-duplication are left folds over these operators, declared only for
// use in unevaluated operands.
template <class... A, class... B>
type_list<A..., B...> operator+(type_list<A...>, type_list<B...>);

template <class... Os, class T>
std::conditional_t<(std::is_same_v<T, Os> || ...), type_list<Os...>, type_list<Os..., T>>
operator|(type_list<Os...>, std::type_identity<T>);

template <class T>
struct as_list {
  using type = type_list<T>;
};
template <class... Ts>
struct as_list<type_list<Ts...>> {
  using type = type_list<Ts...>;
};

template <std::size_t I, class T>
struct indexed {
  using type = T;
};
template <class Sequence, class... Ts>
struct indexer;
template <std::size_t... Is, class... Ts>
struct indexer<std::index_sequence<Is...>, Ts...> : indexed<Is, Ts>... {};
template <std::size_t I, class T>
indexed<I, T> select(const indexed<I, T>&);

template <std::size_t I, class List>
struct element;
template <std::size_t I, class... Ts>
struct element<I, type_list<Ts...>> {
  using type = typename decltype(select<I>(indexer<std::index_sequence_for<Ts...>, Ts...>{}))::type;
};

template <class List>
struct unique;
template <class... Ts>
struct unique<type_list<Ts...>> {
  using type = decltype((type_list<>{} | ... | std::type_identity<Ts>{}));
};

template <class... Lists>
struct concat {
  using type = decltype((type_list<>{} + ... + Lists{}));
};

} // namespace detail::lists

/// The position `list_index_v` gives a type that is not in the list.
inline constexpr std::size_t not_in_list = std::numeric_limits<std::size_t>::max();

/// Concatenates type lists.
template <class... Lists>
using concat_t = typename detail::lists::concat<Lists...>::type;

/// Flattens one level: each element that is itself a type_list is spliced in.
template <class... Ts>
using flat_list_t = concat_t<typename detail::lists::as_list<Ts>::type...>;

/// The I-th type of a pack, by overload resolution.
template <std::size_t I, class... Ts>
using pack_element_t = typename detail::lists::element<I, type_list<Ts...>>::type;

/// The I-th element of a type_list.
template <std::size_t I, class List>
using list_element_t = typename detail::lists::element<I, List>::type;

/// List without repetitions (std::is_same), first occurrences kept in order.
template <class List>
using unique_types_t = typename detail::lists::unique<List>::type;

/// The position of T in a pack, or not_in_list.
template <class T, class... Ts>
constexpr std::size_t index_in_pack() noexcept {
  constexpr bool same[] = {std::is_same_v<T, Ts>..., false};
  for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
    if (same[i]) {
      return i;
    }
  }
  return not_in_list;
}

/// The position of T in List, or not_in_list.
template <class T, class List>
inline constexpr std::size_t list_index_v = not_in_list;
template <class T, class... Ts>
inline constexpr std::size_t list_index_v<T, type_list<Ts...>> = index_in_pack<T, Ts...>();

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
