// Tests of the parser's flat table of names, StringMap: lookups, insertion, growth.
#include <ctir/text/detail/string_map.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

using ctir::detail::StringMap;

TEST_CASE("an empty string map finds nothing") {
  StringMap<int> map;
  CHECK(map.size() == 0);
  CHECK(map.find("x") == nullptr);
  CHECK(map.find("") == nullptr);
}

TEST_CASE("try_emplace inserts a value-initialized entry once and then finds it") {
  StringMap<int> map;
  auto [value, inserted] = map.try_emplace("x");
  REQUIRE(value != nullptr);
  CHECK(inserted);
  CHECK(*value == 0);
  *value = 7;
  auto [again, inserted_again] = map.try_emplace("x");
  CHECK_FALSE(inserted_again);
  CHECK(*again == 7);
  CHECK(map.size() == 1);
  REQUIRE(map.find("x") != nullptr);
  CHECK(*map.find("x") == 7);
  CHECK(map.find("y") == nullptr);
}

TEST_CASE("keys compare by their text, not by where the text is") {
  const std::string first = "name";
  const std::string second = "name";
  StringMap<int> map;
  *map.try_emplace(first).first = 1;
  auto [value, inserted] = map.try_emplace(second);
  CHECK_FALSE(inserted);
  CHECK(*value == 1);
  CHECK(map.find("nam") == nullptr);
  CHECK(map.find("names") == nullptr);
}

TEST_CASE("the empty string is a key like any other") {
  StringMap<int> map;
  *map.try_emplace("").first = 3;
  REQUIRE(map.find("") != nullptr);
  CHECK(*map.find("") == 3);
}

TEST_CASE("a map that grows keeps every entry and its value") {
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) {
    keys.push_back(std::to_string(i));
  }
  StringMap<std::size_t> map;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    *map.try_emplace(keys[i]).first = i + 1;
  }
  CHECK(map.size() == keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t* value = map.find(keys[i]);
    REQUIRE(value != nullptr);
    CHECK(*value == i + 1);
  }
  CHECK(map.find("5000") == nullptr);
  CHECK(map.find("-1") == nullptr);
}

TEST_CASE("for_each visits every entry once") {
  StringMap<int> map;
  const std::vector<std::string> keys{"a", "b", "c", "dd", "e"};
  int n = 0;
  for (const std::string& key : keys) {
    *map.try_emplace(key).first = ++n;
  }
  std::map<std::string, int> seen;
  map.for_each([&](std::string_view key, int value) { seen[std::string(key)] += value; });
  CHECK(seen == std::map<std::string, int>{{"a", 1}, {"b", 2}, {"c", 3}, {"dd", 4}, {"e", 5}});
}
