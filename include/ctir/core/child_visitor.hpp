// What a node type's for_each_child and walk_children hooks report its children to.
#pragma once

#include <ctir/core/detail/stack.hpp>
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
  using ForEachChild = bool (*)(const Object&, DefRegionKind, ChildVisitor&);
  struct FilterSlot {
    /// The type index the slot describes (no node has the type index of an empty slot).
    std::uint32_t index = 0;
    /// Bit k set: nothing to do at a node of this type at a site of DefRegionKind k.
    std::uint8_t skip = 0;
    /// Read by a PassThroughVisitor only. Bit k set: at a site of DefRegionKind k, a node
    /// of this type is only its children, which the visitor's `children` entry of the slot
    /// (the type's TypeInfo::walk_children) visits without the call to `visit`.
    std::uint8_t pass_through = 0;
  };
  // Eight bytes, so that the filter is indexed with a scaled address, no shift.
  static_assert(sizeof(FilterSlot) == 8);

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

/// The receiver of TypeInfo::walk_children: a ChildVisitor whose filter also goes straight
/// into the children of a node that is only its children (an interior node no callback
/// matches), one call instead of two. A traversal that must see every node it enters (a
/// map counts them) uses the plain ChildVisitor, which does not pay for the test.
struct PassThroughVisitor : ChildVisitor {
  /// Passing through a node recurses natively: only while the stack is above this floor
  /// (below it, `visit` sees the node and can continue on a heap stack).
  std::uintptr_t native_floor = 0;
  /// filter_slots entries: where a slot's pass_through bits are set, its type's
  /// walk_children.
  const ForEachChild* children = nullptr;

  /// Reports one child: false stops the traversal.
  CTIR_DETAIL_ALWAYS_INLINE bool operator()(const Object& child, DefRegionKind region) {
    const std::uint32_t index = child.dynamic_type_index();
    const FilterSlot& slot = filter[index % filter_slots];
    if (slot.index == index) {
      const unsigned bit = 1U << static_cast<unsigned>(region);
      if ((slot.skip & bit) != 0) {
        return true;
      }
      if ((slot.pass_through & bit) != 0 && !detail::stack_below(native_floor)) {
        return children[index % filter_slots](child, region, *this);
      }
    }
    return visit(*this, child, region);
  }
};

} // namespace ctir
