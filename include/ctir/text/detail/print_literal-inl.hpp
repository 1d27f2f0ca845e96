// Definitions of <ctir/text/detail/print_literal.hpp>.
#pragma once

#include <ctir/text/detail/print_literal.hpp>

#include <ctir/hooks/value_traits.hpp>
#include <ctir/text/diagnostic.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>
#include <variant>
#include <vector>

namespace ctir::detail {

CTIR_INLINE double round_to_float16(double value) {
  return TensorData::scalar(DataType::float16(), value).get(0);
}

CTIR_INLINE std::string shortest_float16(double value) {
  const double half = round_to_float16(value);
  if (std::isnan(half) || std::isinf(half)) {
    return shortest_float(half);
  }
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, half, std::chars_format::general, precision);
    double back = 0;
    std::from_chars(buffer, result.ptr, back);
    const double rounded = round_to_float16(back);
    if (rounded == half && std::signbit(rounded) == std::signbit(half)) {
      return std::string(buffer, result.ptr);
    }
  }
  return shortest_float(half);
}

CTIR_INLINE bool append_int_literal(std::string& out, std::int64_t value, DataType dtype) {
  if (!is_printable_dtype(dtype)) {
    return false;
  }
  if (dtype.is_bool()) {
    out += value != 0 ? "true" : "false";
    return true;
  }
  if (!dtype.is_integer()) {
    return false;
  }
  if (dtype.is_uint()) {
    out += std::to_string(static_cast<std::uint64_t>(value));
  } else {
    out += std::to_string(value);
  }
  if (dtype != DataType::int32()) {
    out += dtype.is_int() ? 'i' : 'u';
    out += std::to_string(dtype.bits);
  }
  return true;
}

CTIR_INLINE bool append_float_literal(std::string& out, double value, DataType dtype) {
  if (!dtype.is_float() || !is_printable_dtype(dtype)) {
    return false;
  }
  if (dtype.bits == 32) {
    out += shortest_float(static_cast<float>(value));
    out += 'f';
  } else if (dtype.bits == 64) {
    out += shortest_float(value);
    out += "f64";
  } else {
    out += shortest_float16(value);
    out += "f16";
  }
  return true;
}

CTIR_INLINE void append_string_literal(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (byte >= 0x80U) {
        // A whole UTF-8 character is written as it is; any other byte (a string built with
        // \xHH escapes or in C++) is escaped, since the parser reads only UTF-8 text.
        if (const std::size_t length = utf8_char_length(text.substr(i)); length != 0) {
          out.append(text.substr(i, length));
          i += length;
          continue;
        }
      }
      if (byte < 0x20U || byte >= 0x7FU) {
        out += "\\x";
        out += hex[byte >> 4U];
        out += hex[byte & 0xFU];
      } else {
        out += c;
      }
    }
    ++i;
  }
  out += '"';
}

CTIR_INLINE void append_attr_value(std::string& out, const AttrValue& value) {
  if (const auto* b = std::get_if<bool>(&value)) {
    out += *b ? "true" : "false";
  } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
    out += std::to_string(*i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    out += shortest_float(*d);
    out += "f64";
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    append_string_literal(out, *s);
  } else if (const auto* list = std::get_if<std::vector<std::int64_t>>(&value)) {
    out += '[';
    for (std::size_t k = 0; k < list->size(); ++k) {
      if (k != 0) {
        out += ", ";
      }
      out += std::to_string((*list)[k]);
    }
    out += ']';
  }
}

CTIR_INLINE void append_tensor_element(std::string& out, const TensorData& data, std::size_t i) {
  if (data.dtype().is_float()) {
    append_float_literal(out, data.get(i), data.dtype());
  } else {
    append_int_literal(out, data.get_int(i), data.dtype());
  }
}

CTIR_INLINE void append_tensor_elements(std::string& out, const TensorData& data) {
  const std::vector<std::int64_t>& shape = data.shape();
  const std::size_t rank = shape.size();
  if (rank == 0) {
    append_tensor_element(out, data, 0);
    return;
  }
  if (data.size() == 0) {
    out += '[';
    out += ']';
    return;
  }
  // counters[d] is the position within dimension d of the element printed next.
  std::vector<std::int64_t> counters(rank, 0);
  out.append(rank, '[');
  const std::size_t count = data.size();
  for (std::size_t flat = 0; flat < count; ++flat) {
    append_tensor_element(out, data, flat);
    // Advance the counters like an odometer, closing the rows that end here.
    std::size_t closed = 0;
    std::size_t d = rank;
    while (d > 0) {
      --d;
      if (++counters[d] < shape[d]) {
        break;
      }
      counters[d] = 0;
      ++closed;
    }
    out.append(closed, ']');
    if (flat + 1 < count) {
      out += ", ";
      out.append(closed, '[');
    }
  }
}

CTIR_INLINE std::string sanitize_var_name(std::string_view name) {
  std::string result;
  result.reserve(name.size() + 1);
  if (name.empty() || is_digit(name.front())) {
    result += 'v';
  }
  for (char c : name) {
    result += is_name_char(c) ? c : '_';
  }
  return result;
}

} // namespace ctir::detail
