// ParseError: an error in a text file, reported as `file:line:column: error: ...` with the line.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace ctir {

namespace detail {

/// The line of `text` that holds byte `offset` (without its newline), and where it starts.
std::pair<std::string_view, std::size_t> source_line_at(std::string_view text, std::size_t offset);

/// The length of the UTF-8 encoded character at the start of `bytes` (1 to 4), or 0 when
/// they do not start one: a stray continuation byte, a truncated sequence, an overlong
/// form, a surrogate or a code point above U+10FFFF.
std::size_t utf8_char_length(std::string_view bytes) noexcept;

/// `line` as a report shows it: control characters other than tab are written `<U+0000>`
/// and bytes that are not UTF-8 `<FF>`, so that the report is printable text (a NUL byte
/// would cut it short).
std::string displayed_line(std::string_view line);

/// The caret line under `displayed_line(line)` pointing at byte `column_offset` of `line`:
/// tabs are kept so that the caret lines up, a multi-byte UTF-8 character counts as one
/// position, and a byte written as `<...>` as many as that takes.
std::string caret_line(std::string_view line, std::size_t column_offset);

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
             std::string source_line);

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
                            const std::string& message, const std::string& source_line);

  /// The error at byte `offset` of `text`.
  static ParseError at(std::string_view file, std::string_view text, std::size_t offset,
                       std::string message);

private:
  std::string file_;
  std::uint32_t line_;
  std::uint32_t column_;
  std::string message_;
  std::string source_line_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/diagnostic-inl.hpp>
#endif
