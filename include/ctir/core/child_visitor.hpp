// What a node type's for_each_child hook reports its children to.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>

#include <cstdint>

namespace ctir {

/// The receiver of TypeInfo::for_each_child: a function called on each child, and a filter
/// of node types with nothing to do, which lets the hook pass over such a child without
/// the call (most leaves, in a typical walk).
struct ChildVisitor {
  /// The filter's size: it is direct-mapped by type index modulo this.
  static constexpr std::uint32_t filter_slots = 128;
  struct FilterSlot {
    /// The type index the slot describes (no node has the type index of an empty slot).
    std::uint32_t index = 0;
    /// Bit k set: nothing to do at a node of this type at a site of DefRegionKind k.
    std::uint8_t skip = 0;
  };

  /// Returns false to stop the traversal.
  bool (*visit)(ChildVisitor& self, const Object& child, DefRegionKind region) = nullptr;
  /// filter_slots entries, never null.
  const FilterSlot* filter = nullptr;

  /// Reports one child: false stops the traversal.
  CTIR_DETAIL_ALWAYS_INLINE bool operator()(const Object& child, DefRegionKind region) {
    const std::uint32_t index = child.dynamic_type_index();
    const FilterSlot& slot = filter[index % filter_slots];
    if (slot.index == index && ((slot.skip >> static_cast<unsigned>(region)) & 1U) != 0) {
      return true;
    }
    return visit(*this, child, region);
  }
};

} // namespace ctir
