// The static type graph under a root type, and which of its types may contain a match.
//
// A static walk prunes: it does not descend into a field whose static type can never,
// through the hooks and families, lead to a node some callback matches. The graph's nodes
// are the node types reachable from the root (a field's element type, a family's members);
// it is found by a breadth-first closure whose depth is the graph's diameter, and the
// "may contain a match" table is a constexpr search backwards over its edges from the
// matched types, which handles cycles (an expression holds expressions) without any
// recursive instantiation.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/meta.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ctir::detail::traverse {

/// Whether the traversals descend into field F: a node or node array not flagged ignore.
template <class F>
inline constexpr bool is_child_field_v =
    F::kind != FieldKind::value && !F::ignored && !std::is_void_v<typename F::element_type>;

/// The type of T's I-th field descriptor, read from the type of its field list, so that
/// asking about a field does not evaluate the descriptor (its names) as field_at_v does.
template <class T, std::size_t I>
using field_type_t = list_element_t<I, typename decltype(fields_v<T>)::types>;

template <class F>
using field_children_t =
    std::conditional_t<is_child_field_v<F>, type_list<typename F::element_type>, type_list<>>;

template <class Fields>
struct child_element_types;
template <class... F>
struct child_element_types<type_list<F...>> {
  using type = concat_t<field_children_t<F>...>;
};

/// The successors of a node type in the type graph: an abstract type's family members, a
/// concrete type's child-field element types.
template <class T>
struct type_successors {
  using type = typename child_element_types<typename decltype(fields_v<T>)::types>::type;
};
template <class T>
requires(T::is_abstract_type) struct type_successors<T> {
  using type = family_t<T>;
};
template <class T>
using type_successors_t = typename type_successors<T>::type;

/// The positions of the candidates that are neither in Reached nor an earlier candidate
/// (compared by type index).
template <class Reached, class... Cs>
constexpr auto fresh_candidates() noexcept {
  constexpr std::size_t n = sizeof...(Cs);
  constexpr std::array<std::uint32_t, n> ids{Cs::type_index...};
  constexpr auto reached = []<class... Rs>(type_list<Rs...>) {
    return std::array<std::uint32_t, sizeof...(Rs)>{Rs::type_index...};
  }(Reached{});
  kept_positions<n> result;
  for (std::size_t i = 0; i < n; ++i) {
    bool seen = false;
    for (std::size_t j = 0; j < reached.size() && !seen; ++j) {
      seen = reached[j] == ids[i];
    }
    for (std::size_t j = 0; j < i && !seen; ++j) {
      seen = ids[j] == ids[i];
    }
    if (!seen) {
      result.at[result.count++] = i;
    }
  }
  return result;
}

template <class Reached, class Candidates>
struct fresh_types;
template <class Reached, class... Cs>
struct fresh_types<Reached, type_list<Cs...>> {
  static constexpr auto kept = fresh_candidates<Reached, Cs...>();
  template <std::size_t... J>
  static auto make(std::index_sequence<J...>) -> type_list<pack_element_t<kept.at[J], Cs...>...>;
  using type = decltype(make(std::make_index_sequence<kept.count>{}));
};

/// Breadth-first: the successors of the types found in the last step (Frontier) that are
/// not yet in Reached become the next frontier, so that each type's successors are listed
/// once; the depth of this recursion is the graph's diameter, a handful.
template <class Reached, class Frontier>
struct closure;
template <class Reached>
struct closure<Reached, type_list<>> {
  using type = Reached;
};
template <class Reached, class... Fs>
struct closure<Reached, type_list<Fs...>> {
  using fresh = typename fresh_types<Reached, concat_t<type_successors_t<Fs>...>>::type;
  using type = typename closure<concat_t<Reached, fresh>, fresh>::type;
};

/// Every node type reachable from Root (Root first; abstract and concrete types).
template <class Root>
using reachable_types_t = typename closure<type_list<Root>, type_list<Root>>::type;

template <class List>
struct concrete_filter;
template <class... Ts>
struct concrete_filter<type_list<Ts...>> {
  using type = concat_t<std::conditional_t<Ts::is_abstract_type, type_list<>, type_list<Ts>>...>;
};
/// The concrete members of a list.
template <class List>
using concrete_types_t = typename concrete_filter<List>::type;

template <class Set, class List>
struct handled_filter;
template <class Set, class... Cs>
struct handled_filter<Set, type_list<Cs...>> {
  using type =
      concat_t<std::conditional_t<Set::template handles_v<Cs>, type_list<Cs>, type_list<>>...>;
};
/// The members of a list of concrete types that some callback of Set handles. The
/// explicit-stack paths compile a step of their own only for these; every other node takes
/// the path through its type's field table, so that the code a traversal instantiates per
/// call site grows with the types it matches, not with the types it can meet.
template <class Set, class List>
using handled_types_t = typename handled_filter<typename Set::match_key, List>::type;

template <class T>
struct successor_ids {
  template <class... S>
  static constexpr std::array<std::uint32_t, sizeof...(S)> make(type_list<S...>) noexcept {
    return {S::type_index...};
  }
  static constexpr auto value = make(type_successors_t<T>{});
};

