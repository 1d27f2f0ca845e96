// Internals shared by structural equality and hashing: flat pointer maps, node classes, dispatch.
#pragma once

#include <ctir/core/detail/flat_map.hpp>
#include <ctir/core/inline.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/detail/sharing.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

/// Out of line, and with the calling convention of its declaration: the per-type functions of
/// the recursive drivers are reached from one dispatch, which then passes its own arguments
/// through unchanged (a clone with fewer parameters, as g++ makes by default, costs argument
/// moves on every node).
#if defined(__GNUC__) && !defined(__clang__)
#define CTIR_DETAIL_NOIPA [[gnu::noipa]]
#else
#define CTIR_DETAIL_NOIPA [[gnu::noinline]]
#endif

namespace ctir::detail::structural {

/// Sentinel of an entry that is not an array element.
inline constexpr std::uint32_t no_index = std::numeric_limits<std::uint32_t>::max();
/// Sentinel field index of the root entry.
inline constexpr std::uint16_t no_field = std::numeric_limits<std::uint16_t>::max();

/// Flags of a pending entry (16 bits: a char-sized member would alias every store and
/// keep compilers from holding the stack pointers in registers).
namespace entry_flags {
inline constexpr std::uint16_t pattern = 1;         ///< inside a def_pattern region
inline constexpr std::uint16_t def_simple = 2;      ///< the field is a def_simple site
inline constexpr std::uint16_t length_mismatch = 4; ///< (equality) arrays of different lengths
} // namespace entry_flags

/// The flags of the children of a field with def-region kind `kind`: a pattern region
/// sticks for the whole subtree; a simple definition site is exactly the field.
constexpr std::uint16_t child_flags(std::uint16_t parent, DefRegionKind kind) noexcept {
  return static_cast<std::uint16_t>(
      (parent & entry_flags::pattern) |
      (kind == DefRegionKind::def_pattern ? entry_flags::pattern : 0U) |
      (kind == DefRegionKind::def_simple ? entry_flags::def_simple : 0U));
}

/// Whether a variable at a position with these flags is being defined.
constexpr bool is_definition(std::uint16_t flags) noexcept {
  return (flags & (entry_flags::pattern | entry_flags::def_simple)) != 0;
}

/// The recursive drivers pass a position as one 32-bit word: the entry flags in the low
/// two bits and the recursion depth above them (one argument register fewer per frame).
inline constexpr unsigned position_flags_mask = entry_flags::pattern | entry_flags::def_simple;

/// The position of the children of a field with def-region kind `kind`, one level deeper.
constexpr unsigned child_position(unsigned position, DefRegionKind kind) noexcept {
  return ((position & ~position_flags_mask) + (position_flags_mask + 1)) |
         child_flags(static_cast<std::uint16_t>(position & position_flags_mask), kind);
}

/// The recursion depth of a position.
constexpr unsigned position_depth(unsigned position) noexcept { return position >> 2U; }

/// Whether a node has at least one child (a non-null node field or a non-empty array),
/// through the static hooks.
template <class T>
bool has_children_static(const T& node) noexcept {
  bool any = false;
  for_each_field<T>([&](const auto& field) {
    using F = std::remove_cvref_t<decltype(field)>;
    if constexpr (F::ignored) {
      return;
    } else if constexpr (F::kind == FieldKind::node) {
      any = any || F::get(node).defined();
    } else if constexpr (F::kind == FieldKind::node_array) {
      any = any || !F::get(node).empty();
    }
  });
  return any;
}

// ---------------------------------------------------------------------------
// Static dispatch
// ---------------------------------------------------------------------------

template <class T, class U>
struct dependent_type {
  using type = U;
};

/// The node types a static traversal from roots of static types Roots dispatches on
/// at compile time: every type of the Object family (all IR node types, once
/// ir/families.hpp is included) and the families of the roots. Duplicates are harmless:
/// the first match wins. Other types go through their runtime field tables.
template <class... Roots>
using static_universe_t =
    concat_t<family_t<typename dependent_type<type_list<Roots...>, Object>::type>,
             family_t<Roots>...>;

/// A perfect hash of type indices into 2^bits slots: slot = (index * multiplier) >> (32 - bits).
struct SlotHash {
  std::uint32_t multiplier = 0;
  std::uint32_t bits = 0;
  bool found = false;
};

/// The largest slot table a dispatch switch has cases for.
inline constexpr std::uint32_t max_slot_bits = 8;

constexpr std::uint32_t slot_of(std::uint32_t index, SlotHash hash) noexcept {
  return static_cast<std::uint32_t>((index * hash.multiplier) >> (32U - hash.bits));
}

/// Searches multipliers (odd, from a fixed pseudo-random sequence) for which the distinct
/// indices land in distinct slots, in the smallest table with at most one type in four
/// slots (collision-free multipliers are then common: a few dozen tries), growing the
/// table if need be. Cheap enough for every compiler's constant-evaluation limits.
template <std::size_t N>
constexpr SlotHash find_slot_hash(const std::array<std::uint32_t, N>& indices) noexcept {
  std::array<std::uint32_t, N> distinct{};
  std::size_t count = 0;
  for (std::size_t i = 0; i < N; ++i) {
    bool seen = false;
    for (std::size_t j = 0; j < count; ++j) {
      seen = seen || distinct[j] == indices[i];
    }
    if (!seen) {
      distinct[count++] = indices[i];
    }
  }
  std::uint32_t bits = 1;
  while ((std::size_t{1} << bits) < 4 * count && bits < max_slot_bits) {
    ++bits;
  }
  for (; bits <= max_slot_bits; ++bits) {
    std::uint64_t state = 0x9E3779B97F4A7C15ULL;
    for (int attempt = 0; attempt < 2000; ++attempt) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const SlotHash hash{static_cast<std::uint32_t>(state >> 32U) | 1U, bits, true};
      std::uint64_t used[4] = {0, 0, 0, 0};
      bool ok = true;
      for (std::size_t i = 0; i < count && ok; ++i) {
        const std::uint32_t slot = slot_of(distinct[i], hash);
        const std::uint64_t bit = std::uint64_t{1} << (slot % 64U);
        ok = (used[slot / 64U] & bit) == 0;
        used[slot / 64U] |= bit;
      }
      if (ok) {
        return hash;
      }
    }
  }
  return SlotHash{};
}

