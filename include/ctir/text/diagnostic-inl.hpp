// Definitions of <ctir/text/diagnostic.hpp>.
#pragma once

#include <ctir/text/diagnostic.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace ctir {

namespace detail {

CTIR_INLINE std::pair<std::string_view, std::size_t> source_line_at(std::string_view text,
                                                                    std::size_t offset) {
  offset = offset > text.size() ? text.size() : offset;
  std::size_t begin = offset;
  while (begin > 0 && text[begin - 1] != '\n') {
    --begin;
  }
  std::size_t end = offset;
  while (end < text.size() && text[end] != '\n') {
    ++end;
  }
  if (end > begin && text[end - 1] == '\r') {
    --end;
  }
  return {text.substr(begin, end - begin), begin};
}

CTIR_INLINE std::size_t utf8_char_length(std::string_view bytes) noexcept {
  if (bytes.empty()) {
    return 0;
  }
  const auto lead = static_cast<unsigned char>(bytes[0]);
  if (lead < 0x80U) {
    return 1;
  }
  std::size_t length = 0;
  std::uint32_t code = 0;
  if ((lead & 0xE0U) == 0xC0U) {
    length = 2;
    code = lead & 0x1FU;
  } else if ((lead & 0xF0U) == 0xE0U) {
    length = 3;
    code = lead & 0x0FU;
  } else if ((lead & 0xF8U) == 0xF0U) {
    length = 4;
    code = lead & 0x07U;
  } else {
    return 0; // a continuation byte, or a byte no UTF-8 text holds
  }
  if (bytes.size() < length) {
    return 0;
  }
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(bytes[i]);
    if ((next & 0xC0U) != 0x80U) {
      return 0;
    }
    code = (code << 6U) | (next & 0x3FU);
  }
  constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFFU || (code >= 0xD800U && code <= 0xDFFFU)) {
    return 0;
  }
  return length;
}

/// One character of a source line as a report shows it: its length in bytes and its text
/// (nothing for an ordinary character, which is shown as it is).
struct DisplayedChar {
  std::size_t length = 1;
  std::string escaped;
};

CTIR_INLINE DisplayedChar displayed_char(std::string_view rest) {
  static constexpr char hex[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(rest[0]);
  if (byte == '\t') {
    return {};
  }
  if (byte < 0x20U || byte == 0x7FU) {
    return {1, std::string("<U+00") + hex[byte >> 4U] + hex[byte & 0xFU] + '>'};
  }
  if (byte < 0x80U) {
    return {};
  }
  if (const std::size_t length = utf8_char_length(rest); length != 0) {
    return {length, {}};
  }
  return {1, std::string("<") + hex[byte >> 4U] + hex[byte & 0xFU] + '>'};
}

CTIR_INLINE std::string displayed_line(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size();) {
    const DisplayedChar c = displayed_char(line.substr(i));
    out += c.escaped.empty() ? line.substr(i, c.length) : std::string_view(c.escaped);
    i += c.length;
  }
  return out;
}

CTIR_INLINE std::string caret_line(std::string_view line, std::size_t column_offset) {
  std::string caret;
  std::size_t i = 0;
  while (i < column_offset && i < line.size()) {
    const DisplayedChar c = displayed_char(line.substr(i));
    if (line[i] == '\t') {
      caret += '\t';
    } else {
      caret.append(c.escaped.empty() ? 1 : c.escaped.size(), ' ');
    }
    i += c.length;
  }
  for (; i < column_offset; ++i) {
    caret += ' ';
  }
  caret += '^';
  return caret;
}

} // namespace detail

CTIR_INLINE ParseError::ParseError(std::string file, std::uint32_t line, std::uint32_t column,
                                   std::string message, std::string source_line)
    : Error(format(file, line, column, message, source_line)), file_(std::move(file)), line_(line),
      column_(column), message_(std::move(message)), source_line_(std::move(source_line)) {}

CTIR_INLINE std::string ParseError::format(const std::string& file, std::uint32_t line,
                                           std::uint32_t column, const std::string& message,
                                           const std::string& source_line) {
  std::string out = file + ':' + std::to_string(line) + ':' + std::to_string(column) +
                    ": error: " + message + '\n' + detail::displayed_line(source_line) + '\n';
  out += detail::caret_line(source_line, column == 0 ? 0 : column - 1);
  return out;
}

CTIR_INLINE ParseError ParseError::at(std::string_view file, std::string_view text,
                                      std::size_t offset, std::string message) {
  offset = offset > text.size() ? text.size() : offset;
  std::uint32_t line = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    line += text[i] == '\n' ? 1U : 0U;
  }
  const auto [source, begin] = detail::source_line_at(text, offset);
  const auto column = static_cast<std::uint32_t>(offset - begin + 1);
  return ParseError(std::string(file), line, column, std::move(message), std::string(source));
}

} // namespace ctir
