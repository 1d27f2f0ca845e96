// Lets assert_structural_equal print both programs with the mismatching node underlined.
#pragma once

#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <optional>
#include <string>

namespace ctir {

namespace detail {
/// `root` printed with the place `path` leads to underlined (`node` at its first place
/// when the path finds nothing printed).
inline std::string print_underlined(const ObjectRef& root, const Object* node,
                                    const AccessPath& path) {
  const PrintedText printed = print_with_ranges(root);
  if (const std::optional<TextRange> range = printed.range_at(root, path)) {
    return printed.underline(*range, 2);
  }
  return printed.underline(node, 2);
}
} // namespace detail

/// Makes assert_structural_equal (and format_structural_mismatch) show both programs in the
/// text format with the mismatching node underlined, instead of a one-line description of
/// each node. traverse/ sits below text/, so the printer is handed to it by this call; call
/// it once, early in main or in a test runner. Idempotent.
inline void install_printer() noexcept { detail::program_printer = &detail::print_underlined; }

} // namespace ctir
