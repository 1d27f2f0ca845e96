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

CTIR_INLINE std::string caret_line(std::string_view line, std::size_t column_offset) {
  std::string caret;
  for (std::size_t i = 0; i < column_offset && i < line.size(); ++i) {
    const auto byte = static_cast<unsigned char>(line[i]);
    if ((byte & 0xC0U) == 0x80U) {
      continue; // a UTF-8 continuation byte: same character
    }
    caret += line[i] == '\t' ? '\t' : ' ';
  }
  for (std::size_t i = line.size(); i < column_offset; ++i) {
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
                    ": error: " + message + '\n' + source_line + '\n';
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
