// Tests of the compile-time type lists: every operation is checked by static_assert, and a
// list of hundreds of types shows that none of them recurses per element.
#include <ctir/core/type_list.hpp> // first: the header must compile on its own

#include <doctest/doctest.h>

#include <cstddef>
#include <type_traits>
#include <utility>

using namespace ctir;

namespace {

template <std::size_t I>
struct tag {};

template <std::size_t... I>
auto make_tags(std::index_sequence<I...>) -> type_list<tag<I>...>;

// 600 types: past the depth a recursion of a few levels per element reaches (g++ stops at 900
// levels) and past the 256 operands clang allows a fold expression.
using many = decltype(make_tags(std::make_index_sequence<600>{}));

template <class T>
struct is_pointer_like : std::is_pointer<T> {};

} // namespace

TEST_CASE("concat_t joins lists in order and flat_list_t splices nested lists") {
  static_assert(std::is_same_v<concat_t<>, type_list<>>);
  static_assert(std::is_same_v<concat_t<type_list<int>, type_list<>, type_list<char, long>>,
                               type_list<int, char, long>>);
  static_assert(std::is_same_v<flat_list_t<int, type_list<char, long>, short>,
                               type_list<int, char, long, short>>);
  static_assert(concat_t<many, many>::size == 1200);
  CHECK(concat_t<many, type_list<int>>::size == 601);
}

TEST_CASE("list_element_t and pack_element_t pick by position") {
  static_assert(std::is_same_v<list_element_t<0, type_list<int, char>>, int>);
  static_assert(std::is_same_v<list_element_t<1, type_list<int, char>>, char>);
  static_assert(std::is_same_v<pack_element_t<2, int, char, long>, long>);
  static_assert(std::is_same_v<list_element_t<599, many>, tag<599>>);
  CHECK(std::is_same_v<list_element_t<300, many>, tag<300>>);
}

TEST_CASE("list_index_v finds the first position or says not_in_list") {
  static_assert(list_index_v<char, type_list<int, char, char>> == 1);
  static_assert(list_index_v<short, type_list<int, char>> == not_in_list);
  static_assert(list_index_v<int, type_list<>> == not_in_list);
  static_assert(list_index_v<int, int> == not_in_list); // not a list
  CHECK(list_index_v<tag<450>, many> == 450);
}

TEST_CASE("unique_types_t drops repetitions and keeps first occurrences in order") {
  static_assert(std::is_same_v<unique_types_t<type_list<>>, type_list<>>);
  static_assert(std::is_same_v<unique_types_t<type_list<int, char, int, long, char>>,
                               type_list<int, char, long>>);
  static_assert(std::is_same_v<unique_types_t<concat_t<many, many>>, many>);
  static_assert(std::is_same_v<unique_types_t<concat_t<many, type_list<int, tag<0>>, many>>,
                               concat_t<many, type_list<int>>>);
  CHECK(unique_types_t<concat_t<many, type_list<tag<3>, int>>>::size == 601);
}

template <class T>
struct is_last_tag : std::bool_constant<std::is_same_v<T, tag<599>>> {};

TEST_CASE("concat_t takes many lists at once") {
  using lists = decltype([]<std::size_t... I>(std::index_sequence<I...>) {
    return concat_t<type_list<tag<I>>...>{};
  }(std::make_index_sequence<600>{}));
  static_assert(std::is_same_v<lists, many>);
  static_assert(
      std::is_same_v<flat_list_t<int, type_list<>, type_list<char>>, type_list<int, char>>);
  CHECK(lists::size == 600);
}

TEST_CASE("list_contains_v, list_any_v and for_each_type see every element") {
  static_assert(list_contains_v<tag<599>, many>);
  static_assert(list_any_v<is_last_tag, many>);
  std::size_t visited = 0;
  for_each_type(many{}, [&](auto) { ++visited; });
  CHECK(visited == 600);
  static_assert(list_contains_v<long, type_list<int, long>>);
  static_assert(!list_contains_v<short, type_list<int, long>>);
  static_assert(list_any_v<is_pointer_like, type_list<int, char*>>);
  static_assert(!list_any_v<is_pointer_like, type_list<int, char>>);
  std::size_t total = 0;
  for_each_type(type_list<char, int, double>{},
                [&](auto identity) { total += sizeof(typename decltype(identity)::type); });
  CHECK(total == sizeof(char) + sizeof(int) + sizeof(double));
}
