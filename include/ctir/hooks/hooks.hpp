// The structural hooks of a node type: its fields in order, declared once at compile time.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/hooks/field.hpp>

#include <array>
#include <boost/hana/accessors.hpp>
#include <boost/hana/at.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/string.hpp>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace ctir {

/// An ordered list of field descriptors: their types carry everything static, and
/// their names (and those their scopes name) are kept side by side (no std::tuple: it is
/// slow to compile).
template <class... Fields>
struct field_list {
  std::array<field_names, sizeof...(Fields)> names;
  static constexpr std::size_t size = sizeof...(Fields);
  using types = type_list<Fields...>;
};

/// Builds a field list (what CTIR_FIELDS expands to).
template <class... Fields>
constexpr field_list<Fields...> make_field_list(Fields... fields) noexcept {
  return {{fields.names()...}};
}

/// Declares the fields of the enclosing node type, in order:
///
///     CTIR_FIELDS(CTIR_FIELD(var).def_simple(), CTIR_FIELD(begin), CTIR_FIELD(end),
///                 CTIR_FIELD(body));
///
/// Inherited fields come first automatically; list only this class's own members.
#define CTIR_FIELDS(...)                                                                           \
  using ctir_fields_owner = self_type;                                                             \
  static constexpr auto ctir_fields() noexcept { return ::ctir::make_field_list(__VA_ARGS__); }    \
  static_assert(true)

namespace detail {

/// Reaches member I of a Boost.Hana Struct.
template <class S, std::size_t I>
struct hana_member_accessor {
  using owner = S;
  static constexpr auto accessor() noexcept {
    return boost::hana::second(boost::hana::at_c<I>(boost::hana::accessors<S>()));
  }
  using value_type = std::remove_cvref_t<decltype(accessor()(std::declval<S&>()))>;
  static constexpr const value_type& get(const owner& object) noexcept {
    return accessor()(object);
  }
  static constexpr value_type& get(owner& object) noexcept { return accessor()(object); }
};

template <class T>
constexpr bool declares_own_fields() {
  if constexpr (requires { typename T::ctir_fields_owner; }) {
    return std::is_same_v<typename T::ctir_fields_owner, T>;
  } else {
    return false;
  }
}

template <class T>
constexpr bool reflects_own_fields() {
  if constexpr (!boost::hana::Struct<T>::value) {
    return false;
  } else if constexpr (std::is_same_v<T, Object>) {
    return false;
  } else if constexpr (boost::hana::Struct<typename T::base_type>::value) {
    // A derived class inherits its base's Hana accessors; only its own count.
    return !std::is_same_v<decltype(boost::hana::accessors<T>()),
                           decltype(boost::hana::accessors<typename T::base_type>())>;
  } else {
    return true;
  }
}

template <class S>
constexpr auto hana_fields() noexcept {
  constexpr std::size_t count = decltype(boost::hana::size(boost::hana::accessors<S>()))::value;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return make_field_list(field_desc<hana_member_accessor<S, I>>{boost::hana::to<char const*>(
        boost::hana::first(boost::hana::at_c<I>(boost::hana::accessors<S>())))}...);
  }
  (std::make_index_sequence<count>{});
}

template <class... A, class... B>
constexpr auto concat_fields(const field_list<A...>& a, const field_list<B...>& b) noexcept {
  field_list<A..., B...> result{};
  std::size_t i = 0;
  for (const field_names& names : a.names) {
    result.names[i++] = names;
  }
  for (const field_names& names : b.names) {
    result.names[i++] = names;
  }
  return result;
}

template <std::size_t I, class... F>
constexpr auto field_of(const field_list<F...>& list) noexcept {
  using Field = pack_element_t<I, F...>;
  return Field::with_names(list.names[I]);
}

template <class... F, class Fn>
constexpr void for_each_in(const field_list<F...>& list, Fn& fn) {
  std::size_t i = 0;
  (fn(F::with_names(list.names[i++])), ...);
}

} // namespace detail

/// The fields a node type declares itself: from CTIR_FIELDS, else from its Boost.Hana
/// reflection, else none.
template <ir_node T>
constexpr auto own_fields() noexcept {
  if constexpr (detail::declares_own_fields<T>()) {
    return T::ctir_fields();
  } else if constexpr (detail::reflects_own_fields<T>()) {
    return detail::hana_fields<T>();
  } else {
    return field_list<>{};
  }
}

/// All fields of a node type, inherited ones first.
template <ir_node T>
constexpr auto all_fields() noexcept {
  if constexpr (std::is_same_v<T, Object>) {
    return field_list<>{};
  } else {
    return detail::concat_fields(all_fields<typename T::base_type>(), own_fields<T>());
  }
}

