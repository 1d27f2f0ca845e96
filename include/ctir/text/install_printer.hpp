// Lets assert_structural_equal print both programs with the mismatching node underlined.
#pragma once

#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <string>

namespace ctir {

namespace detail {
inline std::string print_underlined(const ObjectRef& root, const Object* node) {
  return print_with_ranges(root).underline(node, 2);
}
} // namespace detail

/// Makes assert_structural_equal (and format_structural_mismatch) show both programs in the
/// text format with the mismatching node underlined, instead of a one-line description of
/// each node. traverse/ sits below text/, so the printer is handed to it by this call; call
/// it once, early in main or in a test runner. Idempotent.
inline void install_printer() noexcept { detail::program_printer = &detail::print_underlined; }

} // namespace ctir
