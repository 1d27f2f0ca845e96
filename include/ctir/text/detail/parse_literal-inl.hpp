// Definitions of <ctir/text/detail/parse_literal.hpp>.
#pragma once

#include <ctir/text/detail/parse_literal.hpp>

#include <ctir/text/detail/lexer.hpp>
#include <ctir/text/detail/print_literal.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace ctir::detail {

CTIR_INLINE std::optional<DataType> literal_suffix_dtype(std::string_view suffix,
                                                         DataType default_int) {
  if (suffix.empty()) {
    return default_int;
  }
  constexpr std::pair<std::string_view, DataType> table[] = {
      {"i8", DataType::int8()},     {"i16", DataType::int16()},   {"i32", DataType::int32()},
      {"i64", DataType::int64()},   {"u8", DataType::uint8()},    {"f", DataType::float32()},
      {"f16", DataType::float16()}, {"f64", DataType::float64()},
  };
  for (const auto& [name, dtype] : table) {
    if (name == suffix) {
      return dtype;
    }
  }
  return std::nullopt;
}

CTIR_INLINE bool float_word(std::string_view word, double& value, DataType& dtype) {
  std::string_view suffix;
  if (word.starts_with("inf")) {
    value = std::numeric_limits<double>::infinity();
    suffix = word.substr(3);
  } else if (word.starts_with("nan")) {
    value = std::numeric_limits<double>::quiet_NaN();
    suffix = word.substr(3);
  } else {
    return false;
  }
  if (suffix.empty()) {
    return false; // `inf` alone is a name: the suffix is what makes it a literal
  }
  const std::optional<DataType> parsed = literal_suffix_dtype(suffix, DataType::int32());
  if (!parsed || !parsed->is_float()) {
    return false;
  }
  dtype = *parsed;
  return true;
}

CTIR_INLINE std::optional<std::string> decode_number(std::string_view text, bool negative,
                                                     DataType default_int, NumberValue& out) {
  std::size_t end = 0;
  while (end < text.size() && lex_digit(text[end])) {
    ++end;
  }
  const std::size_t digits_end = end;
  bool float_syntax = false;
  if (end < text.size() && text[end] == '.') {
    float_syntax = true;
    ++end;
    while (end < text.size() && lex_digit(text[end])) {
      ++end;
    }
  }
  if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
    std::size_t k = end + 1;
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) {
      ++k;
    }
    if (k < text.size() && lex_digit(text[k])) {
      float_syntax = true;
      end = k;
      while (end < text.size() && lex_digit(text[end])) {
        ++end;
      }
    }
  }
  const std::string_view number = text.substr(0, end);
  const std::string_view suffix = text.substr(end);
  const std::optional<DataType> dtype = literal_suffix_dtype(suffix, default_int);
  const std::string shown = (negative ? "-" : "") + std::string(text);
  if (!dtype) {
    return "unknown literal suffix '" + std::string(suffix) + "' in '" + shown +
           "' (integers: none for int32, i8, i16, i64, u8; floats: f, f16, f64)";
  }
  out.dtype = *dtype;
  if (dtype->is_float()) {
    std::string buffer = negative ? "-" : "";
    buffer += number;
    const char* first = buffer.data();
    const char* last = buffer.data() + buffer.size();
    if (dtype->bits == 32) {
      float value = 0;
      const auto [ptr, ec] = std::from_chars(first, last, value);
      if (ec != std::errc() || ptr != last) {
        return "the literal '" + shown + "' is out of range for float32";
      }
      out.float_value = static_cast<double>(value);
      return std::nullopt;
    }
    double value = 0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last) {
      return "the literal '" + shown + "' is out of range for " + dtype->str();
    }
    if (dtype->bits == 16) {
      const double half = round_to_float16(value);
      if (std::isinf(half)) {
        return "the literal '" + shown + "' is out of range for float16";
      }
      value = half;
    }
    out.float_value = value;
    return std::nullopt;
  }
  if (float_syntax) {
    return "the literal '" + shown + "' has a fraction or an exponent, so it needs a float " +
           "suffix (f, f16 or f64)" + (suffix.empty() ? "" : ", not '" + std::string(suffix) + "'");
  }
  std::uint64_t magnitude = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + digits_end, magnitude);
  const std::string range_error = "the literal '" + shown + "' is out of range for " +
                                  (dtype->is_bool() ? std::string("bool") : dtype->str());
  if (ec != std::errc() || ptr != number.data() + digits_end) {
    return range_error;
  }
  if (dtype->is_uint()) {
    const std::uint64_t max = (std::uint64_t{1} << dtype->bits) - 1;
    if (magnitude > max || (negative && magnitude != 0)) {
      return range_error;
    }
    out.int_value = static_cast<std::int64_t>(magnitude);
    return std::nullopt;
  }
  const std::uint64_t max_positive = (std::uint64_t{1} << (dtype->bits - 1)) - 1;
  if (magnitude > max_positive + (negative ? 1U : 0U)) {
    const std::uint64_t max_int64 = (std::uint64_t{1} << 63U) - 1;
    if (suffix.empty() && *dtype == DataType::int32() &&
        magnitude <= max_int64 + (negative ? 1U : 0U)) {
      // An unsuffixed integer is an int32: say how to write the int64 it was meant to be.
      return range_error + " (an int64 literal takes the suffix i64: '" + shown + "i64')";
    }
    return range_error;
  }
  if (negative) {
    // -(2^63) has no positive counterpart: negate in unsigned arithmetic.
    out.int_value = static_cast<std::int64_t>(~magnitude + 1U);
  } else {
    out.int_value = static_cast<std::int64_t>(magnitude);
  }
  return std::nullopt;
}

CTIR_INLINE std::optional<std::pair<std::string, std::size_t>> decode_string(std::string_view token,
                                                                             std::string& out) {
  out.clear();
  const auto hex_value = [](char c) -> int {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  };
  for (std::size_t i = 1; i + 1 < token.size(); ++i) {
    const char c = token[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    const char e = token[i + 1];
    switch (e) {
    case '"':
      out += '"';
      break;
    case '\\':
      out += '\\';
      break;
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case 'x': {
      const int high = i + 2 < token.size() - 1 ? hex_value(token[i + 2]) : -1;
      const int low = i + 3 < token.size() - 1 ? hex_value(token[i + 3]) : -1;
      if (high < 0 || low < 0) {
        return std::pair{std::string("'\\x' needs two hexadecimal digits"), i};
      }
      out += static_cast<char>(high * 16 + low);
      i += 2;
      break;
    }
    default:
      return std::pair{"unknown escape '\\" + std::string(1, e) +
                           "' (escapes are \\\" \\\\ \\n \\t \\r and \\xHH)",
                       i};
    }
    ++i;
  }
  return std::nullopt;
}

} // namespace ctir::detail
