// ParseError: an error in a text file, reported as `file:line:column: error: ...` with the line.
#pragma once

#include <ctir/core/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace ctir {

namespace detail {

/// The line of `text` that holds byte `offset` (without its newline), and where it starts.
inline std::pair<std::string_view, std::size_t> source_line_at(std::string_view text,
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

/// The caret line under `line` pointing at byte `column_offset` of it: tabs are kept so
/// that the caret lines up, and a multi-byte UTF-8 character counts as one position.
inline std::string caret_line(std::string_view line, std::size_t column_offset) {
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

/// An error in source text: where it is (file, 1-based line and column) and what is wrong.
///
/// `what()` is the whole report, in the form compilers use, so that editors and people
/// can find the place:
///
///     model.ctir:2:18: error: expected ')' but found ';'
///       %0 = add(%x, %y;
///                      ^
///
/// Columns count bytes from 1; the caret line counts characters, so it stays under the
/// right character on lines with multi-byte UTF-8 text.
class ParseError : public Error {
public:
  ParseError(std::string file, std::uint32_t line, std::uint32_t column, std::string message,
             std::string source_line)
      : Error(format(file, line, column, message, source_line)), file_(std::move(file)),
        line_(line), column_(column), message_(std::move(message)),
        source_line_(std::move(source_line)) {}

  /// The file name given to the parser (`<input>` by default).
  const std::string& file() const noexcept { return file_; }
  /// The 1-based line.
  std::uint32_t line() const noexcept { return line_; }
  /// The 1-based column (in bytes).
  std::uint32_t column() const noexcept { return column_; }
  /// What is wrong, without the location (`expected ')' but found ';'`).
  const std::string& message() const noexcept { return message_; }
  /// The text of the line the error is on.
  const std::string& source_line() const noexcept { return source_line_; }

  /// The report: `file:line:column: error: message`, the line, and a caret under the column.
  static std::string format(const std::string& file, std::uint32_t line, std::uint32_t column,
                            const std::string& message, const std::string& source_line) {
    std::string out = file + ':' + std::to_string(line) + ':' + std::to_string(column) +
                      ": error: " + message + '\n' + source_line + '\n';
    out += detail::caret_line(source_line, column == 0 ? 0 : column - 1);
    return out;
  }

  /// The error at byte `offset` of `text`.
  static ParseError at(std::string_view file, std::string_view text, std::size_t offset,
                       std::string message) {
    offset = offset > text.size() ? text.size() : offset;
    std::uint32_t line = 1;
    for (std::size_t i = 0; i < offset; ++i) {
      line += text[i] == '\n' ? 1U : 0U;
    }
    const auto [source, begin] = detail::source_line_at(text, offset);
    const auto column = static_cast<std::uint32_t>(offset - begin + 1);
    return ParseError(std::string(file), line, column, std::move(message), std::string(source));
  }

private:
  std::string file_;
  std::uint32_t line_;
  std::uint32_t column_;
  std::string message_;
  std::string source_line_;
};

} // namespace ctir