template <class List>
struct slot_table;

/// The perfect hash of a universe and, per slot, the position of its type (or -1).
template <class... Ts>
struct slot_table<type_list<Ts...>> {
  static constexpr std::array<std::uint32_t, sizeof...(Ts)> indices{Ts::type_index...};
  static constexpr SlotHash hash = find_slot_hash(indices);
  static constexpr std::array<int, std::size_t{1} << max_slot_bits> position = [] {
    std::array<int, std::size_t{1} << max_slot_bits> result{};
    for (int& p : result) {
      p = -1;
    }
    if (hash.found) {
      for (std::size_t i = sizeof...(Ts); i-- > 0;) { // the first of duplicates wins
        result[slot_of(indices[i], hash)] = static_cast<int>(i);
      }
    }
    return result;
  }();
};

template <std::size_t Slot, class... Ts, class F, class Fallback>
CTIR_DETAIL_ALWAYS_INLINE decltype(auto) visit_slot(const Object& object, F& f,
                                                    Fallback& fallback) {
  constexpr int position = slot_table<type_list<Ts...>>::position[Slot];
  if constexpr (position >= 0) {
    using T = pack_element_t<static_cast<std::size_t>(position), Ts...>;
    if (object.dynamic_type_index() == T::type_index) {
      return f(static_cast<const T&>(object));
    }
  }
  return fallback(object);
}

// clang-format off
#define CTIR_DETAIL_SLOT_CASE(k)                                                                  \
  case (k): return visit_slot<(k), Ts...>(object, f, fallback);
#define CTIR_DETAIL_SLOT_CASES4(k)                                                                \
  CTIR_DETAIL_SLOT_CASE(k) CTIR_DETAIL_SLOT_CASE(k + 1) CTIR_DETAIL_SLOT_CASE(k + 2)              \
  CTIR_DETAIL_SLOT_CASE(k + 3)
#define CTIR_DETAIL_SLOT_CASES16(k)                                                               \
  CTIR_DETAIL_SLOT_CASES4(k) CTIR_DETAIL_SLOT_CASES4(k + 4) CTIR_DETAIL_SLOT_CASES4(k + 8)        \
  CTIR_DETAIL_SLOT_CASES4(k + 12)
