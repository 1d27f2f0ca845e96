// Definitions of <ctir/runtime/pass/detail/syntax.hpp>.
#pragma once

#include <ctir/runtime/pass/detail/syntax.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace ctir::detail {

CTIR_INLINE void append_option_value(std::string& out, std::string_view value) {
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

CTIR_INLINE void append_options(std::string& out, const PassOptionValues& options) {
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
