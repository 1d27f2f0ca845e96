// Where a node's address goes in a hash table keyed by node identity (the traversals' memo of
// shared nodes, the passes' and the printer's per-node tables).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace ctir::detail {

/// The home slot of `address` in an open-addressing table of `mask + 1` slots (a power of
/// two); `shift` is `std::countl_zero(mask)`, which a table keeps at hand.
///
/// Passes meet nodes roughly in the order they were allocated (the parser and the rewrites
/// build them in program order), so a hash that scatters addresses sends every lookup of a
/// table larger than the caches to a new cache line and page: at a million nodes the
/// lookups, not the passes' work, set the time. Here the addresses of one 64 KiB group keep
/// their order (one slot per 16 bytes, malloc's granularity), and the group's first slot is
/// the top bits of a Fibonacci hash of the group's number: consecutive groups land as
/// evenly apart as a sequence can (the golden ratio's three-distance property), whatever
/// the table's size, and the groups of different heaps land apart. A start taken from a
/// multiply's low bits instead steps through the table by a fixed stride, and where an
/// allocator packs one size class densely over megabytes (jemalloc, tcmalloc, valgrind's
/// malloc), groups then pile onto the same slots. Groups of 64 KiB keep nearly all of the
/// locality of larger ones with glibc's malloc; smaller groups spread a slab allocator's
/// load a little more evenly but cost a cache miss every few nodes.
inline std::size_t address_slot(const void* address, std::size_t mask, unsigned shift) noexcept {
  const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(address));
  const std::uint64_t group_start = ((bits >> 16U) * 0x9E3779B97F4A7C15ULL) >> shift;
  return static_cast<std::size_t>(group_start + ((bits >> 4U) & 0xFFFU)) & mask;
}

inline std::size_t address_slot(const void* address, std::size_t mask) noexcept {
  return address_slot(address, mask, static_cast<unsigned>(std::countl_zero(mask)));
}

} // namespace ctir::detail
