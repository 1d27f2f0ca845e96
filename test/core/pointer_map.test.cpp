// Tests of PointerMap and PointerMultiMap, the flat tables keyed by node address that the
// printer and the passes keep one entry per node in.
#include <ctir/core/detail/pointer_map.hpp> // first: the header must compile on its own

#include <doctest/doctest.h>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using ctir::detail::PointerMap;
using ctir::detail::PointerMultiMap;

TEST_CASE("a PointerMap finds what it was given, through every growth") {
  // Separate allocations, as nodes are: the keys the maps see.
  std::vector<std::unique_ptr<int>> keys;
  PointerMap<std::size_t> map;
  for (std::size_t i = 0; i < 100'000; ++i) {
    keys.push_back(std::make_unique<int>(0));
    auto [value, inserted] = map.try_emplace(keys.back().get());
    REQUIRE(inserted);
    *value = i;
  }
  CHECK(map.size() == keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    REQUIRE(map.find(keys[i].get()) != nullptr);
    REQUIRE(*map.find(keys[i].get()) == i);
  }
  const int absent = 0;
  CHECK(map.find(&absent) == nullptr);
  CHECK_FALSE(map.contains(&absent));
}

TEST_CASE("PointerMap::try_emplace with a value keeps the value of a present key") {
  const int a = 0;
  PointerMap<std::string> map;
  CHECK(map.try_emplace(&a, "first").second);
  CHECK_FALSE(map.try_emplace(&a, "second").second);
  CHECK(map.at(&a) == "first");
}

TEST_CASE("PointerMap::at names the missing key as an out_of_range error") {
  const int a = 0;
  PointerMap<int> map;
  CHECK_THROWS_AS(map.at(&a), std::out_of_range);
}

TEST_CASE("PointerMap::clear empties the map") {
  const int a = 0;
  PointerMap<int> map;
  *map.try_emplace(&a).first = 3;
  map.clear();
  CHECK(map.size() == 0);
  CHECK(map.find(&a) == nullptr);
}

TEST_CASE("a PointerMultiMap gives each key's values in insertion order") {
  const int a = 0;
  const int b = 0;
  const int c = 0;
  PointerMultiMap<std::string> map;
  map.insert(&a, "a1");
  map.insert(&b, "b1");
  map.insert(&a, "a2");
  map.insert(&a, "a3");
  const auto values_of = [&](const void* key) {
    std::vector<std::string> values;
    map.for_each(key, [&](const std::string& value) { values.push_back(value); });
    return values;
  };
  CHECK(values_of(&a) == std::vector<std::string>{"a1", "a2", "a3"});
  CHECK(values_of(&b) == std::vector<std::string>{"b1"});
  CHECK(values_of(&c).empty());
}