/// The fields of T as a constant (use for_each_field / field_at_v to read them).
template <ir_node T>
inline constexpr auto fields_v = all_fields<T>();

/// The number of fields of T (inherited ones included).
template <ir_node T>
inline constexpr std::size_t field_count_v = decltype(fields_v<T>)::size;

/// The I-th field descriptor of T.
template <ir_node T, std::size_t I>
inline constexpr auto field_at_v = detail::field_of<I>(fields_v<T>);

/// The index of the field named `name` in T, or field_count_v<T> if there is none.
template <ir_node T>
constexpr std::size_t field_index(std::string_view name) noexcept {
  for (std::size_t i = 0; i < field_count_v<T>; ++i) {
    if (fields_v<T>.names[i].name == name) {
      return i;
    }
  }
  return field_count_v<T>;
}

/// Calls f(field) for every field descriptor of T in order (a fold; no recursion).
template <ir_node T, class F>
constexpr void for_each_field(F&& f) {
  detail::for_each_in(fields_v<T>, f);
}

namespace detail {

constexpr std::size_t align_up(std::size_t offset, std::size_t alignment) noexcept {
  return (offset + alignment - 1) / alignment * alignment;
}

template <class T, class... F>
constexpr bool own_fields_belong_to(const field_list<F...>&) noexcept {
  return (std::is_same_v<typename F::owner, T> && ...);
}

/// Lays the own fields out after the base, in order; a real object larger than that
/// has members the hooks do not list. (Reuse of a base's tail padding only makes the
/// real object smaller, so it never raises a false alarm.)
template <class T, class... F>
constexpr bool own_fields_cover_layout(const field_list<F...>&) noexcept {
  std::size_t offset = sizeof(typename T::base_type);
  ((offset = align_up(offset, alignof(typename F::value_type)) + sizeof(typename F::value_type)),
   ...);
  return align_up(offset, alignof(T)) >= sizeof(T);
}

/// The index of the first field named `name` after field `after`, or `names.size()`.
template <std::size_t N>
constexpr std::size_t later_field_index(const std::array<field_names, N>& names, std::size_t after,
                                        std::string_view name) noexcept {
  for (std::size_t i = after + 1; i < N; ++i) {
    if (names[i].name == name) {
      return i;
    }
  }
  return N;
}

/// Whether every .scope_over(field) names a later field of the node, and every
/// .recursive_in<T>(field) a field between the definition and that one.
template <class... F>
constexpr bool scopes_name_later_fields(const field_list<F...>& list) noexcept {
  constexpr DefScope scopes[] = {F::scope..., DefScope::rest_of_node};
  for (std::size_t i = 0; i < sizeof...(F); ++i) {
    if (scopes[i] != DefScope::field) {
      continue;
    }
    const std::size_t begin = later_field_index(list.names, i, list.names[i].scope_field);
    if (begin == sizeof...(F)) {
      return false;
    }
    if (!list.names[i].recursive_field.empty() &&
        later_field_index(list.names, i, list.names[i].recursive_field) >= begin) {
      return false;
    }
  }
  return true;
}

} // namespace detail

/// Compile-time checks of a node type's hooks, with messages that say what to fix.
template <ir_node T>
struct hooks_check {
  static constexpr bool value = [] {
    if constexpr (std::is_same_v<T, Object>) {
      return true;
    } else {
      // An error here means a CTIR_FIELD names a member of another class (often a
      // copy-paste from a sibling node); list each field in its own class's hooks.
      static_assert(detail::own_fields_belong_to<T>(own_fields<T>()),
                    "ctir: a field listed in CTIR_FIELDS is not a member of this node type; "
                    "list each field in the hooks of the class that declares it");
      // An error here means the class has data members that CTIR_FIELDS does not list.
      static_assert(detail::own_fields_cover_layout<T>(own_fields<T>()),
                    "ctir: the hooks miss a field of this node type: list every data member in "
                    "CTIR_FIELDS (mark those no utility should see with .ignore())");
      // An error here means a .scope_over("name") or .recursive_in<T>("name") names no field
      // of this class declared after the definition (a typo, or a field listed before it).
      static_assert(detail::scopes_name_later_fields(own_fields<T>()),
                    "ctir: .scope_over(field) must name a field of the same node type declared "
                    "after the definition field, and .recursive_in<T>(field) one between the "
                    "two");
      return hooks_check<typename T::base_type>::value;
    }
  }();
};

/// A node type whose hooks pass the compile-time checks.
template <class T>
concept hooked_node = ir_node<T> && hooks_check<T>::value;

} // namespace ctir
