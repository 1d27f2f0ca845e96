// A flat hash map keyed by a string view: the parser's table of local names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// An open-addressing (linear probing) map from a string view to a V.
///
/// The parser looks a name up at every definition and every use; a node-based
/// std::unordered_map costs an allocation per name and a cache miss or two per lookup,
/// which dominated parsing a function of a million bindings. The keys view text that
/// outlives the map. Entries live inline in one array, so inserting may move them: hold
/// no pointer to a value across an insertion.
template <class V>
class StringMap {
public:
  StringMap() : slots_(min_capacity) {}

  std::size_t size() const noexcept { return size_; }

  /// The value of `key`, or nullptr.
  V* find(std::string_view key) noexcept {
    Slot& slot = probe(key, hash(key));
    return slot.used() ? &slot.value : nullptr;
  }

  /// The value of `key`, value-initialized and inserted if absent; and whether it was.
  std::pair<V*, bool> try_emplace(std::string_view key) {
    if (2 * (size_ + 1) > slots_.size()) {
      grow();
    }
    const std::uint32_t code = hash(key);
    Slot& slot = probe(key, code);
    if (slot.used()) {
      return {&slot.value, false};
    }
    slot.key = key;
    slot.hash = code;
    ++size_;
    return {&slot.value, true};
  }

  /// Calls f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& slot : slots_) {
      if (slot.used()) {
        f(slot.key, slot.value);
      }
    }
  }

private:
  static constexpr std::size_t min_capacity = 16;
  /// A used slot's hash has its top bit set, so that a slot takes 24 bytes with a 32-bit
  /// value (a module binds a name per value: the table is much of the parser's memory).
  static constexpr std::uint32_t used_bit = std::uint32_t{1} << 31U;

  struct Slot {
    std::string_view key;
    std::uint32_t hash = 0; ///< the key's hash with used_bit; 0 in an empty slot
    V value{};

    bool used() const noexcept { return hash != 0; }
  };

  static std::uint32_t hash(std::string_view key) noexcept {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(key)) | used_bit;
  }

  Slot& probe(std::string_view key, std::uint32_t code) noexcept {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = code & mask;
    while (slots_[i].used() && !(slots_[i].hash == code && slots_[i].key == key)) {
      i = (i + 1) & mask;
    }
    return slots_[i];
  }

  /// Rehashes into twice the slots (a power of two).
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(2 * old.size());
    for (Slot& slot : old) {
      if (slot.used()) {
        probe(slot.key, slot.hash) = std::move(slot);
      }
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

} // namespace ctir::detail
