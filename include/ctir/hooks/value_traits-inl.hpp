// Definitions of <ctir/hooks/value_traits.hpp>.
#pragma once

#include <ctir/hooks/value_traits.hpp>

#include <charconv>
#include <cmath>

namespace ctir {

template <std::floating_point F>
std::string shortest_float(F value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value < 0 ? "-inf" : "inf";
  }
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)error;
  return std::string(buffer, end);
}

#ifndef CTIR_HEADER_ONLY
template std::string shortest_float<float>(float);
template std::string shortest_float<double>(double);
template std::string shortest_float<long double>(long double);
#endif

CTIR_INLINE void value_traits<std::string>::print(const std::string& a, std::string& out) {
  out += '"';
  for (char c : a) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  out += '"';
}

} // namespace ctir
