// Where a node's address goes in a hash table keyed by node identity (the traversals' memo of
// shared nodes, the passes' and the printer's per-node tables).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ctir::detail {

/// The home slot of `address` in an open-addressing table of `mask + 1` slots.
///
/// Passes meet nodes roughly in the order they were allocated (the parser and the rewrites
/// build them in program order), so a hash that scatters addresses sends every lookup of a
/// table larger than the caches to a new cache line and page: at a million nodes the
/// lookups, not the passes' work, set the time. Here the addresses of one 1 MiB block keep
/// their order (one slot per 16 bytes, malloc's granularity) from a starting slot that a
/// mix of the block's address chooses: consecutive nodes land in consecutive slots, while
/// the same offsets of different heaps (malloc gives each thread its own, aligned to
/// 64 MiB, and threads building alike functions fill them alike) land apart, so that the
/// table's load stays even.
inline std::size_t address_slot(const void* address, std::size_t mask) noexcept {
  const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(address));
  const std::uint64_t block = ((bits >> 20U) * 0x9E3779B97F4A7C15ULL) >> 24U;
  return static_cast<std::size_t>((bits >> 4U) + block) & mask;
}

} // namespace ctir::detail
