// Flat compile-time type lists: the vocabulary of families, field tables, callback sets and
// pass pools. Every operation is a fold, an overload resolution or a constexpr loop, never a
// recursive instantiation, so that a list of hundreds of types costs the compiler little.
#pragma once

#include <array>
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

/// The position `list_index_v` gives a type that is not in the list.
inline constexpr std::size_t not_in_list = std::numeric_limits<std::size_t>::max();

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

namespace detail::lists {

template <class T, class List>
struct index_in_list {
  static constexpr std::size_t value = not_in_list;
};
template <class T, class... Ts>
struct index_in_list<T, type_list<Ts...>> {
  static constexpr std::size_t value = index_in_pack<T, Ts...>();
};

// Concatenation of a few lists is a left fold over this operator, declared only for use in
// unevaluated operands. Clang stops a fold past 256 operands, so longer packs are handled
// by position instead (below).
template <class... A, class... B>
type_list<A..., B...> operator+(type_list<A...>, type_list<B...>);

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

/// The lists' elements by position: output element K is element K - start[L] of list L.
template <class... Lists>
struct concat_by_position {
  static constexpr std::size_t count = sizeof...(Lists);
  static constexpr std::array<std::size_t, count + 1> start = [] {
    constexpr std::size_t sizes[] = {Lists::size..., 0};
    std::array<std::size_t, count + 1> result{};
    for (std::size_t i = 0; i < count; ++i) {
      result[i + 1] = result[i] + sizes[i];
    }
    return result;
  }();
  static constexpr std::size_t list_of(std::size_t k) {
    std::size_t i = 0;
    while (start[i + 1] <= k) {
      ++i;
    }
    return i;
  }
  template <std::size_t... K>
  static auto make(std::index_sequence<K...>) -> type_list<typename element<
      K - start[list_of(K)], typename element<list_of(K), type_list<Lists...>>::type>::type...>;
  using type = decltype(make(std::make_index_sequence<start[count]>{}));
};

template <bool Many, class... Lists>
struct concat {
  using type = decltype((type_list<>{} + ... + Lists{}));
};
template <class... Lists>
struct concat<true, Lists...> : concat_by_position<Lists...> {};

template <class List>
struct unique;
template <class... Ts>
struct unique<type_list<Ts...>> {
  // A position is kept when it is its type's first occurrence.
  static constexpr auto kept = [] {
    constexpr std::size_t n = sizeof...(Ts);
    constexpr std::size_t first[] = {index_in_list<Ts, type_list<Ts...>>::value..., 0};
    std::pair<std::array<std::size_t, n>, std::size_t> result{};
    for (std::size_t i = 0; i < n; ++i) {
      if (first[i] == i) {
        result.first[result.second++] = i;
      }
    }
    return result;
  }();
  template <std::size_t... J>
  static auto make(std::index_sequence<J...>)
      -> type_list<typename element<kept.first[J], type_list<Ts...>>::type...>;
  using type = decltype(make(std::make_index_sequence<kept.second>{}));
};

} // namespace detail::lists

/// Concatenates type lists.
template <class... Lists>
using concat_t = typename detail::lists::concat<(sizeof...(Lists) > 64), Lists...>::type;

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

/// The position of T in List, or not_in_list.
template <class T, class List>
inline constexpr std::size_t list_index_v = detail::lists::index_in_list<T, List>::value;

/// Whether T is one of the elements of List.
template <class T, class List>
inline constexpr bool list_contains_v = list_index_v<T, List> != not_in_list;

namespace detail::lists {
template <template <class> class Pred, class List>
struct any {
  static constexpr bool value = false;
};
template <template <class> class Pred, class... Ts>
struct any<Pred, type_list<Ts...>> {
  static constexpr bool value = [] {
    constexpr bool hits[] = {static_cast<bool>(Pred<Ts>::value)..., false};
    for (bool hit : hits) {
      if (hit) {
        return true;
      }
    }
    return false;
  }();
};
} // namespace detail::lists

/// Whether some element of List satisfies Pred<element>::value.
template <template <class> class Pred, class List>
inline constexpr bool list_any_v = detail::lists::any<Pred, List>::value;

/// Calls f(std::type_identity<T>{}) for every element, in order.
template <class... Ts, class F>
constexpr void for_each_type(type_list<Ts...>, F&& f) {
  // A braced list, not a fold: clang stops folds past 256 operands.
  [[maybe_unused]] const int in_order[] = {0, (f(std::type_identity<Ts>{}), 0)...};
}

} // namespace ctir
