// The lexer of the text format: source text to tokens, with their line and column.
#pragma once

#include <ctir/core/linkage.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

/// The kinds of tokens.
enum class Tok : std::uint8_t {
  end,       ///< end of input
  local,     ///< `%name` or `%0`
  global,    ///< `@name`
  word,      ///< a bare name, possibly dotted: keywords, dtypes, operators, attribute keys
  number,    ///< `3`, `2.5f`, `1e-07f`, `3i64` (the suffix is part of the token)
  string,    ///< `"..."` (escapes undecoded)
  lparen,    ///< (
  rparen,    ///< )
  lbracket,  ///< [
  rbracket,  ///< ]
  lbrace,    ///< {
  rbrace,    ///< }
  comma,     ///< ,
  semicolon, ///< ;
  colon,     ///< :
  dot,       ///< .
  assign,    ///< =
  eq,        ///< ==
  ne,        ///< !=
  lt,        ///< <
  le,        ///< <=
  gt,        ///< >
  ge,        ///< >=
  plus,      ///< +
  minus,     ///< -
  star,      ///< *
  slash,     ///< /
  percent,   ///< % (followed by something that is not a name character)
  bang,      ///< !
  and_and,   ///< &&
  or_or,     ///< ||
  arrow,     ///< ->
};

/// The spelling of a punctuation token, for messages (`')'`).
constexpr std::string_view spelling(Tok kind) noexcept {
  switch (kind) {
  case Tok::end:
    return "end of input";
  case Tok::local:
    return "a variable";
  case Tok::global:
    return "a global";
  case Tok::word:
    return "a name";
  case Tok::number:
    return "a number";
  case Tok::string:
    return "a string";
  case Tok::lparen:
    return "(";
  case Tok::rparen:
    return ")";
  case Tok::lbracket:
    return "[";
  case Tok::rbracket:
    return "]";
  case Tok::lbrace:
    return "{";
  case Tok::rbrace:
    return "}";
  case Tok::comma:
    return ",";
  case Tok::semicolon:
    return ";";
  case Tok::colon:
    return ":";
  case Tok::dot:
    return ".";
  case Tok::assign:
    return "=";
  case Tok::eq:
    return "==";
  case Tok::ne:
    return "!=";
  case Tok::lt:
    return "<";
  case Tok::le:
    return "<=";
  case Tok::gt:
    return ">";
  case Tok::ge:
    return ">=";
  case Tok::plus:
    return "+";
  case Tok::minus:
    return "-";
  case Tok::star:
    return "*";
  case Tok::slash:
    return "/";
  case Tok::percent:
    return "%";
  case Tok::bang:
    return "!";
  case Tok::and_and:
    return "&&";
  case Tok::or_or:
    return "||";
  case Tok::arrow:
    return "->";
  }
  return "?";
}

/// One token: its kind and where its text is. Its column is not stored but computed from the
/// line starts of its TokenList: a large module has several tokens per line, and the tokens
/// are most of the parser's memory while it runs.
struct Token {
  Tok kind = Tok::end;
  std::uint32_t line = 1;   ///< 1-based
  std::uint32_t offset = 0; ///< byte offset in the text (the lexer takes texts under 4 GiB)
  std::uint32_t length = 0; ///< in bytes; a token never spans lines

  std::size_t end() const noexcept { return std::size_t{offset} + length; }
};
static_assert(sizeof(Token) == 16);

/// The tokens of a text, the last one Tok::end, and where its lines start.
struct TokenList {
  std::vector<Token> tokens;
  /// The byte offset of each line's first byte: line n starts at line_starts[n - 1].
  std::vector<std::uint32_t> line_starts;
};

constexpr bool lex_name_start(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
constexpr bool lex_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool lex_name_char(char c) noexcept { return lex_name_start(c) || lex_digit(c); }

/// `text` without a leading UTF-8 byte-order mark (EF BB BF), which some editors write and
/// which is no part of the text.
constexpr std::string_view skip_byte_order_mark(std::string_view text) noexcept {
  return text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
}

/// Splits source text into tokens; throws ParseError at the first character that cannot
/// start a token. The last token is always Tok::end.
///
/// The text must be UTF-8 without NUL bytes: the first NUL or byte that is not UTF-8, even
/// in a comment or string, is an error at its line and column. Names and operators are
/// ASCII; other characters may appear in comments and strings.
///
/// Two context rules make the format read without backtracking:
/// - `%` followed by a name character starts a variable (`%i`, `%0`); otherwise it is
///   the modulo operator, which is why the printer writes `%i % 16`.
/// - a number right after a `.` is a run of digits only: `%t.0.1` is a projection
///   chain, not `%t.` followed by the float `0.1`.
class Lexer {
public:
  Lexer(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  TokenList run();

private:
  [[noreturn]] void fail(std::size_t offset, std::string message) const;

  char at(std::size_t i) const noexcept { return i < text_.size() ? text_[i] : '\0'; }

  void skip_blank();

  /// Reads a name after `%` or `@`: an identifier or a run of digits.
  void name_after_sigil(char sigil);

  Tok lex_one();

  static std::string describe_char(char c);

  /// Throws ParseError at the first NUL byte or byte that is not UTF-8.
  void check_bytes() const;

  /// The error for a character that cannot start a token at byte `start`.
  [[noreturn]] void unexpected_character(std::size_t start) const;

  /// Digits, then (unless right after a `.`) a fraction and an exponent, then a suffix of
  /// name characters (`f`, `i64`, ...), which the parser checks.
  void number(bool index_only);

  void string_literal();

  std::string_view text_;
  std::string_view file_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::vector<std::uint32_t> line_starts_;
};

/// The tokens of `text`, ending with Tok::end, and its line starts.
TokenList tokenize(std::string_view text, std::string_view file);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/lexer-inl.hpp>
#endif
