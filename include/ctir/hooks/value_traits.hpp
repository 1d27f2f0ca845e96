// How plain (non-node) field values are compared, hashed and printed.
#pragma once

#include <ctir/core/linkage.hpp>

#include <boost/hana/accessors.hpp>
#include <boost/hana/at.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/string.hpp>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// Mixes `value` into `seed` (a 64-bit variant of boost::hash_combine's recipe).
constexpr std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t value) noexcept {
  value *= 0x9E3779B97F4A7C15ULL;
  value ^= value >> 32;
  return (seed ^ value) * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
}

/// A deterministic 64-bit hash of bytes (FNV-1a); unlike std::hash, stable across runs.
constexpr std::uint64_t hash_bytes(std::string_view bytes) noexcept {
  std::uint64_t hash = 14695981039346656037ULL;
  for (char c : bytes) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

/// Formats a floating-point number in the shortest form that reads back to the same value.
template <std::floating_point F>
std::string shortest_float(F value);

#ifndef CTIR_HEADER_ONLY
extern template std::string shortest_float<float>(float);
extern template std::string shortest_float<double>(double);
extern template std::string shortest_float<long double>(long double);
#endif

/// Customization point: equal / hash / print for a plain field type V.
///
/// Specialize it for your own value types; enums print as integers unless their
/// value_traits say otherwise.
template <class V, class Enable = void>
struct value_traits;

/// Whether V has value_traits, i.e. may be used as a plain field.
template <class V>
concept field_value = requires(const V& a, const V& b, std::string& out) {
  { value_traits<V>::equal(a, b) } -> std::convertible_to<bool>;
  { value_traits<V>::hash(a) } -> std::convertible_to<std::uint64_t>;
  value_traits<V>::print(a, out);
};

template <>
struct value_traits<bool> {
  static constexpr bool equal(bool a, bool b) noexcept { return a == b; }
  static constexpr std::uint64_t hash(bool a) noexcept { return a ? 1U : 2U; }
  static void print(bool a, std::string& out) { out += a ? "true" : "false"; }
};

template <std::integral V>
requires(!std::is_same_v<V, bool> && !std::is_same_v<V, char>) struct value_traits<V> {
  static constexpr bool equal(V a, V b) noexcept { return a == b; }
  static constexpr std::uint64_t hash(V a) noexcept {
    return hash_combine(0x51ED27, static_cast<std::uint64_t>(a));
  }
  static void print(V a, std::string& out) { out += std::to_string(a); }
};

/// Floats compare bitwise, except that every NaN equals every NaN.
template <std::floating_point V>
struct value_traits<V> {
  // `x != x` is the NaN test: it spares every user of this header <cmath>.
  static bool equal(V a, V b) noexcept {
    if (a != a && b != b) {
      return true;
    }
    return std::memcmp(&a, &b, sizeof(V)) == 0;
  }
  static std::uint64_t hash(V a) noexcept {
    if (a != a) {
      return 0x7FF8DEAD;
    }
    std::uint64_t bits = 0;
    std::memcpy(&bits, &a, sizeof(V));
    return hash_combine(0xF10A7, bits);
  }
  static void print(V a, std::string& out) {
    std::string text = shortest_float(a);
    if (text.find_first_of(".enai") == std::string::npos) {
      text += ".0";
    }
    out += text;
  }
};

template <>
struct value_traits<std::string> {
  static bool equal(const std::string& a, const std::string& b) noexcept { return a == b; }
  static std::uint64_t hash(const std::string& a) noexcept { return hash_bytes(a); }
  /// A double-quoted literal, `"` and `\\` escaped.
  static void print(const std::string& a, std::string& out);
};

template <class E>
requires std::is_enum_v<E>
struct value_traits<E> {
  using underlying = std::underlying_type_t<E>;
  static constexpr bool equal(E a, E b) noexcept { return a == b; }
  static constexpr std::uint64_t hash(E a) noexcept {
    return hash_combine(0xE7, static_cast<std::uint64_t>(static_cast<underlying>(a)));
  }
  static void print(E a, std::string& out) {
    out += std::to_string(static_cast<long long>(static_cast<underlying>(a)));
  }
};

template <field_value V>
struct value_traits<std::vector<V>> {
  static bool equal(const std::vector<V>& a, const std::vector<V>& b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!value_traits<V>::equal(a[i], b[i])) {
        return false;
      }
    }
    return true;
  }
  static std::uint64_t hash(const std::vector<V>& a) {
    std::uint64_t seed = hash_combine(0xA77A, a.size());
    for (const V& v : a) {
      seed = hash_combine(seed, value_traits<V>::hash(v));
    }
    return seed;
  }
  static void print(const std::vector<V>& a, std::string& out) {
    out += '[';
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (i != 0) {
        out += ", ";
      }
      value_traits<V>::print(a[i], out);
    }
    out += ']';
  }
};

template <field_value V>
struct value_traits<std::optional<V>> {
  static bool equal(const std::optional<V>& a, const std::optional<V>& b) {
    return a.has_value() == b.has_value() && (!a || value_traits<V>::equal(*a, *b));
  }
  static std::uint64_t hash(const std::optional<V>& a) {
    return a ? hash_combine(1, value_traits<V>::hash(*a)) : 0x0;
  }
  static void print(const std::optional<V>& a, std::string& out) {
    if (a) {
      value_traits<V>::print(*a, out);
    } else {
      out += "none";
    }
  }
};

/// A Boost.Hana Struct that is not a node is a value, compared member by member.
template <class S>
requires(boost::hana::Struct<S>::value && !std::is_enum_v<S> &&
         !std::is_arithmetic_v<S>) struct value_traits<S> {
  static bool equal(const S& a, const S& b) {
    bool same = true;
    for_each_member([&](auto accessor) {
      using M = std::remove_cvref_t<decltype(boost::hana::second(accessor)(a))>;
      same = same && value_traits<M>::equal(boost::hana::second(accessor)(a),
                                            boost::hana::second(accessor)(b));
    });
    return same;
  }
  static std::uint64_t hash(const S& a) {
    std::uint64_t seed = 0x57C7;
    for_each_member([&](auto accessor) {
      using M = std::remove_cvref_t<decltype(boost::hana::second(accessor)(a))>;
      seed = hash_combine(seed, value_traits<M>::hash(boost::hana::second(accessor)(a)));
    });
    return seed;
  }
  static void print(const S& a, std::string& out) {
    out += '{';
    bool first = true;
    for_each_member([&](auto accessor) {
      using M = std::remove_cvref_t<decltype(boost::hana::second(accessor)(a))>;
      if (!first) {
        out += ", ";
      }
      first = false;
      out += boost::hana::to<char const*>(boost::hana::first(accessor));
      out += '=';
      value_traits<M>::print(boost::hana::second(accessor)(a), out);
    });
    out += '}';
  }

private:
  template <class F>
  static void for_each_member(F&& f) {
    constexpr auto accessors = boost::hana::accessors<S>();
    constexpr std::size_t count = decltype(boost::hana::size(accessors))::value;
    [&]<std::size_t... I>(std::index_sequence<I...>) { (f(boost::hana::at_c<I>(accessors)), ...); }
    (std::make_index_sequence<count>{});
  }
};

/// Prints a value with its value_traits.
template <field_value V>
std::string print_value(const V& value) {
  std::string out;
  value_traits<V>::print(value, out);
  return out;
}

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/hooks/value_traits-inl.hpp>
#endif
