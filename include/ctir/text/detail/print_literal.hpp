// Lexical pieces of the text format: literals with dtype suffixes, strings, names.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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
double round_to_float16(double value);

/// The shortest decimal text that reads back (through float16 rounding) to `value`'s
/// float16 value. There is no std::to_chars for half precision, so this tries
/// increasing precisions; five significant digits always suffice for a float16.
std::string shortest_float16(double value);

/// Appends an integer literal in the text format.
///
/// The suffix scheme: int32 has none (`3`, `-3`); other integer dtypes append `i` or
/// `u` and the bit width (`3i64`, `3i8`, `3i16`, `3u8`); bool prints `true`/`false`.
/// A suffix always follows digits directly, so `3u8` can never read as `3` and a
/// name. Returns false (printing nothing) for a dtype that is not an integer or bool.
bool append_int_literal(std::string& out, std::int64_t value, DataType dtype);

/// Appends a float literal: the shortest text that reads back to the same value in
/// the literal's own precision, then `f` (float32), `f64` or `f16`: `2.5f`, `1f`,
/// `1e-07f`, `inff`, `-inff`, `nanf`, `2.5f64`. A float32 literal prints its value
/// rounded to float32 (the value it has when the program runs). Returns false for a
/// dtype that is not a float.
bool append_float_literal(std::string& out, double value, DataType dtype);

/// Appends a double-quoted string: `"` and `\` are escaped with a backslash, newline,
/// tab and carriage return as `\n` `\t` `\r`, other control bytes and bytes that are not
/// part of a UTF-8 character as `\xHH`, so a printed string never spans lines and always
/// reads back (the parser takes UTF-8 text only).
void append_string_literal(std::string& out, std::string_view text);

/// Appends an attribute value: `true`, `3`, `0.5f64`, `"text"`, `[3, 2]`.
void append_attr_value(std::string& out, const AttrValue& value);

/// Appends one element of a tensor constant as a literal of the tensor's dtype.
void append_tensor_element(std::string& out, const TensorData& data, std::size_t i);

/// Appends the payload of a tensor constant as nested brackets, row-major:
/// `[[1f, 2f], [3f, 4f]]`; a rank-0 tensor is its one literal (`1f`). A tensor with
/// no elements cannot be told apart (`[]`) by its brackets, so the caller adds its type.
/// Iterative: the nesting follows the shape, not the native stack.
void append_tensor_elements(std::string& out, const TensorData& data);

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
std::string sanitize_var_name(std::string_view name);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/print_literal-inl.hpp>
#endif
