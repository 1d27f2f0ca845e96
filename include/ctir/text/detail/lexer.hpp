// The lexer of the text format: source text to tokens, with their line and column.
#pragma once

#include <ctir/text/diagnostic.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
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

/// One token: its kind and where its text is.
struct Token {
  Tok kind = Tok::end;
  std::uint32_t line = 1;   ///< 1-based
  std::uint32_t column = 1; ///< 1-based, in bytes
  std::uint32_t length = 0; ///< in bytes; a token never spans lines
  std::size_t offset = 0;   ///< byte offset in the text

  std::size_t end() const noexcept { return offset + length; }
};

constexpr bool lex_name_start(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
constexpr bool lex_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool lex_name_char(char c) noexcept { return lex_name_start(c) || lex_digit(c); }

/// Splits source text into tokens; throws ParseError at the first character that cannot
/// start a token. The last token is always Tok::end.
///
/// Two context rules make the format read without backtracking:
/// - `%` followed by a name character starts a variable (`%i`, `%0`); otherwise it is
///   the modulo operator, which is why the printer writes `%i % 16`.
/// - a number right after a `.` is a run of digits only: `%t.0.1` is a projection
///   chain, not `%t.` followed by the float `0.1`.
class Lexer {
public:
  Lexer(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  std::vector<Token> run() {
    if (text_.size() >= std::numeric_limits<std::uint32_t>::max()) {
      throw ParseError(std::string(file_), 1, 1, "the input is too large (4 GiB or more)", "");
    }
    std::vector<Token> tokens;
    tokens.reserve(text_.size() / 4 + 1);
    while (true) {
      skip_blank();
      Token token;
      token.line = line_;
      token.column = static_cast<std::uint32_t>(pos_ - line_start_ + 1);
      token.offset = pos_;
      if (pos_ >= text_.size()) {
        // End of input: just past the last line's text, where a missing `}` would go.
        std::size_t at = text_.size();
        if (at > 0 && text_[at - 1] == '\n') {
          --at;
          if (at > 0 && text_[at - 1] == '\r') {
            --at;
          }
          std::size_t begin = at;
          while (begin > 0 && text_[begin - 1] != '\n') {
            --begin;
          }
          token.line = line_ > 1 ? line_ - 1 : 1;
          token.column = static_cast<std::uint32_t>(at - begin + 1);
        }
        token.offset = at;
        token.kind = Tok::end;
        tokens.push_back(token);
        return tokens;
      }
      token.kind = lex_one();
      token.length = static_cast<std::uint32_t>(pos_ - token.offset);
      tokens.push_back(token);
    }
  }

private:
  [[noreturn]] void fail(std::size_t offset, std::string message) const {
    throw ParseError::at(file_, text_, offset, std::move(message));
  }

  char at(std::size_t i) const noexcept { return i < text_.size() ? text_[i] : '\0'; }

  void skip_blank() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++pos_;
        ++line_;
        line_start_ = pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') {
          ++pos_;
        }
      } else {
        return;
      }
    }
  }

  /// Reads a name after `%` or `@`: an identifier or a run of digits.
  void name_after_sigil(char sigil) {
    const std::size_t start = pos_;
    while (lex_name_char(at(pos_))) {
      ++pos_;
    }
    const std::string_view name = text_.substr(start, pos_ - start);
    if (lex_digit(name.front())) {
      for (char c : name) {
        if (!lex_digit(c)) {
          fail(start - 1, std::string("invalid name '") + sigil + std::string(name) +
                              "': a name is [A-Za-z_][A-Za-z0-9_]* or digits only");
        }
      }
    }
  }

  Tok lex_one() {
    const std::size_t start = pos_;
    const char c = text_[pos_];
    const char next = at(pos_ + 1);
    if (c == '%') {
      ++pos_;
      if (lex_name_char(next)) {
        name_after_sigil('%');
        return Tok::local;
      }
      return Tok::percent;
    }
    if (c == '@') {
      ++pos_;
      if (!lex_name_char(next)) {
        fail(start, "expected a global name after '@'");
      }
      name_after_sigil('@');
      return Tok::global;
    }
    if (lex_name_start(c)) {
      // A word; dots join names into one (`nn.relu`, `tir.noalias`).
      while (true) {
        while (lex_name_char(at(pos_))) {
          ++pos_;
        }
        if (at(pos_) == '.' && lex_name_start(at(pos_ + 1))) {
          ++pos_;
          continue;
        }
        return Tok::word;
      }
    }
    if (lex_digit(c)) {
      number(start > 0 && text_[start - 1] == '.');
      return Tok::number;
    }
    if (c == '"') {
      string_literal();
      return Tok::string;
    }
    pos_ += 1;
    switch (c) {
    case '(':
      return Tok::lparen;
    case ')':
      return Tok::rparen;
    case '[':
      return Tok::lbracket;
    case ']':
      return Tok::rbracket;
    case '{':
      return Tok::lbrace;
    case '}':
      return Tok::rbrace;
    case ',':
      return Tok::comma;
    case ';':
      return Tok::semicolon;
    case ':':
      return Tok::colon;
    case '.':
      return Tok::dot;
    case '+':
      return Tok::plus;
    case '*':
      return Tok::star;
    case '/':
      return Tok::slash;
    case '-':
      return next == '>' ? (++pos_, Tok::arrow) : Tok::minus;
    case '=':
      return next == '=' ? (++pos_, Tok::eq) : Tok::assign;
    case '!':
      return next == '=' ? (++pos_, Tok::ne) : Tok::bang;
    case '<':
      return next == '=' ? (++pos_, Tok::le) : Tok::lt;
    case '>':
      return next == '=' ? (++pos_, Tok::ge) : Tok::gt;
    case '&':
      if (next == '&') {
        ++pos_;
        return Tok::and_and;
      }
      fail(start, "unexpected character '&' (the logical and is '&&')");
    case '|':
      if (next == '|') {
        ++pos_;
        return Tok::or_or;
      }
      fail(start, "unexpected character '|' (the logical or is '||')");
    default:
      break;
    }
    fail(start, "unexpected character " + describe_char(c));
  }

  static std::string describe_char(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20U || byte >= 0x7FU) {
      static constexpr char hex[] = "0123456789abcdef";
      return std::string("'\\x") + hex[byte >> 4U] + hex[byte & 0xFU] + "'";
    }
    return std::string("'") + c + "'";
  }

  /// Digits, then (unless right after a `.`) a fraction and an exponent, then a suffix of
  /// name characters (`f`, `i64`, ...), which the parser checks.
  void number(bool index_only) {
    while (lex_digit(at(pos_))) {
      ++pos_;
    }
    if (index_only) {
      return;
    }
    if (at(pos_) == '.' && lex_digit(at(pos_ + 1))) {
      ++pos_;
      while (lex_digit(at(pos_))) {
        ++pos_;
      }
    }
    if (at(pos_) == 'e' || at(pos_) == 'E') {
      const std::size_t sign = at(pos_ + 1) == '+' || at(pos_ + 1) == '-' ? 1 : 0;
      if (lex_digit(at(pos_ + 1 + sign))) {
        pos_ += 1 + sign;
        while (lex_digit(at(pos_))) {
          ++pos_;
        }
      }
    }
    while (lex_name_char(at(pos_))) {
      ++pos_;
    }
  }

  void string_literal() {
    const std::size_t start = pos_;
    ++pos_;
    while (true) {
      const char c = at(pos_);
      if (pos_ >= text_.size() || c == '\n') {
        fail(start, "unterminated string");
      }
      if (c == '"') {
        ++pos_;
        return;
      }
      if (c == '\\') {
        if (pos_ + 1 >= text_.size() || text_[pos_ + 1] == '\n') {
          fail(start, "unterminated string");
        }
        pos_ += 2;
        continue;
      }
      ++pos_;
    }
  }

  std::string_view text_;
  std::string_view file_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
};

/// The tokens of `text`, ending with Tok::end.
inline std::vector<Token> tokenize(std::string_view text, std::string_view file) {
  return Lexer(text, file).run();
}

} // namespace ctir::detail
