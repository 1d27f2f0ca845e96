// Definitions of <ctir/traverse/structural_hash.hpp>.
#pragma once

#include <ctir/traverse/structural_hash.hpp>

#include <ctir/core/error.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace ctir::detail::structural {

// Never inlined into the static fast path, which calls it rarely. The attribute is here, not on
// the declaration: g++ warns about an inline definition after a noinline declaration.
[[gnu::noinline]] CTIR_INLINE std::uint64_t
HashCore::run_iterative(const Object* node, std::uint16_t flags, std::uint64_t acc) {
  if (!plans_ready_) {
    clear_plans();
  }
  acc_ = acc;
  push(HashEntry{node, flags});
  while (true) {
    HashEntry entry;
    if (has_pending_) {
      entry = pending_;
      has_pending_ = false;
    } else {
      // A frame closes when the stack is back to its base; checked only before popping,
      // when no child of the current node waits in the cache.
      while (!frames_.empty() && frames_.back().base == work_.size())
        [[unlikely]] { complete(frames_.pop(), acc_); }
      if (work_.empty()) {
        return acc_;
      }
      entry = work_.pop();
    }
    step(entry);
  }
}

CTIR_INLINE void HashCore::push(const HashEntry& entry) {
  if (has_pending_) {
    work_.push(pending_);
  }
  pending_ = entry;
  has_pending_ = true;
}

CTIR_INLINE void HashCore::step(const HashEntry& e) {
  if (e.node == nullptr) {
    acc_ = fold(acc_, null_token);
    return;
  }
  const Object& node = *e.node;
  const TypeInfo& info = node.type_info();
  const HashPlan& plan = plan_of(info);
  if (plan.tokens == HashPlan::unplanned) [[unlikely]] {
    step_fields(e);
    return;
  }
  std::uint64_t token;
  if (info.is_variable) {
    if (!first_encounter(&node, info.index, e.flags, token)) {
      acc_ = fold(acc_, token);
      return;
    }
  } else if (is_dataflow_type(info) && has_children_runtime(node)) {
    if (graph_node_met_before(&node, token)) {
      acc_ = fold(acc_, token);
      return;
    }
    token = hash_combine(node_seed, info.index);
  } else {
    if (plan.children != 0 && node.use_count() > 1) {
      if (const SubtreeHash* known = memo_.find(&node)) {
        acc_ = skip(acc_, *known);
        return;
      }
      // The node's children go above the current size (the cache is empty: this node
      // was just taken from it or from the stack).
      HashFrame frame = open_shared(&node, acc_);
      frame.base = work_.size();
      frames_.push(frame);
    }
    token = hash_combine(node_seed, info.index);
  }
  const FieldInfo* const fields = info.fields.data();
  for (std::size_t n = 0; n < plan.tokens; ++n) {
    const FieldInfo& field = fields[plan.positions[n]];
    token = hash_combine(token, field.kind == FieldKind::value ? field.hash(node, field)
                                                               : field.size(node, field));
  }
  acc_ = fold(acc_, token);
  const std::size_t end = std::size_t{plan.tokens} + plan.children;
  for (std::size_t n = plan.tokens; n < end; ++n) {
    const FieldInfo& field = fields[plan.positions[n]];
    const std::uint16_t child = child_flags(e.flags, field.def_kind);
    if (field.kind == FieldKind::node) {
      push(HashEntry{field.get(node, field), child});
    } else {
      for (std::size_t k = field.size(node, field); k-- > 0;) {
        push(HashEntry{field.at(node, field, k), child});
      }
    }
  }
}

CTIR_INLINE void HashCore::clear_plans() noexcept {
  for (std::uint32_t slot = 0; slot < plan_slots; ++slot) {
    plans_[slot].index = slot ^ 1U; // a type index never looked up in this slot
  }
  plans_ready_ = true;
}

