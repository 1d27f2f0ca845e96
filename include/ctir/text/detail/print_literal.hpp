// Lexical pieces of the text format: literals with dtype suffixes, strings, names.
#pragma once

#include <ctir/hooks/value_traits.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

namespace ctir::detail {

/// Whether the text format has a name for `dtype`: bool int8 int16 int32 int64 uint8
/// float16 float32 float64 (what DataType::from_string reads back).
constexpr bool is_printable_dtype(DataType dtype) noexcept {
  switch (dtype.code) {
  case DataType::Code::bool_:
    return dtype.bits == 1;
  case DataType::Code::int_:
    return dtype.bits == 8 || dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64;
  case DataType::Code::uint:
    return dtype.bits == 8;
  case DataType::Code::float_:
    return dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64;
  }
  return false;
}

/// The float16 value nearest to `value` (round to nearest even), as a double.
inline double round_to_float16(double value) {
  return TensorData::scalar(DataType::float16(), value).get(0);
}

/// The shortest decimal text that reads back (through float16 rounding) to `value`'s
/// float16 value. There is no std::to_chars for half precision, so this tries
/// increasing precisions; five significant digits always suffice for a float16.
inline std::string shortest_float16(double value) {
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

/// Appends an integer literal in the text format.
///
/// The suffix scheme: int32 has none (`3`, `-3`); other integer dtypes append `i` or
/// `u` and the bit width (`3i64`, `3i8`, `3i16`, `3u8`); bool prints `true`/`false`.
/// A suffix always follows digits directly, so `3u8` can never read as `3` and a
/// name. Returns false (printing nothing) for a dtype that is not an integer or bool.
inline bool append_int_literal(std::string& out, std::int64_t value, DataType dtype) {
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

/// Appends a float literal: the shortest text that reads back to the same value in
/// the literal's own precision, then `f` (float32), `f64` or `f16`: `2.5f`, `1f`,
/// `1e-07f`, `inff`, `-inff`, `nanf`, `2.5f64`. A float32 literal prints its value
/// rounded to float32 (the value it has when the program runs). Returns false for a
/// dtype that is not a float.
inline bool append_float_literal(std::string& out, double value, DataType dtype) {
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

/// Appends a double-quoted string: `"` and `\` are escaped with a backslash, newline,
/// tab and carriage return as `\n` `\t` `\r`, other control bytes as `\xHH`, so a
/// printed string never spans lines.
inline void append_string_literal(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (char c : text) {
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
      if (byte < 0x20U || byte == 0x7FU) {
        out += "\\x";
        out += hex[byte >> 4U];
        out += hex[byte & 0xFU];
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

/// Appends an attribute value: `true`, `3`, `0.5f64`, `"text"`, `[3, 2]`.
inline void append_attr_value(std::string& out, const AttrValue& value) {
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

/// Appends one element of a tensor constant as a literal of the tensor's dtype.
inline void append_tensor_element(std::string& out, const TensorData& data, std::size_t i) {
  if (data.dtype().is_float()) {
    append_float_literal(out, data.get(i), data.dtype());
  } else {
    append_int_literal(out, data.get_int(i), data.dtype());
  }
}

/// Appends the payload of a tensor constant as nested brackets, row-major:
/// `[[1f, 2f], [3f, 4f]]`; a rank-0 tensor is its one literal (`1f`). A tensor with
/// no elements cannot be told apart (`[]`) by its brackets, so the caller adds its type.
/// Iterative: the nesting follows the shape, not the native stack.
inline void append_tensor_elements(std::string& out, const TensorData& data) {
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

constexpr bool is_name_start(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_name_char(char c) noexcept { return is_name_start(c) || is_digit(c); }

/// `[A-Za-z_][A-Za-z0-9_]*`.
constexpr bool is_identifier(std::string_view name) noexcept {
  if (name.empty() || !is_name_start(name.front())) {
    return false;
  }
  for (char c : name) {
    if (!is_name_char(c)) {
      return false;
    }
  }
  return true;
}

/// An identifier or a run of digits: the names the lexer reads after `@` and `%`.
constexpr bool is_global_name(std::string_view name) noexcept {
  if (is_identifier(name)) {
    return true;
  }
  if (name.empty()) {
    return false;
  }
  for (char c : name) {
    if (!is_digit(c)) {
      return false;
    }
  }
  return true;
}

/// An identifier whose later characters may also be dots (`nn.relu`, `tir.noalias`):
/// operator names and attribute keys.
constexpr bool is_dotted_name(std::string_view name) noexcept {
  if (name.empty() || !is_name_start(name.front()) || name.back() == '.') {
    return false;
  }
  for (char c : name) {
    if (!is_name_char(c) && c != '.') {
      return false;
    }
  }
  return true;
}

/// The words that start an expression or a definition; an operator so named would
/// read as that construct.
constexpr bool is_reserved_word(std::string_view name) noexcept {
  constexpr std::string_view words[] = {"def",        "prim",     "fn",    "let",  "if",
                                        "else",       "call_dps", "const", "true", "false",
                                        "attributes", "inff",     "nanf"};
  for (std::string_view word : words) {
    if (word == name) {
      return true;
    }
  }
  return false;
}

/// A variable's name as the printer writes it: characters outside `[A-Za-z0-9_]`
/// become `_`, and a name that would start with a digit (and so read as a temporary
/// `%0`) gets a `v` in front; an empty name becomes `v`.
inline std::string sanitize_var_name(std::string_view name) {
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
