// Tests of FlatMap, the open-addressing map behind every per-node table of ctir (the
// traversals' memos, equality's pairings, the passes' and the printer's PointerMaps).
#include <ctir/core/detail/flat_map.hpp> // first: the header must compile on its own

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

using ctir::detail::FlatMap;
using ctir::detail::SlotOrder;

namespace {

/// Separate allocations, as nodes are: the addresses the maps see.
std::vector<std::unique_ptr<int>> make_keys(std::size_t count) {
  std::vector<std::unique_ptr<int>> keys;
  keys.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    keys.push_back(std::make_unique<int>(0));
  }
  return keys;
}

} // namespace

TEST_CASE("a FlatMap keyed by hashes finds every key through every growth") {
  // Structural hashes, as EliminateCommonSubexpr keys its table: alike low bits included.
  FlatMap<std::uint64_t, std::size_t> map;
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 1; i <= 50'000; ++i) {
    keys.push_back(i << 20U);
    keys.push_back(i * 0x9E3779B97F4A7C15ULL | 1U);
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    map.insert_new(keys[i], i);
  }
  CHECK(map.size() == keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    REQUIRE(map.find(keys[i]) != nullptr);
    REQUIRE(*map.find(keys[i]) == i);
  }
  CHECK(map.find(3) == nullptr);
}

TEST_CASE("an empty FlatMap finds nothing and visits nothing") {
  const FlatMap<const void*, int, SlotOrder::by_address> by_address;
  const FlatMap<const void*, int> scattered;
  const auto keys = make_keys(4);
  for (const auto& key : keys) {
    CHECK(by_address.find(key.get()) == nullptr);
    CHECK(scattered.find(key.get()) == nullptr);
  }
  std::size_t visited = 0;
  FlatMap<const void*, int> empty;
  empty.for_each([&](const void*, int) { ++visited; });
  CHECK(visited == 0);
  CHECK(empty.size() == 0);
}

TEST_CASE("a copy of a FlatMap is independent of the original") {
  const auto keys = make_keys(100);
  FlatMap<const void*, std::string, SlotOrder::by_address> original;
  for (std::size_t i = 0; i < 50; ++i) {
    original.insert_new(keys[i].get(), std::to_string(i));
  }
  FlatMap<const void*, std::string, SlotOrder::by_address> copy(original);
  for (std::size_t i = 50; i < keys.size(); ++i) {
    original.insert_new(keys[i].get(), std::to_string(i));
  }
  *original.find(keys[0].get()) = "changed";
  CHECK(copy.size() == 50);
  CHECK(copy.at(keys[0].get()) == "0");
  CHECK(copy.at(keys[49].get()) == "49");
  CHECK(copy.find(keys[50].get()) == nullptr);
  copy = original;
  CHECK(copy.size() == 100);
  CHECK(copy.at(keys[0].get()) == "changed");
}

TEST_CASE("a moved-from FlatMap is empty and can be filled again") {
  const auto keys = make_keys(20);
  FlatMap<const void*, std::size_t> map;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    map.insert_new(keys[i].get(), i);
  }
  FlatMap<const void*, std::size_t> moved(std::move(map));
  CHECK(moved.size() == 20);
  CHECK(moved.at(keys[7].get()) == 7);
  CHECK(map.size() == 0); // NOLINT(bugprone-use-after-move): the state after a move is specified
  CHECK(map.find(keys[7].get()) == nullptr);
  map.insert_new(keys[7].get(), 70);
  CHECK(map.at(keys[7].get()) == 70);
  CHECK(moved.at(keys[7].get()) == 7);
}

TEST_CASE("FlatMap::clear empties a large table, which stays usable") {
  const auto keys = make_keys(10'000);
  FlatMap<const void*, std::string, SlotOrder::by_address> map;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    map.insert_new(keys[i].get(), std::to_string(i));
  }
  map.clear();
  CHECK(map.size() == 0);
  for (const auto& key : keys) {
    REQUIRE(map.find(key.get()) == nullptr);
  }
  CHECK(map.try_emplace(keys[3].get(), "again").second);
  CHECK(map.at(keys[3].get()) == "again");
}

TEST_CASE("FlatMap::for_each visits every entry once, with its value") {
  const auto keys = make_keys(1'000);
  FlatMap<const void*, std::size_t, SlotOrder::by_address> map;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    map.insert_new(keys[i].get(), i);
  }
  std::set<const void*> seen;
  std::size_t sum = 0;
  map.for_each([&](const void* key, std::size_t value) {
    CHECK(seen.insert(key).second);
    sum += value;
  });
  CHECK(seen.size() == keys.size());
  CHECK(sum == keys.size() * (keys.size() - 1) / 2);
}

TEST_CASE("FlatMap::try_emplace finds a present key rather than adding it again") {
  const auto keys = make_keys(3);
  FlatMap<const void*, int> map;
  auto [first, inserted] = map.try_emplace(keys[0].get());
  CHECK(inserted);
  CHECK(*first == 0); // value-initialized
  *first = 5;
  auto [again, inserted_again] = map.try_emplace(keys[0].get());
  CHECK_FALSE(inserted_again);
  CHECK(*again == 5);
  CHECK(map.size() == 1);
}
