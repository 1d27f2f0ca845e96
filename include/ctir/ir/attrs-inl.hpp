// Definitions of <ctir/ir/attrs.hpp>.
#pragma once

#include <ctir/ir/attrs.hpp>

#include <type_traits>

namespace ctir {

CTIR_INLINE Attrs::Attrs(const Attrs& other) = default;
CTIR_INLINE Attrs::Attrs(Attrs&& other) noexcept = default;
CTIR_INLINE Attrs& Attrs::operator=(const Attrs& other) = default;
CTIR_INLINE Attrs& Attrs::operator=(Attrs&& other) noexcept = default;
CTIR_INLINE Attrs::~Attrs() = default;

CTIR_INLINE Attrs::Attrs(std::initializer_list<std::pair<std::string, AttrValue>> entries) {
  for (const auto& [key, value] : entries) {
    set(key, value);
  }
}

CTIR_INLINE Attrs& Attrs::set(std::string_view key, AttrValue value) {
  auto it = entries_.begin() + (lower_bound(key) - entries_.cbegin());
  if (it != entries_.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    entries_.emplace(it, std::string(key), std::move(value));
  }
  return *this;
}

CTIR_INLINE const AttrValue* Attrs::find(std::string_view key) const noexcept {
  auto it = lower_bound(key);
  return it != entries_.end() && it->first == key ? &it->second : nullptr;
}

CTIR_INLINE Attrs::Entries::const_iterator Attrs::lower_bound(std::string_view key) const noexcept {
  auto it = entries_.begin();
  while (it != entries_.end() && it->first < key) {
    ++it;
  }
  return it;
}

CTIR_INLINE bool operator==(const Attrs& a, const Attrs& b) {
  return value_traits<Attrs>::equal(a, b);
}

CTIR_INLINE void print_attr_value(const AttrValue& value, std::string& out) {
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

CTIR_INLINE bool value_traits<Attrs>::equal(const Attrs& a, const Attrs& b) {
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

CTIR_INLINE std::uint64_t value_traits<Attrs>::hash(const Attrs& a) {
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

CTIR_INLINE void value_traits<Attrs>::print(const Attrs& a, std::string& out) {
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

} // namespace ctir
