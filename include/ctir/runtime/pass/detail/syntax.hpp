// The lexical pieces of pipeline strings shared by the printer and the parser.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/options.hpp>

#include <string>
#include <string_view>

namespace ctir::detail {

/// A character of a pass name or option key: `[A-Za-z0-9_.]` (not first: digit, '.').
constexpr bool is_pipeline_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}
constexpr bool is_pipeline_name_start(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
/// A character of an unquoted option value: anything but blanks and `,{}()="\`.
constexpr bool is_pipeline_bare_char(char c) noexcept {
  switch (c) {
  case ' ':
  case '\t':
  case '\n':
  case '\r':
  case ',':
  case '{':
  case '}':
  case '(':
  case ')':
  case '=':
  case '"':
  case '\\':
    return false;
  default:
    return true;
  }
}

/// Appends an option value, quoted (with `\"` and `\\`) unless it is a non-empty bare word.
void append_option_value(std::string& out, std::string_view value);

/// Appends `{a=1,b=2}` (nothing for no options).
void append_options(std::string& out, const PassOptionValues& options);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/detail/syntax-inl.hpp>
#endif
