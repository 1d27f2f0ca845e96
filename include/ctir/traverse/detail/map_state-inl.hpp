// Definitions of <ctir/traverse/detail/map_state.hpp>.
#pragma once

#include <ctir/traverse/detail/map_state.hpp>

#include <ctir/core/error.hpp>

#include <string>
#include <utility>

namespace ctir::detail::traverse {

CTIR_INLINE rewrite_state::rewrite_state() noexcept : stack_floor_(stack_floor()) {}

CTIR_INLINE rewrite_state::~rewrite_state() = default;

CTIR_INLINE void rewrite_state::resolve(ObjectRef& node) const {
  if (!remap_.empty() && node->type_info().is_variable) {
    auto it = remap_.find(node.get());
    if (it != remap_.end()) {
      node = it->second;
    }
  }
}

CTIR_INLINE void rewrite_state::remember(const Object& node, const mapped_ref& result) {
  shared_.insert_new(
      &node, shared_result{ObjectRef::borrow(&node),
                           result.defined() ? ObjectRef::borrow(result.get()) : ObjectRef()});
}

CTIR_INLINE bool rewrite_state::recall_or_remember(const Object& node, DefRegionKind region) {
  if (region != DefRegionKind::none || node.use_count() <= 1) {
    return false;
  }
  if (const ObjectRef* known = recalled(node)) {
    results_.emplace_back(*known);
    return true;
  }
  work_.push_back({&node, 0, region, rewrite_item_kind::remember});
  return false;
}

CTIR_INLINE void rewrite_state::enter_replacement(const Object& original) {
  for (const Object* active : replacing_) {
    if (active == &original) {
      throw NodeError(ObjectRef::borrow(&original),
                      "ctir::map: in pre-order, the callback for a " +
                          std::string(original.dynamic_type_key()) +
                          " returned a node that contains it, so it would be rewritten "
                          "forever; map in post-order, or return the node itself");
    }
  }
  replacing_.push_back(&original);
}

CTIR_INLINE mapped_ref rewrite_state::end_replacement(mapped_ref&& result) {
  mapped_ref out = result.defined() ? std::move(result) : mapped_ref(keep_alive_.back());
  keep_alive_.pop_back();
  replacing_.pop_back();
  return out;
}

CTIR_INLINE void rewrite_state::push_dynamic_children(const Object& node, DefRegionKind region) {
  for_each_dynamic_child<true>(node, region, [&](const Object* child, DefRegionKind inner) {
    work_.push_back({child, 0, inner, rewrite_item_kind::enter});
  });
}

CTIR_INLINE bool rewrite_state::has_dynamic_children(const Object& node) noexcept {
  for (const FieldInfo& field : node.type_info().fields) {
    if (!field.ignored() && field.kind != FieldKind::value) {
      return true;
    }
  }
  return false;
}

CTIR_INLINE ObjectRef rewrite_state::rebuild_from_results(const Object& node, std::size_t base,
                                                          DefRegionKind region) {
  std::size_t position = base;
  Owned<Object> copy = rebuild_dynamic_inline(
      node, [&](const Object&, const FieldInfo&) { return &results_[position++]; });
  results_.resize(base);
  if (copy.get() == nullptr) {
    return ObjectRef();
  }
  ObjectRef rebuilt(std::move(copy));
  if (region != DefRegionKind::none && node.type_info().is_variable) {
    remap_.emplace(&node, rebuilt);
  }
  return rebuilt;
}

CTIR_INLINE void rewrite_state::restore(const stack_marks& marks) {
  work_.resize(marks.work);
  results_.resize(marks.results);
  replacing_.resize(marks.replacing);
  keep_alive_.resize(marks.keep_alive);
}

CTIR_INLINE mapped_ref rewrite_state::take_result_at(const stack_marks& marks) {
  mapped_ref result = std::move(results_[marks.results]);
  results_.resize(marks.results);
  return result;
}

#ifndef CTIR_HEADER_ONLY
template void rewrite_state::step_dynamic<dynamic_hooks>(const Object&, const rewrite_item&,
                                                         const dynamic_hooks&);
template void rewrite_state::run_steps<dynamic_hooks>(std::size_t, const dynamic_hooks&);
template mapped_ref rewrite_state::map_on_stack<dynamic_hooks>(const Object&, DefRegionKind,
                                                               rewrite_item_kind,
                                                               const dynamic_hooks&);
#endif

} // namespace ctir::detail::traverse
