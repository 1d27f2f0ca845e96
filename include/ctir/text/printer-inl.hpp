// Definitions of <ctir/text/printer.hpp>.
#pragma once

#include <ctir/text/printer.hpp>

#include <ctir/text/detail/print_engine.hpp>
#include <ctir/text/detail/print_engine_graph-inl.hpp>
#include <ctir/text/detail/print_engine_module-inl.hpp>
#include <ctir/text/detail/print_engine_tensor-inl.hpp>

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ctir {

CTIR_INLINE PrintedText print_with_ranges(const IRModule& module) {
  detail::Printer printer(true);
  printer.module(module);
  return std::move(printer).finish();
}

CTIR_INLINE PrintedText print_with_ranges(const ObjectRef& node) {
  detail::Printer printer(true);
  printer.root(node.get());
  return std::move(printer).finish();
}

CTIR_INLINE std::string print(const IRModule& module) {
  detail::Printer printer(false);
  printer.module(module);
  return std::move(printer).take_text();
}

CTIR_INLINE std::string print(const ObjectRef& node) {
  detail::Printer printer(false);
  printer.root(node.get());
  return std::move(printer).take_text();
}

CTIR_INLINE std::ostream& operator<<(std::ostream& os, const IRModule& module) {
  return os << print(module);
}

} // namespace ctir