#define CTIR_DETAIL_SLOT_CASES64(k)                                                               \
  CTIR_DETAIL_SLOT_CASES16(k) CTIR_DETAIL_SLOT_CASES16(k + 16) CTIR_DETAIL_SLOT_CASES16(k + 32)   \
  CTIR_DETAIL_SLOT_CASES16(k + 48)
// clang-format on

/// Calls f(static_cast<const T&>(object)) for the type T of Universe that is object's
/// dynamic type, or fallback(object) for a type outside it.
///
/// The type indices of the universe are perfectly hashed at compile time into at most
/// 256 slots, and the slot selects a case of a switch, which compilers emit as a jump
/// table: a multiply, a shift, an indirect jump and one comparison, whatever the size of
/// the universe (a chain of comparisons costs one per type before the match).
template <class... Ts, class F, class Fallback>
CTIR_DETAIL_ALWAYS_INLINE decltype(auto) dispatch_in(type_list<Ts...>, const Object& object, F& f,
                                                     Fallback& fallback) {
  using Table = slot_table<type_list<Ts...>>;
  if constexpr (sizeof...(Ts) == 0) {
    return fallback(object);
  } else if constexpr (!Table::hash.found) {
    // No perfect hash (a universe of hundreds of types): a flat chain of comparisons.
    using Result = decltype(fallback(object));
    const std::uint32_t index = object.dynamic_type_index();
    if constexpr (std::is_void_v<Result>) {
      if (!((index == Ts::type_index ? (f(static_cast<const Ts&>(object)), true) : false) || ...)) {
        fallback(object);
      }
    } else {
      Result result{};
      if (!((index == Ts::type_index ? (result = f(static_cast<const Ts&>(object)), true)
                                     : false) ||
            ...)) {
        result = fallback(object);
      }
      return result;
    }
  } else {
    switch (slot_of(object.dynamic_type_index(), Table::hash)) {
      CTIR_DETAIL_SLOT_CASES64(0)
      CTIR_DETAIL_SLOT_CASES64(64)
      CTIR_DETAIL_SLOT_CASES64(128)
      CTIR_DETAIL_SLOT_CASES64(192)
    default:
      return fallback(object);
    }
  }
}

template <class Entries, std::size_t Slot, class... Ts>
constexpr auto slot_entry() noexcept {
  constexpr int position = slot_table<type_list<Ts...>>::position[Slot];
  if constexpr (position >= 0) {
    return &Entries::template entry<pack_element_t<static_cast<std::size_t>(position), Ts...>>;
  } else {
    return &Entries::fallback;
  }
}

template <class Entries, class... Ts, std::size_t... Slots>
constexpr auto make_slot_entries(type_list<Ts...>, std::index_sequence<Slots...>) noexcept {
  return std::array{slot_entry<Entries, Slots, Ts...>()...};
}

/// A table of functions indexed by the perfect hash of Universe's type indices (which must
/// have been found): at the slot of each type T, `&Entries::entry<T>`; at every other slot,
/// `&Entries::fallback`. A call through it is a multiply, a shift and an indirect jump, with
/// none of the range checks a switch adds; an entry must still compare the type index, as a
/// type outside Universe may hash to its slot.
template <class Entries, class Universe>
inline constexpr auto slot_entries = make_slot_entries<Entries>(
    Universe{}, std::make_index_sequence<std::size_t{1} << slot_table<Universe>::hash.bits>{});

#undef CTIR_DETAIL_SLOT_CASE
#undef CTIR_DETAIL_SLOT_CASES4
#undef CTIR_DETAIL_SLOT_CASES16
#undef CTIR_DETAIL_SLOT_CASES64

// ---------------------------------------------------------------------------
// An explicit stack
// ---------------------------------------------------------------------------

/// A stack of trivially copyable entries: the first Inline entries live in the object
/// (no allocation for small values), then the heap, growing geometrically. Push and pop
/// are a few inlined instructions; growth is out of line.
template <class T, std::size_t Inline = 64>
class WorkStack {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  WorkStack() noexcept = default;
  WorkStack(const WorkStack&) = delete;
  WorkStack& operator=(const WorkStack&) = delete;
  ~WorkStack() {
    if (begin_ != inline_) {
      delete[] begin_;
    }
  }

