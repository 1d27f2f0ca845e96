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
/// lookups, not the passes' work, set the time. Here the addresses of one 4 KiB page keep
/// their order (one slot per 16 bytes, malloc's granularity), and the page's first slot is
/// the top bits of a Fibonacci hash of the page number: consecutive pages land as evenly
/// apart as a sequence can (the golden ratio's three-distance property), whatever the
/// table's size, and pages of different heaps land apart. Pages, not larger blocks: a slab
/// allocator (jemalloc, tcmalloc, a debugger's malloc) packs one size class densely over
/// megabytes, and the fewer slots a group of addresses keeps in order, the more groups
/// share the table's load evenly.
inline std::size_t address_slot(const void* address, std::size_t mask, unsigned shift) noexcept {
  const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(address));
  const std::uint64_t page_start = ((bits >> 12U) * 0x9E3779B97F4A7C15ULL) >> shift;
  return static_cast<std::size_t>(page_start + ((bits >> 4U) & 0xFFU)) & mask;
}

inline std::size_t address_slot(const void* address, std::size_t mask) noexcept {
  return address_slot(address, mask, static_cast<unsigned>(std::countl_zero(mask)));
}

} // namespace ctir::detail
