// Definitions of <ctir/ir/span.hpp>.
#pragma once

#include <ctir/ir/span.hpp>

namespace ctir {

CTIR_INLINE std::string Span::str() const {
  if (!defined()) {
    return "<unknown>";
  }
  return (file ? *file : std::string("<input>")) + ":" + std::to_string(line) + ":" +
         std::to_string(column);
}

} // namespace ctir
