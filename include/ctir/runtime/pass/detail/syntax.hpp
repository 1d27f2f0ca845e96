// The lexical pieces of pipeline strings shared by the printer and the parser.
#pragma once

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
inline void append_option_value(std::string& out, std::string_view value) {
  bool bare = !value.empty();
  for (char c : value) {
    bare = bare && is_pipeline_bare_char(c);
  }
  if (bare) {
    out += value;
    return;
  }
  out += '"';
  for (char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  out += '"';
}

/// Appends `{a=1,b=2}` (nothing for no options).
inline void append_options(std::string& out, const PassOptionValues& options) {
  if (options.empty()) {
    return;
  }
  out += '{';
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    out += options[i].name;
    out += '=';
    append_option_value(out, options[i].value);
  }
  out += '}';
}

} // namespace ctir::detail
