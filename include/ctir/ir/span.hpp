// Source spans: where in a text file a node came from.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/value_traits.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace ctir {

/// A range of source text, 1-based lines and columns; a null file means "no location".
struct Span {
  std::shared_ptr<const std::string> file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;

  bool defined() const noexcept { return line != 0; }
  /// "file:line:column" (or "<unknown>").
  std::string str() const;
};

/// Spans never take part in equality or hashing (their fields are declared ignore);
/// these traits only make them printable.
template <>
struct value_traits<Span> {
  static bool equal(const Span&, const Span&) noexcept { return true; }
  static std::uint64_t hash(const Span&) noexcept { return 0; }
  static void print(const Span& span, std::string& out) { out += span.str(); }
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/span-inl.hpp>
#endif
