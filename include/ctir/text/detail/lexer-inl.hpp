// Definitions of <ctir/text/detail/lexer.hpp>.
#pragma once

#include <ctir/text/detail/lexer.hpp>

#include <ctir/text/diagnostic.hpp>

#include <limits>
#include <utility>

namespace ctir::detail {

CTIR_INLINE TokenList Lexer::run() {
  if (text_.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw ParseError(std::string(file_), 1, 1, "the input is too large (4 GiB or more)", "");
  }
  check_bytes();
  TokenList list;
  // About one token per three bytes in printed modules; a denser text grows the vector.
  list.tokens.reserve(text_.size() / 3 + 16);
  line_starts_.push_back(0);
  while (true) {
    skip_blank();
    Token token;
    token.line = line_;
    token.offset = static_cast<std::uint32_t>(pos_);
    if (pos_ >= text_.size()) {
      // End of input: just past the last line's text, where a missing `}` would go.
      std::size_t at = text_.size();
      if (at > 0 && text_[at - 1] == '\n') {
        --at;
        if (at > 0 && text_[at - 1] == '\r') {
          --at;
        }
        token.line = line_ > 1 ? line_ - 1 : 1;
      }
      token.offset = static_cast<std::uint32_t>(at);
      token.kind = Tok::end;
      list.tokens.push_back(token);
      list.line_starts = std::move(line_starts_);
      return list;
    }
    token.kind = lex_one();
    token.length = static_cast<std::uint32_t>(pos_ - token.offset);
    list.tokens.push_back(token);
  }
}

CTIR_INLINE void Lexer::fail(std::size_t offset, std::string message) const {
  throw ParseError::at(file_, text_, offset, std::move(message));
}

CTIR_INLINE void Lexer::skip_blank() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_starts_.push_back(static_cast<std::uint32_t>(pos_));
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

CTIR_INLINE void Lexer::name_after_sigil(char sigil) {
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

CTIR_INLINE Tok Lexer::lex_one() {
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
  unexpected_character(start);
}

CTIR_INLINE void Lexer::unexpected_character(std::size_t start) const {
  const auto byte = static_cast<unsigned char>(text_[start]);
  if (byte < 0x80U) {
    fail(start, "unexpected character " + describe_char(text_[start]));
  }
  // check_bytes let only whole UTF-8 characters through.
  const std::string_view character = text_.substr(start, utf8_char_length(text_.substr(start)));
  std::uint32_t code = byte & (0xFFU >> (character.size() + 1));
  for (std::size_t i = 1; i < character.size(); ++i) {
    code = (code << 6U) | (static_cast<unsigned char>(character[i]) & 0x3FU);
  }
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string code_point = "U+";
  for (int shift = code > 0xFFFFU ? 20 : 12; shift >= 0; shift -= 4) {
    code_point += hex[(code >> static_cast<unsigned>(shift)) & 0xFU];
  }
  if (code == 0xFEFFU) {
    fail(start, "unexpected byte-order mark (U+FEFF): it may only start the file");
  }
  fail(start, "unexpected character '" + std::string(character) + "' (" + code_point +
                  "): names and operators are ASCII; other characters may appear only in "
                  "comments and strings");
}

CTIR_INLINE void Lexer::check_bytes() const {
  for (std::size_t i = 0; i < text_.size();) {
    const auto byte = static_cast<unsigned char>(text_[i]);
    if (byte == 0) {
      fail(i, "unexpected NUL byte (text holds none: is this a binary file?)");
    }
    if (byte < 0x80U) {
      ++i;
      continue;
    }
    const std::size_t length = utf8_char_length(text_.substr(i));
    if (length == 0) {
      fail(i, "invalid UTF-8 byte " + describe_char(text_[i]) +
                  " (the text format is UTF-8: save the file as UTF-8)");
    }
    i += length;
  }
}

CTIR_INLINE std::string Lexer::describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20U || byte >= 0x7FU) {
    static constexpr char hex[] = "0123456789abcdef";
    return std::string("'\\x") + hex[byte >> 4U] + hex[byte & 0xFU] + "'";
  }
  return std::string("'") + c + "'";
}

CTIR_INLINE void Lexer::number(bool index_only) {
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

CTIR_INLINE void Lexer::string_literal() {
  const std::size_t start = pos_;
  ++pos_;
  while (true) {
    const char c = at(pos_);
    if (pos_ >= text_.size() || c == '\n') {
      fail(start, "unterminated string: the closing '\"' is missing (a string ends on the "
                  "line where it starts)");
    }
    if (c == '"') {
      ++pos_;
      return;
    }
    if (c == '\\') {
      if (pos_ + 1 >= text_.size() || text_[pos_ + 1] == '\n') {
        fail(start, "unterminated string: the closing '\"' is missing (a string ends on the "
                    "line where it starts)");
      }
      pos_ += 2;
      continue;
    }
    ++pos_;
  }
}

CTIR_INLINE TokenList tokenize(std::string_view text, std::string_view file) {
  return Lexer(text, file).run();
}

} // namespace ctir::detail
