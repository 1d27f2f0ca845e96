// Definitions of <ctir/traverse/structural_hash.hpp>.
#pragma once

#include <ctir/traverse/structural_hash.hpp>

#include <cstddef>
#include <cstdint>

namespace ctir::detail::structural {

// Never inlined into the static fast path, which calls it rarely. The attribute is here, not on
// the declaration: g++ warns about an inline definition after a noinline declaration.
[[gnu::noinline]] CTIR_INLINE std::uint64_t
HashCore::run_iterative(const Object* node, std::uint16_t flags, std::uint64_t acc) {
  plans_.prepare();
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
  const FieldPlan plan = plans_.of(info);
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
  for (std::size_t n = 0; n < plan.leading; ++n) {
    const FieldInfo& field = fields[plan.positions[n]];
    token = hash_combine(token, field.kind == FieldKind::value ? field.hash(node, field)
                                                               : field.size(node, field));
  }
  acc_ = fold(acc_, token);
  const std::size_t end = plan.leading + plan.children;
  for (std::size_t n = plan.leading; n < end; ++n) {
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

} // namespace ctir::detail::structural
