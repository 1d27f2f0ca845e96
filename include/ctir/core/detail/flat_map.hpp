// The one open-addressing hash map of ctir's per-node tables: the traversals' memo of shared
// nodes and variable pairings, the passes' and the printer's tables keyed by node address.
#pragma once

#include <ctir/core/detail/address_hash.hpp>
#include <ctir/core/inline.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <utility>

namespace ctir::detail {

// Identity keys only need their bits spread over the table (a Fibonacci multiply; the table
// takes the high bits), not a full avalanche; nor does a key that is a hash already. A key
// type of its own brings its key_hash, found by argument-dependent lookup.
inline std::uint64_t key_hash(const void* key) noexcept {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key)) * 0x9E3779B97F4A7C15ULL;
}
inline std::uint64_t key_hash(std::uint64_t key) noexcept { return key * 0x9E3779B97F4A7C15ULL; }

/// Where a FlatMap puts a key: scattered by a multiply (the fewest instructions: the
/// variables' tables of equality and hashing, looked up at every use of a variable), or in
/// address order (address_slot: tables of nodes that grow to a million entries on the
/// graphs passes rewrite, where a scattered lookup is a cache miss).
enum class SlotOrder { scattered, by_address };

/// An open-addressing (linear probing) hash map. A value-initialized key marks an empty
/// slot and is never a key (a null address, say): looking it up is not allowed.
///
/// Entries live inline in one array, so inserting may move them: hold no pointer to a value
/// across an insertion. A lookup is on the path of every variable use in equality and
/// hashing, so it is kept to a multiply or a shift, and a probe: an empty map points at a
/// shared table of empty slots instead of testing its size (it never allocates until its
/// first insertion, so a traversal of a tree without sharing pays nothing), and the mask is
/// stored rather than derived from the capacity.
template <class Key, class Value, SlotOrder Order = SlotOrder::scattered>
class FlatMap {
public:
  FlatMap() noexcept = default;
  FlatMap(const FlatMap& other) : FlatMap() {
    if (other.capacity_ != 0) {
      slots_ = new Slot[other.capacity_];
      for (std::size_t i = 0; i < other.capacity_; ++i) {
        slots_[i] = other.slots_[i];
      }
      capacity_ = other.capacity_;
      mask_ = other.mask_;
      size_ = other.size_;
      shift_ = other.shift_;
    }
  }
  FlatMap& operator=(const FlatMap& other) {
    if (this != &other) {
      FlatMap copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  FlatMap(FlatMap&& other) noexcept { take(other); }
  FlatMap& operator=(FlatMap&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~FlatMap() { release(); }

  std::size_t size() const noexcept { return size_; }

  /// The value stored for `key`, or nullptr.
  CTIR_DETAIL_ALWAYS_INLINE Value* find(const Key& key) noexcept {
    for (std::size_t i = start(key);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.key == key) [[likely]] {
        return &slot.value;
      }
      if (slot.key == Key{}) {
        return nullptr;
      }
    }
  }
  const Value* find(const Key& key) const noexcept { return const_cast<FlatMap*>(this)->find(key); }
  bool contains(const Key& key) const noexcept { return find(key) != nullptr; }

  /// The value of `key`, which must be present.
  Value& at(const Key& key) {
    Value* value = find(key);
    if (value == nullptr) {
      throw std::out_of_range("ctir: FlatMap::at: no such key");
    }
    return *value;
  }
  const Value& at(const Key& key) const { return const_cast<FlatMap*>(this)->at(key); }

  /// Stores `value` for a key that is not present yet.
  void insert_new(const Key& key, Value value) {
    reserve_one();
    place(key, std::move(value));
    ++size_;
  }

  /// The value of `key`, value-initialized and inserted if absent; and whether it was.
  std::pair<Value*, bool> try_emplace(const Key& key) {
    reserve_one();
    std::size_t i = start(key);
    while (!(slots_[i].key == Key{})) {
      if (slots_[i].key == key) {
        return {&slots_[i].value, false};
      }
      i = (i + 1) & mask_;
    }
    slots_[i].key = key;
    ++size_;
    return {&slots_[i].value, true};
  }

  /// Inserts `value` for `key` if absent (a present key keeps its value); and whether it did.
  std::pair<Value*, bool> try_emplace(const Key& key, Value value) {
    auto [slot, inserted] = try_emplace(key);
    if (inserted) {
      *slot = std::move(value);
    }
    return {slot, inserted};
  }

  /// Removes every entry; a table grown large is released rather than wiped.
  void clear() noexcept {
    if (capacity_ > 4096) {
      FlatMap empty;
      *this = std::move(empty);
      return;
    }
    for (std::size_t i = 0; i < capacity_; ++i) {
      slots_[i] = Slot{};
    }
    size_ = 0;
  }

  /// Calls f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) {
    for (std::size_t i = 0; i < capacity_; ++i) {
      if (!(slots_[i].key == Key{})) {
        f(slots_[i].key, slots_[i].value);
      }
    }
  }

private:
  struct Slot {
    Key key{};
    Value value{};
  };

  // What an empty map probes: two slots, as the shift of an empty map (63) gives a start of
  // 0 or 1. Never written: the first insertion allocates. Built at first use and never
  // destroyed, so that including this header does no work at static initialization or at
  // exit (a static array of slots holding references would register its destructor).
  static Slot* empty_slots() noexcept {
    alignas(Slot) static std::byte storage[2 * sizeof(Slot)];
    static Slot* const slots = [] {
      ::new (static_cast<void*>(storage)) Slot{};
      ::new (static_cast<void*>(storage + sizeof(Slot))) Slot{};
      return std::launder(reinterpret_cast<Slot*>(storage));
    }();
    return slots;
  }

  std::size_t start(const Key& key) const noexcept {
    if constexpr (Order == SlotOrder::by_address) {
      return address_slot(key, mask_, shift_);
    } else {
      return static_cast<std::size_t>(key_hash(key) >> shift_);
    }
  }

  /// Keeps the load at most one half after one more insertion.
  void reserve_one() {
    if ((size_ + 1) * 2 > capacity_) {
      grow();
    }
  }

  void place(const Key& key, Value&& value) noexcept {
    std::size_t i = start(key);
    while (!(slots_[i].key == Key{})) {
      i = (i + 1) & mask_;
    }
    slots_[i].key = key;
    slots_[i].value = std::move(value);
  }

  [[gnu::noinline]] void grow() {
    Slot* const old = slots_;
    const std::size_t old_capacity = capacity_;
    capacity_ = old_capacity == 0 ? 16 : old_capacity * 2;
    slots_ = new Slot[capacity_]();
    mask_ = capacity_ - 1;
    shift_ = 64U - static_cast<unsigned>(std::countr_zero(capacity_));
    for (std::size_t i = 0; i < old_capacity; ++i) {
      if (!(old[i].key == Key{})) {
        place(old[i].key, std::move(old[i].value));
      }
    }
    if (old_capacity != 0) {
      delete[] old;
    }
  }

  void release() noexcept {
    if (capacity_ != 0) {
      delete[] slots_;
    }
  }

  void take(FlatMap& other) noexcept {
    slots_ = std::exchange(other.slots_, empty_slots());
    capacity_ = std::exchange(other.capacity_, 0);
    mask_ = std::exchange(other.mask_, 1);
    size_ = std::exchange(other.size_, 0);
    shift_ = std::exchange(other.shift_, 63U);
  }

  Slot* slots_ = empty_slots();
  std::size_t mask_ = 1;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  unsigned shift_ = 63;
};

} // namespace ctir::detail
