// Tests of address_slot, the home slot of a node's address in the tables keyed by node
// identity: it keeps nearby addresses nearby, and it keeps the load of a table even when
// many heaps are filled alike or an allocator packs nodes densely.
#include <ctir/core/detail/address_hash.hpp> // first: the header must compile on its own

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

using ctir::detail::address_slot;

namespace {

constexpr std::uintptr_t mebibyte = std::uintptr_t{1} << 20U;

const void* address(std::uintptr_t bits) { return reinterpret_cast<const void*>(bits); }

/// Inserts the addresses into a linear-probing table of `mask + 1` slots, as the maps do,
/// and returns the longest probe sequence an insertion needed.
std::size_t longest_probe(const std::vector<std::uintptr_t>& addresses, std::size_t mask) {
  std::vector<bool> used(mask + 1, false);
  std::size_t longest = 0;
  for (std::uintptr_t bits : addresses) {
    std::size_t probes = 1;
    std::size_t i = address_slot(address(bits), mask);
    while (used[i]) {
      i = (i + 1) & mask;
      ++probes;
    }
    used[i] = true;
    longest = std::max(longest, probes);
  }
  return longest;
}

} // namespace

TEST_CASE("address_slot gives a slot inside the table") {
  for (std::size_t mask : {std::size_t{1}, std::size_t{15}, std::size_t{(1U << 20U) - 1}}) {
    for (std::uintptr_t bits = 0x7f0000000000; bits < 0x7f0000000000 + 5 * mebibyte;
         bits += 4096 + 48) {
      CHECK(address_slot(address(bits), mask) <= mask);
    }
  }
}

TEST_CASE("address_slot keeps the nodes of one 64 KiB group in consecutive slots") {
  // Nodes allocated one after the other, 48 bytes apart, in one 64 KiB group: their slots
  // are 3 apart (one slot per 16 bytes), so a pass that meets them in order reads its
  // table in order.
  const std::size_t mask = (std::size_t{1} << 22U) - 1;
  const std::uintptr_t group = 0x55d400000000 + 7 * 65536;
  const std::size_t first = address_slot(address(group), mask);
  for (std::uintptr_t i = 0; i < 65536 / 48; ++i) {
    REQUIRE(address_slot(address(group + 48 * i), mask) == ((first + 3 * i) & mask));
  }
}

TEST_CASE("address_slot takes a table's shift or derives it from the mask alike") {
  for (unsigned bits : {1U, 4U, 16U, 22U, 30U}) {
    const std::size_t mask = (std::size_t{1} << bits) - 1;
    for (std::uintptr_t a = 0x7f0000001000; a < 0x7f0000001000 + 3 * mebibyte; a += 4096 + 80) {
      REQUIRE(address_slot(address(a), mask) == address_slot(address(a), mask, 64U - bits));
    }
  }
}

TEST_CASE("address_slot spreads the same offsets of different heaps over the table") {
  // malloc gives each thread a heap aligned to 64 MiB; threads that build alike functions
  // put their nodes at the same offsets. Without the block mix all 64 heaps below would
  // share the same slots, and linear probing would chain 64 nodes per slot.
  constexpr std::uintptr_t heap_size = 64 * mebibyte;
  std::vector<std::uintptr_t> addresses;
  std::set<std::size_t> starts;
  const std::size_t mask = (std::size_t{1} << 20U) - 1;
  for (std::uintptr_t heap = 1; heap <= 64; ++heap) {
    const std::uintptr_t base = 0x7f0000000000 + heap * heap_size;
    starts.insert(address_slot(address(base + 4096), mask));
    for (std::uintptr_t node = 0; node < 4000; ++node) {
      addresses.push_back(base + 4096 + 96 * node);
    }
  }
  CHECK(starts.size() == 64);
  // 256,000 nodes in 1,048,576 slots: a load of a quarter, as evenly spread as random keys.
  CHECK(longest_probe(addresses, mask) <= 16);
}

TEST_CASE("address_slot keeps a table of strided nodes usable") {
  // One node at the start of each 1 MiB block (a layout that defeats a plain address
  // shift: every node would have the same low bits).
  std::vector<std::uintptr_t> addresses;
  for (std::uintptr_t block = 0; block < 20000; ++block) {
    addresses.push_back(0x7f0000000000 + block * mebibyte);
  }
  CHECK(longest_probe(addresses, (std::size_t{1} << 16U) - 1) <= 16);
}

TEST_CASE("address_slot keeps a table of densely packed nodes usable") {
  // A slab allocator (tcmalloc, jemalloc, a debugger's malloc) packs one size class over
  // megabytes of consecutive memory: here 300,000 nodes 64 bytes apart. When the start
  // slots of consecutive address groups step through the table by a fixed stride (a
  // multiply's low bits), groups pile onto the same slots and linear probing chains tens
  // of thousands of nodes; with the starts of a Fibonacci hash's top bits the table stays
  // as usable as with random keys.
  std::vector<std::uintptr_t> addresses;
  for (std::uintptr_t node = 0; node < 300000; ++node) {
    addresses.push_back(0x555893836000 + 64 * node);
  }
  CHECK(longest_probe(addresses, (std::size_t{1} << 20U) - 1) <= 16);
}
