// Attributes: ordered key/value maps on functions and operator calls.
#pragma once

#include <ctir/hooks/value_traits.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ctir {

/// One attribute value: a bool, an integer, a float, a string or a list of integers.
using AttrValue = std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>>;

/// An attribute map. Keys are kept sorted so that equal maps print the same.
class Attrs {
public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> entries) {
    for (const auto& [key, value] : entries) {
      set(key, value);
    }
  }

  /// Sets (or replaces) an attribute.
  Attrs& set(std::string_view key, AttrValue value) {
    auto it = lower_bound(key);
    if (it != entries_.end() && it->first == key) {
      it->second = std::move(value);
    } else {
      entries_.emplace(it, std::string(key), std::move(value));
    }
    return *this;
  }
  const AttrValue* find(std::string_view key) const noexcept {
    auto it = const_cast<Attrs*>(this)->lower_bound(key);
    return it != entries_.end() && it->first == key ? &it->second : nullptr;
  }
  bool contains(std::string_view key) const noexcept { return find(key) != nullptr; }
  /// The value as a T when present and of that alternative.
  template <class T>
  std::optional<T> get(std::string_view key) const {
    const AttrValue* value = find(key);
    if (value == nullptr || !std::holds_alternative<T>(*value)) {
      return std::nullopt;
    }
    return std::get<T>(*value);
  }
  bool empty() const noexcept { return entries_.empty(); }
  std::size_t size() const noexcept { return entries_.size(); }
  auto begin() const noexcept { return entries_.begin(); }
  auto end() const noexcept { return entries_.end(); }

  /// Equal as value_traits<Attrs> says: floats bitwise, NaN equal to NaN.
  friend bool operator==(const Attrs& a, const Attrs& b);

private:
  std::vector<std::pair<std::string, AttrValue>>::iterator lower_bound(std::string_view key) {
    auto it = entries_.begin();
    while (it != entries_.end() && it->first < key) {
      ++it;
    }
    return it;
  }
  std::vector<std::pair<std::string, AttrValue>> entries_;
};

/// Prints an attribute value in the text format (`true`, `3`, `0.5f64`, `"s"`, `[3, 2]`).
inline void print_attr_value(const AttrValue& value, std::string& out) {
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, double>) {
          out += shortest_float(v);
          out += "f64";
        } else {
          value_traits<V>::print(v, out);
        }
      },
      value);
}

template <>
struct value_traits<Attrs> {
  static bool equal(const Attrs& a, const Attrs& b) {
    if (a.size() != b.size()) {
      return false;
    }
    auto ib = b.begin();
    for (const auto& [key, value] : a) {
      if (key != ib->first || value.index() != ib->second.index()) {
        return false;
      }
      const bool same = std::visit(
          [&](const auto& va) {
            using V = std::decay_t<decltype(va)>;
            return value_traits<V>::equal(va, std::get<V>(ib->second));
          },
          value);
      if (!same) {
        return false;
      }
      ++ib;
    }
    return true;
  }
  static std::uint64_t hash(const Attrs& a) {
    std::uint64_t seed = hash_combine(0xA7, a.size());
    for (const auto& [key, value] : a) {
      seed = hash_combine(seed, hash_bytes(key));
      seed = hash_combine(seed, std::visit(
                                    [](const auto& v) {
                                      using V = std::decay_t<decltype(v)>;
                                      return value_traits<V>::hash(v);
                                    },
                                    value));
    }
    return seed;
  }
  static void print(const Attrs& a, std::string& out) {
    out += '{';
    bool first = true;
    for (const auto& [key, value] : a) {
      if (!first) {
        out += ", ";
      }
      first = false;
      out += key;
      out += " = ";
      print_attr_value(value, out);
    }
    out += '}';
  }
};

inline bool operator==(const Attrs& a, const Attrs& b) { return value_traits<Attrs>::equal(a, b); }

} // namespace ctir
