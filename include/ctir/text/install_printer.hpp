// Lets assert_structural_equal print both programs with the mismatching node underlined.
#pragma once

#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <string>

namespace ctir::detail {

inline std::string print_underlined(const ObjectRef& root, const Object* node) {
  return print_with_ranges(root).underline(node, 2);
}

/// traverse/ sits below text/, so the printer is handed to it at static initialization.
inline const bool program_printer_installed = (program_printer = &print_underlined, true);

} // namespace ctir::detail