  CTIR_DETAIL_ALWAYS_INLINE void push(const T& value) {
    if (top_ == end_) [[unlikely]] {
      grow();
    }
    *top_++ = value;
  }
  CTIR_DETAIL_ALWAYS_INLINE T pop() noexcept { return *--top_; }
  T& back() noexcept { return top_[-1]; }
  const T& back() const noexcept { return top_[-1]; }
  bool empty() const noexcept { return top_ == begin_; }
  std::size_t size() const noexcept { return static_cast<std::size_t>(top_ - begin_); }
  T* begin() noexcept { return begin_; }
  T* end() noexcept { return top_; }
  const T* begin() const noexcept { return begin_; }
  const T* end() const noexcept { return top_; }

private:
  [[gnu::noinline]] void grow() {
    const std::size_t count = size();
    const std::size_t capacity = static_cast<std::size_t>(end_ - begin_) * 2;
    T* fresh = new T[capacity];
    for (std::size_t i = 0; i < count; ++i) {
      fresh[i] = begin_[i];
    }
    if (begin_ != inline_) {
      delete[] begin_;
    }
    begin_ = fresh;
    top_ = fresh + count;
    end_ = fresh + capacity;
  }

  T inline_[Inline];
  T* begin_ = inline_;
  T* top_ = inline_;
  T* end_ = inline_ + Inline;
};

// ---------------------------------------------------------------------------
// Flat hash maps keyed by node identity
// ---------------------------------------------------------------------------

/// Two nodes, one from each side of a comparison.
struct NodePair {
  const Object* a = nullptr;
  const Object* b = nullptr;
  friend bool operator==(const NodePair&, const NodePair&) = default;
};

inline std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 33U;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 33U;
  x *= 0xC4CEB9FE1A85EC53ULL;
  x ^= x >> 33U;
  return x;
}

// Pairs of nodes as keys of the FlatMaps (core/detail/flat_map.hpp).
inline std::uint64_t key_hash(const NodePair& key) noexcept {
  return (static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key.a)) *
              0x9E3779B97F4A7C15ULL ^
          static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key.b))) *
         0xC2B2AE3D27D4EB4FULL;
}

using ctir::detail::FlatMap;
using ctir::detail::SlotOrder;

/// The nodes visited once (see visited_once_v) that a walk or visit has met.
class VisitedNodes {
public:
  /// Whether this is the first time the traversal meets `node`; records it. Out of line:
  /// only nodes referenced more than once ask.
  CTIR_DETAIL_NOINLINE bool first_visit(const Object& node) {
    if (seen_.find(&node) != nullptr) {
      return false;
    }
    seen_.insert_new(&node, true);
    return true;
  }

private:
  FlatMap<const Object*, bool, SlotOrder::by_address> seen_;
};

template <class T>
struct is_node_ref : std::false_type {};
template <class T>
struct is_node_ref<Ref<T>> : std::bool_constant<ir_node<T>> {};

template <class T>
struct dependent_false : std::false_type {};

} // namespace ctir::detail::structural

namespace ctir {

/// What structural equality and hashing accept: a Ref to a node, or a value type such as
/// IRModule that exposes its node through `node()`.
template <class T>
concept structural_value = detail::structural::is_node_ref<std::remove_cvref_t<T>>::value ||
    requires(const T& value) {
  requires detail::structural::is_node_ref<std::remove_cvref_t<decltype(value.node())>>::value;
};

} // namespace ctir

namespace ctir::detail::structural {

/// The node behind a structural value.
template <class T>
const Object* root_object(const T& value) noexcept {
  if constexpr (is_node_ref<std::remove_cvref_t<T>>::value) {
    return value.get();
  } else {
    return value.node().get();
  }
}

template <class T>
struct root_node {
  using type = typename std::remove_cvref_t<decltype(std::declval<const T&>().node())>::node_type;
};
template <class T>
struct root_node<Ref<T>> {
  using type = T;
};
/// The static node type behind a structural value (T for Ref<T>).
template <class T>
using root_node_t = typename root_node<std::remove_cvref_t<T>>::type;

} // namespace ctir::detail::structural
