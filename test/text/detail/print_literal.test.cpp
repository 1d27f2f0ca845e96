// Tests of include/ctir/text/detail/print_literal.hpp: literals print as the parser reads them.
#include <ctir/text/detail/print_literal.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

using namespace ctir;

namespace {

std::string quoted(std::string_view text) {
  std::string out;
  detail::append_string_literal(out, text);
  return out;
}

} // namespace

TEST_CASE("a string literal escapes quotes, backslashes and control bytes") {
  CHECK(quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(quoted("line\nnext\tcol\r") == "\"line\\nnext\\tcol\\r\"");
  CHECK(quoted(std::string_view("\x01\x7f", 2)) == "\"\\x01\\x7f\"");
  CHECK(quoted(std::string_view("a\0b", 3)) == "\"a\\x00b\"");
}

TEST_CASE("a string literal keeps whole UTF-8 characters and escapes every other byte") {
  CHECK(quoted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(quoted("a\x81") == "\"a\\x81\"");                 // a stray continuation byte
  CHECK(quoted("\xc3") == "\"\\xc3\"");                   // a truncated character
  CHECK(quoted("\xc0\xaf") == "\"\\xc0\\xaf\"");          // an overlong form
  CHECK(quoted("\xed\xa0\x80") == "\"\\xed\\xa0\\x80\""); // a surrogate
  CHECK(quoted("\xff\xc3\xa9") == "\"\\xff\xc3\xa9\"");
}

TEST_CASE("a string attribute holding bytes that are not UTF-8 prints text that reads back") {
  const std::string text = "prim @p() attributes {s = \"a\\x81\\xc3\"} {\n}\n";
  const IRModule module = parse_module(text);
  const std::string printed = print(module);
  CHECK(printed.find("\\x81\\xc3") != std::string::npos);
  const IRModule again = parse_module(printed);
  CHECK(structural_equal(module, again));
  CHECK(print(again) == printed);
}
