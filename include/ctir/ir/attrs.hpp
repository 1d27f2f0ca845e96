// Attributes: ordered key/value maps on functions and operator calls.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/value_traits.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
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
  using Entries = std::vector<std::pair<std::string, AttrValue>>;

public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> entries);
  // Out of line: a node that holds attributes is copied by every map that rebuilds it, and
  // the copy of a vector of variants is code each such call site would compile again.
  Attrs(const Attrs& other);
  Attrs(Attrs&& other) noexcept;
  Attrs& operator=(const Attrs& other);
  Attrs& operator=(Attrs&& other) noexcept;
  ~Attrs();

  /// Sets (or replaces) an attribute.
  Attrs& set(std::string_view key, AttrValue value);
  const AttrValue* find(std::string_view key) const noexcept;
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
  Entries::const_iterator begin() const noexcept { return entries_.begin(); }
  Entries::const_iterator end() const noexcept { return entries_.end(); }

  /// Equal as value_traits<Attrs> says: floats bitwise, NaN equal to NaN.
  friend bool operator==(const Attrs& a, const Attrs& b);

private:
  Entries::const_iterator lower_bound(std::string_view key) const noexcept;
  Entries entries_;
};

/// Prints an attribute value in the text format (`true`, `3`, `0.5f64`, `"s"`, `[3, 2]`).
void print_attr_value(const AttrValue& value, std::string& out);

template <>
struct value_traits<Attrs> {
  static bool equal(const Attrs& a, const Attrs& b);
  static std::uint64_t hash(const Attrs& a);
  static void print(const Attrs& a, std::string& out);
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/attrs-inl.hpp>
#endif