/// The edges of the type graph over Universe, grouped by their target (the positions of
/// the types that lead to each type), computed once per universe: every traversal of the
/// same root type shares them.
template <class Universe>
struct universe_edges;
template <class... Ts>
struct universe_edges<type_list<Ts...>> {
  static constexpr std::size_t size = sizeof...(Ts);
  static constexpr std::size_t count = (successor_ids<Ts>::value.size() + ... + 0);
  struct table {
    /// The sources of the edges into type i: from[into_begin[i]] .. from[into_begin[i + 1]].
    std::array<std::size_t, size + 1> into_begin{};
    std::array<std::size_t, count + 1> from{};
  };
  static constexpr table value = [] {
    constexpr std::array<std::uint32_t, size> ids{Ts::type_index...};
    const auto position = [&](std::uint32_t id) {
      for (std::size_t i = 0; i < size; ++i) {
        if (ids[i] == id) {
          return i;
        }
      }
      return npos;
    };
    std::array<std::size_t, count + 1> source{};
    std::array<std::size_t, count + 1> target{};
    std::size_t edge = 0;
    std::size_t owner = 0;
    (
        [&] {
          for (std::uint32_t id : successor_ids<Ts>::value) {
            source[edge] = owner;
            target[edge] = position(id);
            ++edge;
          }
          ++owner;
        }(),
        ...);
    // A counting sort of the edges by target (an edge to a type outside the graph is left
    // out).
    table t;
    for (std::size_t e = 0; e < count; ++e) {
      if (target[e] != npos) {
        ++t.into_begin[target[e] + 1];
      }
    }
    for (std::size_t i = 0; i < size; ++i) {
      t.into_begin[i + 1] += t.into_begin[i];
    }
    std::array<std::size_t, size + 1> next = t.into_begin;
    for (std::size_t e = 0; e < count; ++e) {
      if (target[e] != npos) {
        t.from[next[target[e]]++] = source[e];
      }
    }
    return t;
  }();
};

/// `contains[i]`: whether a field of static type Universe[i] may hold, at any depth, a node
/// that Matcher matches. Matcher::template direct_v<T> says whether T itself is a hit (for
/// an abstract T: whether a node of a subtype unknown at compile time could be one).
template <class Universe, class Matcher>
struct contain_table;
template <class... Ts, class Matcher>
struct contain_table<type_list<Ts...>, Matcher> {
  static constexpr std::size_t size = sizeof...(Ts);

  static constexpr std::array<bool, size> compute() noexcept {
    // A type the traversal must not enter (not_into) holds nothing for it.
    constexpr std::array<bool, size> opaque{Matcher::template opaque_v<Ts>...};
    std::array<bool, size> contains{
        (!Matcher::template opaque_v<Ts> && Matcher::template direct_v<Ts>)...};
    using edges = universe_edges<type_list<Ts...>>;
    // "Contains" spreads backwards along the edges from the hits, each type once: linear in
    // the graph, and cycles are fine.
    std::array<std::size_t, size + 1> pending{};
    std::size_t count = 0;
    for (std::size_t i = 0; i < size; ++i) {
      if (contains[i]) {
        pending[count++] = i;
      }
    }
    while (count > 0) {
      const std::size_t to = pending[--count];
      for (std::size_t e = edges::value.into_begin[to]; e < edges::value.into_begin[to + 1]; ++e) {
        const std::size_t from = edges::value.from[e];
        if (!contains[from] && !opaque[from]) {
          contains[from] = true;
          pending[count++] = from;
        }
      }
    }
    return contains;
  }
  static constexpr std::array<bool, size> value = compute();

  // By type index, in the sorted table every traversal of this graph shares, rather than by
  // comparing a type with each of the graph's types for every field type asked about.
  static constexpr std::size_t position_of_index(std::uint32_t index) noexcept {
    const auto& sorted = sorted_ids<Ts...>::value;
    std::size_t lo = 0;
    std::size_t hi = size;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (sorted.id[mid] < index) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < size && sorted.id[lo] == index ? sorted.position[lo] : npos;
  }

  /// The position of a type of the graph; not a constant for any other type.
  static constexpr std::size_t checked_position(std::uint32_t index) {
    const std::size_t position = position_of_index(index);
    if (position == npos) {
      // Not a constant expression: a field's element type was left out of the type graph.
      throw "ctir: internal error: type outside the traversal graph";
    }
    return position;
  }

  /// Whether a field of static type T (a type of the graph) may lead to a match.
  template <class T>
  static constexpr bool may_contain_v = value[checked_position(T::type_index)];

  /// Whether a node whose dynamic type index is `index` may hold a match at or below it:
  /// false for a type of the graph that the table rules out, and for a type registered at
  /// run time below one the traversal must not enter (Matcher::opaque_dynamic); any other
  /// type registered at run time may hold one.
  static bool may_contain_dynamic(std::uint32_t index) noexcept {
    if constexpr (!(!Ts::is_abstract_type || ...)) {
      // No compiled-in node type to rule out (the runtime layer's traversals).
      static_cast<void>(index);
      return true;
    } else {
      const std::size_t position = position_of_index(index);
      if (position != npos) {
        return value[position];
      }
      if constexpr (requires { Matcher::opaque_dynamic(index); }) {
        return !Matcher::opaque_dynamic(index);
      } else {
        return true;
      }
    }
  }

  /// Whether the type with dynamic type index `index` is one of the graph's (compiled in).
  static bool is_static_type(std::uint32_t index) noexcept {
    return position_of_index(index) != npos;
  }

  template <class F, bool Child = is_child_field_v<F>>
  struct field_entered : std::false_type {};
  template <class F>
  struct field_entered<F, true> : std::bool_constant<may_contain_v<typename F::element_type>> {};

  template <class Fields>
  struct any_field_entered;
  template <class... F>
  struct any_field_entered<type_list<F...>> {
    static constexpr bool value = (field_entered<F>::value || ...);
  };

  /// Whether a traversal enters some field of a node of type C at a site of kind Region:
  /// a field that may lead to a matched node (a variable at a use is a leaf).
  template <class C, DefRegionKind Region>
  static constexpr bool enters_children_v =
      !is_use_site<C>(Region) && any_field_entered<typename decltype(fields_v<C>)::types>::value;
};

} // namespace ctir::detail::traverse
