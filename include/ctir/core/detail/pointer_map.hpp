// The tables keyed by node address of the printer and the passes.
#pragma once

#include <ctir/core/detail/flat_map.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace ctir::detail {

/// A map from a non-null node address to a V, in address order.
///
/// The printer looks nodes up several times each, and the passes keep a table or two per
/// node; a node-based std::unordered_map costs an allocation per entry and a cache miss or
/// two per lookup, which dominated printing and rewriting a million-node function.
template <class V>
using PointerMap = FlatMap<const void*, V, SlotOrder::by_address>;

/// A PointerMap that keeps several values per address, in one flat array: the lets that
/// bind one shared value, say. The values of a key are visited in insertion order.
template <class V>
class PointerMultiMap {
public:
  void insert(const void* key, V value) {
    entries_.push_back({std::move(value), none});
    const std::size_t added = entries_.size() - 1;
    auto [ends, first] = chains_.try_emplace(key);
    if (first) {
      ends->first = added;
    } else {
      entries_[ends->last].next = added;
    }
    ends->last = added;
  }

  /// Calls f(value) for every value stored for `key`, in insertion order.
  template <class F>
  void for_each(const void* key, F&& f) const {
    const Chain* chain = chains_.find(key);
    for (std::size_t k = chain == nullptr ? none : chain->first; k != none; k = entries_[k].next) {
      f(entries_[k].value);
    }
  }

private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  struct Entry {
    V value;
    std::size_t next;
  };
  /// The first and last entry of a key's values.
  struct Chain {
    std::size_t first = none;
    std::size_t last = none;
  };
  PointerMap<Chain> chains_;
  std::vector<Entry> entries_;
};

} // namespace ctir::detail
