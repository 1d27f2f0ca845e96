// The per-type field plans that the iterative structural equality and hash read a node by.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ctir::detail::structural {

/// Which traversal a plan serves: what its leading fields are, and which function a plain
/// value field must have.
enum class PlanPurpose : std::uint8_t {
  equal, ///< leading: the plain values (compared before descending)
  hash,  ///< leading: the plain values and the array lengths (a node's token)
};

/// The fields of one node type that an iterative traversal reads, in the order it reads
/// them: `leading` positions in field order, then `children` child-field positions, last
/// first (the order they are pushed in). Ignored fields are in neither.
struct FieldPlan {
  const std::uint16_t* positions;
  std::size_t leading;
  std::size_t children;
};

/// A small direct-mapped cache of field plans, found once per type. A type with more
/// fields than a slot holds gets its plan rebuilt into a scratch buffer at each use (such
/// types are rare, and the plan is valid until the next call).
class FieldPlanCache {
public:
  explicit FieldPlanCache(PlanPurpose purpose) noexcept : purpose_(purpose) {}

  /// Empties the cache once, before its first use: the slots are left uninitialised until
  /// a traversal needs them.
  CTIR_DETAIL_ALWAYS_INLINE void prepare() noexcept {
    if (!ready_) [[unlikely]] {
      clear();
    }
  }

  /// The plan of `info`'s type (prepare() must have run).
  CTIR_DETAIL_ALWAYS_INLINE FieldPlan of(const TypeInfo& info) {
    Slot& slot = slots_[info.index % slot_count];
    if (slot.index != info.index) [[unlikely]] {
      return refill(slot, info);
    }
    return FieldPlan{slot.positions, slot.leading, slot.children};
  }

private:
  static constexpr std::size_t slot_capacity = 13;
  static constexpr std::uint32_t slot_count = 128;

  struct Slot {
    // No initializers: a traversal fills the slots only when it needs them.
    std::uint32_t index;
    std::uint8_t leading;
    std::uint8_t children;
    std::uint16_t positions[slot_capacity];
  };

  void clear() noexcept;
  FieldPlan refill(Slot& slot, const TypeInfo& info);

  PlanPurpose purpose_;
  bool ready_ = false;
  Slot slots_[slot_count];
  std::vector<std::uint16_t> scratch_;
};

} // namespace ctir::detail::structural

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/detail/field_plan-inl.hpp>
#endif
