// A flat hash map keyed by node address: the per-node tables of the printer and the passes.
#pragma once

#include <ctir/core/detail/address_hash.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ctir::detail {

/// An open-addressing (linear probing) map from a non-null address to a V.
///
/// The printer looks nodes up several times each; a node-based std::unordered_map
/// costs an allocation per entry and a cache miss or two per lookup, which dominated
/// printing a million-node function. Entries live inline in one array, so inserting may
/// move them: hold no reference to a value across an insertion.
template <class V>
class PointerMap {
public:
  PointerMap() { reset(min_capacity); }

  std::size_t size() const noexcept { return size_; }

  /// Removes every entry; a table grown large is released rather than wiped.
  void clear() {
    if (slots_.size() > 4096) {
      slots_ = std::vector<Slot>(min_capacity);
      size_ = 0;
      return;
    }
    for (Slot& slot : slots_) {
      slot = Slot{};
    }
    size_ = 0;
  }

  V* find(const void* key) noexcept {
    Slot& slot = probe(key);
    return slot.key == nullptr ? nullptr : &slot.value;
  }
  const V* find(const void* key) const noexcept { return const_cast<PointerMap*>(this)->find(key); }
  bool contains(const void* key) const noexcept { return find(key) != nullptr; }

  /// The value of `key`, which must be present.
  V& at(const void* key) {
    V* value = find(key);
    if (value == nullptr) {
      throw std::out_of_range("ctir: PointerMap::at: no such key");
    }
    return *value;
  }
  const V& at(const void* key) const { return const_cast<PointerMap*>(this)->at(key); }

  /// The value of `key`, value-initialized and inserted if absent; and whether it was.
  std::pair<V*, bool> try_emplace(const void* key) {
    if (2 * (size_ + 1) > slots_.size()) {
      reset(2 * slots_.size());
    }
    Slot& slot = probe(key);
    if (slot.key != nullptr) {
      return {&slot.value, false};
    }
    slot.key = key;
    ++size_;
    return {&slot.value, true};
  }

  /// Inserts `value` for `key` if absent (a present key keeps its value); and whether it did.
  std::pair<V*, bool> try_emplace(const void* key, V value) {
    auto [slot, inserted] = try_emplace(key);
    if (inserted) {
      *slot = std::move(value);
    }
    return {slot, inserted};
  }

  /// Calls f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) {
    for (Slot& slot : slots_) {
      if (slot.key != nullptr) {
        f(slot.key, slot.value);
      }
    }
  }

private:
  static constexpr std::size_t min_capacity = 16;
  struct Slot {
    const void* key = nullptr;
    V value{};
  };

  Slot& probe(const void* key) noexcept {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = address_slot(key, mask);
    while (slots_[i].key != nullptr && slots_[i].key != key) {
      i = (i + 1) & mask;
    }
    return slots_[i];
  }

  /// Rehashes into `capacity` slots (a power of two).
  void reset(std::size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(capacity);
    size_ = 0;
    for (Slot& slot : old) {
      if (slot.key != nullptr) {
        Slot& target = probe(slot.key);
        target.key = slot.key;
        target.value = std::move(slot.value);
        ++size_;
      }
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

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
