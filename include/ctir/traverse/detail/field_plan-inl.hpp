// Definitions of <ctir/traverse/detail/field_plan.hpp>.
#pragma once

#include <ctir/traverse/detail/field_plan.hpp>

#include <ctir/core/error.hpp>

#include <string>

namespace ctir::detail::structural {

CTIR_INLINE void FieldPlanCache::clear() noexcept {
  for (std::uint32_t slot = 0; slot < slot_count; ++slot) {
    slots_[slot].index = slot ^ 1U; // a type index never looked up in this slot
  }
  ready_ = true;
}

CTIR_INLINE FieldPlan FieldPlanCache::refill(Slot& slot, const TypeInfo& info) {
  const bool hash = purpose_ == PlanPurpose::hash;
  std::size_t leading = 0;
  std::size_t children = 0;
  for (const FieldInfo& field : info.fields) {
    if (field.ignored()) {
      continue;
    }
    if (field.kind == FieldKind::value && (hash ? field.hash == nullptr : field.equal == nullptr)) {
      throw Error(
          std::string(hash ? "ctir: structural_hash: field '" : "ctir: structural_equal: field '") +
          std::string(field.name) + "' of " + std::string(info.key) +
          (hash ? " is a plain value without a hash function"
                : " is a plain value without an equal function") +
          "; give it one or mark it ignore");
    }
    leading +=
        field.kind == FieldKind::value || (hash && field.kind == FieldKind::node_array) ? 1U : 0U;
    children += field.kind != FieldKind::value ? 1U : 0U;
  }
  std::uint16_t* positions;
  if (leading + children <= slot_capacity) {
    slot.index = info.index;
    slot.leading = static_cast<std::uint8_t>(leading);
    slot.children = static_cast<std::uint8_t>(children);
    positions = slot.positions;
  } else {
    scratch_.resize(leading + children);
    positions = scratch_.data();
  }
  std::size_t leading_at = 0;
  std::size_t child_at = leading + children;
  for (std::size_t i = 0; i < info.fields.size(); ++i) {
    const FieldInfo& field = info.fields[i];
    if (field.ignored()) {
      continue;
    }
    if (field.kind == FieldKind::value || (hash && field.kind == FieldKind::node_array)) {
      positions[leading_at++] = static_cast<std::uint16_t>(i);
    }
    if (field.kind != FieldKind::value) {
      positions[--child_at] = static_cast<std::uint16_t>(i);
    }
  }
  return FieldPlan{positions, leading, children};
}

} // namespace ctir::detail::structural
