// A small strict JSON reader for tests: parses a document into a tree of values, so a test
// can check that output meant for other tools is valid JSON and read it back.
#pragma once

#include <cctype>
#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::testing {

/// A JSON value.
struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;

  const JsonValue& operator[](const std::string& key) const {
    const auto found = object.find(key);
    if (kind != Kind::object || found == object.end()) {
      throw std::runtime_error("json: no member '" + key + "'");
    }
    return found->second;
  }
  bool has(const std::string& key) const { return object.count(key) != 0; }
};

/// Parses `text` as one JSON document (RFC 8259; \u escapes kept as written); throws
/// std::runtime_error with the offset of the first error.
class JsonReader {
public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  JsonValue document() {
    JsonValue value = parse_value(0);
    skip_blanks();
    if (pos_ != text_.size()) {
      fail("text after the document");
    }
    return value;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("json: " + what + " at offset " + std::to_string(pos_));
  }
  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool eat(char c) {
    skip_blanks();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) {
      fail(std::string("expected '") + c + "'");
    }
  }
  bool word(std::string_view w) {
    if (text_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return true;
    }
    return false;
  }

  JsonValue parse_value(int depth) {
    if (depth > 200) {
      fail("nesting too deep");
    }
    skip_blanks();
    if (pos_ >= text_.size()) {
      fail("expected a value");
    }
    JsonValue value;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      value.kind = JsonValue::Kind::object;
      if (eat('}')) {
        return value;
      }
      do {
        skip_blanks();
        const std::string key = parse_string();
        expect(':');
        if (!value.object.emplace(key, parse_value(depth + 1)).second) {
          fail("duplicate key '" + key + "'");
        }
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      value.kind = JsonValue::Kind::array;
      if (eat(']')) {
        return value;
      }
      do {
        value.array.push_back(parse_value(depth + 1));
      } while (eat(','));
      expect(']');
    } else if (c == '"') {
      value.kind = JsonValue::Kind::string;
      value.string = parse_string();
    } else if (word("true")) {
      value.kind = JsonValue::Kind::boolean;
      value.boolean = true;
    } else if (word("false")) {
      value.kind = JsonValue::Kind::boolean;
    } else if (word("null")) {
      value.kind = JsonValue::Kind::null;
    } else {
      value.kind = JsonValue::Kind::number;
      value.number = parse_number();
    }
    return value;
  }

  std::string parse_string() {
    if (pos_ >= text_.size() || text_[pos_] != '"') {
      fail("expected a string");
    }
    ++pos_;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      const char c = text_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("control character in a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) {
        fail("unfinished escape");
      }
      const char e = text_[pos_++];
      const std::string_view simple = "\"\\/bfnrt";
      if (simple.find(e) != std::string_view::npos) {
        out += e == 'n'   ? '\n'
               : e == 't' ? '\t'
               : e == 'r' ? '\r'
               : e == 'b' ? '\b'
               : e == 'f' ? '\f'
                          : e;
      } else if (e == 'u') {
        for (int i = 0; i < 4; ++i) {
          if (pos_ >= text_.size() || std::isxdigit(static_cast<unsigned char>(text_[pos_])) == 0) {
            fail("bad \\u escape");
          }
          ++pos_;
        }
        out += '?';
      } else {
        fail("bad escape");
      }
    }
    if (pos_ >= text_.size()) {
      fail("unfinished string");
    }
    ++pos_;
    return out;
  }

  double parse_number() {
    const std::size_t start = pos_;
    const auto digits = [this] {
      const std::size_t from = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0) {
        ++pos_;
      }
      return pos_ > from;
    };
    if (pos_ < text_.size() && text_[pos_] == '-') {
      ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '0') {
      ++pos_;
    } else if (!digits()) {
      fail("expected a value");
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) {
        fail("expected digits after '.'");
      }
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
        ++pos_;
      }
      if (!digits()) {
        fail("expected an exponent");
      }
    }
    return std::stod(std::string(text_.substr(start, pos_ - start)));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

/// Parses `text` as JSON (see JsonReader).
inline JsonValue parse_json(std::string_view text) { return JsonReader(text).document(); }

} // namespace ctir::testing