CTIR_INLINE void HashCore::make_plan(HashPlan& plan, const TypeInfo& info) {
  std::size_t tokens = 0;
  std::size_t children = 0;
  for (const FieldInfo& field : info.fields) {
    if (field.ignored()) {
      continue;
    }
    if (field.kind == FieldKind::value && field.hash == nullptr) {
      throw Error("ctir: structural_hash: field '" + std::string(field.name) + "' of " +
                  std::string(info.key) +
                  " is a plain value without a hash function; give it one or mark it ignore");
    }
    tokens += field.kind != FieldKind::node ? 1U : 0U;
    children += field.kind != FieldKind::value ? 1U : 0U;
  }
  plan.index = info.index;
  if (tokens + children > HashPlan::capacity) {
    plan.tokens = HashPlan::unplanned;
    plan.children = 0;
    return;
  }
  plan.tokens = static_cast<std::uint8_t>(tokens);
  plan.children = static_cast<std::uint8_t>(children);
  std::size_t token_at = 0;
  std::size_t child_at = tokens + children;
  for (std::size_t i = 0; i < info.fields.size(); ++i) {
    const FieldInfo& field = info.fields[i];
    if (field.ignored()) {
      continue;
    }
    if (field.kind != FieldKind::node) {
      plan.positions[token_at++] = static_cast<std::uint16_t>(i);
    }
    if (field.kind != FieldKind::value) {
      plan.positions[--child_at] = static_cast<std::uint16_t>(i);
    }
  }
}

CTIR_INLINE void HashCore::step_fields(const HashEntry& e) {
  const Object& node = *e.node;
  const TypeInfo& info = node.type_info();
  std::uint64_t token;
  if (info.is_variable) {
    if (!first_encounter(&node, info.index, e.flags, token)) {
      acc_ = fold(acc_, token);
      return;
    }
  } else if (is_dataflow_type(info) && has_children_runtime(node)) {
    if (graph_node_met_before(&node, token)) {
      acc_ = fold(acc_, token);
      return;
    }
    token = hash_combine(node_seed, info.index);
  } else {
    if (node.use_count() > 1 && has_node_fields(info)) {
      if (const SubtreeHash* known = memo_.find(&node)) {
        acc_ = skip(acc_, *known);
        return;
      }
      // The node's children go above the current size (the cache is empty: this node
      // was just taken from it or from the stack).
      HashFrame frame = open_shared(&node, acc_);
      frame.base = work_.size();
      frames_.push(frame);
    }
    token = hash_combine(node_seed, info.index);
  }
  acc_ = fold(acc_, value_token(node, token));
  const std::span<const FieldInfo> fields = info.fields;
  for (std::size_t i = fields.size(); i-- > 0;) {
    const FieldInfo& field = fields[i];
    if (field.ignored() || field.kind == FieldKind::value) {
      continue;
    }
    const std::uint16_t child = child_flags(e.flags, field.def_kind);
    if (field.kind == FieldKind::node) {
      push(HashEntry{field.get(node, field), child});
    } else {
      for (std::size_t k = field.size(node, field); k-- > 0;) {
        push(HashEntry{field.at(node, field, k), child});
      }
    }
  }
}

CTIR_INLINE std::uint64_t HashCore::value_token(const Object& node, std::uint64_t seed) {
  const TypeInfo& info = node.type_info();
  for (const FieldInfo& field : info.fields) {
    if (field.ignored()) {
      continue;
    }
    if (field.kind == FieldKind::value) {
      if (field.hash == nullptr) {
        throw Error("ctir: structural_hash: field '" + std::string(field.name) + "' of " +
                    std::string(info.key) +
                    " is a plain value without a hash function; give it one or mark it "
                    "ignore");
      }
      seed = hash_combine(seed, field.hash(node, field));
    } else if (field.kind == FieldKind::node_array) {
      seed = hash_combine(seed, field.size(node, field));
    }
  }
  return seed;
}

CTIR_INLINE bool HashCore::has_node_fields(const TypeInfo& info) noexcept {
  for (const FieldInfo& field : info.fields) {
    if (!field.ignored() && field.kind != FieldKind::value) {
      return true;
    }
  }
  return false;
}

} // namespace ctir::detail::structural
