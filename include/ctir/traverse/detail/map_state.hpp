// The part of a map or mutate that does not depend on its callbacks: the explicit stacks,
// the memo of shared nodes, the table of rebuilt definitions, and the field-table steps. The
// engine (one class per callback set) derives from it, so a program compiles this code once,
// not once per map.
#pragma once

#include <ctir/core/detail/flat_map.hpp>
#include <ctir/core/inline.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/map_result.hpp>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

/// Which traversal an engine runs.
enum class rewrite_mode : std::uint8_t {
  map_pre,  ///< map, callbacks before the children (the result's children are then mapped)
  map_post, ///< map, callbacks after the children
  mutate,   ///< mutate: a matched callback handles its node and decides about the children
};

class rewrite_state;

/// What the field-table steps of rewrite_state need from the engine, whose code depends on
/// the callbacks: one table per engine type.
struct dynamic_hooks {
  rewrite_mode mode;
  /// Runs the callback matching `shown` at a site of kind `region`, if one does (then true);
  /// `result` is its result relative to `original` (empty: unchanged), `unchanged` whether it
  /// said "unchanged" (the caller decides what that keeps).
  bool (*call)(rewrite_state& state, const Object& shown, const Object& original,
               DefRegionKind region, mapped_ref& result, bool& unchanged);
  /// Whether a node of a type can contain a node some callback matches.
  bool (*may_contain)(std::uint32_t type_index);
  /// Maps the children of a pre-order replacement, then ends it.
  void (*push_replacement)(rewrite_state& state, const Object& original, ObjectRef node,
                           DefRegionKind region);
};

/// What an entry of the explicit stack of a map asks for.
enum class rewrite_item_kind : std::uint8_t {
  remember,         ///< the node above is done: record its result (it is shared)
  enter,            ///< map the node (callbacks included)
  enter_quiet,      ///< map the node's children only (no callback on the node itself)
  exit,             ///< children done: finish the node with its post-order callback
  exit_quiet,       ///< children done: finish the node without callback
  exit_replacement, ///< children of a pre-order replacement done
};

/// An entry of the explicit stack of a map.
struct rewrite_item {
  const Object* node;
  std::size_t base; ///< where the node's children's results start on the result stack
  DefRegionKind region;
  rewrite_item_kind kind;
};

/// The result recorded for a shared node; the entry holds the node too, so that its address
/// cannot be reused by another node while the map runs.
struct shared_result {
  ObjectRef node;
  ObjectRef result;
};

/// The state of one map or mutate, and its steps that no callback takes part in.
class rewrite_state {
public:
  rewrite_state(const rewrite_state&) = delete;
  rewrite_state& operator=(const rewrite_state&) = delete;

protected:
  // Out of line, as the destructor: every map call site constructs one.
  rewrite_state() noexcept;
  ~rewrite_state();

  /// A variable whose definition changed stands for the new variable everywhere.
  void resolve(ObjectRef& node) const;
  mapped_ref resolved(const Object& node) const {
    const ObjectRef* fresh = remapped(node);
    return fresh != nullptr ? mapped_ref(*fresh) : mapped_ref();
  }
  // Inline: it is asked at every variable use, and the table is nearly always empty.
  CTIR_DETAIL_ALWAYS_INLINE const ObjectRef* remapped(const Object& node) const {
    if (remap_.empty()) [[likely]] {
      return nullptr;
    }
    auto it = remap_.find(&node);
    return it == remap_.end() ? nullptr : &it->second;
  }

  /// The result recorded for a shared node (an empty ref: unchanged), or null if none yet.
  const ObjectRef* recalled(const Object& node) noexcept {
    const shared_result* known = shared_.find(&node);
    return known != nullptr ? &known->result : nullptr;
  }
  /// Records a shared node's result.
  void remember(const Object& node, const mapped_ref& result);
  /// Whether the explicit-stack path has the result of a shared node already (then pushed
  /// as the node's result), else arranges to record the result it is about to compute.
  bool recall_or_remember(const Object& node, DefRegionKind region);

  /// Notes that a pre-order callback replaced `original` (an error if it is being replaced
  /// already: the callback would rewrite it forever).
  void enter_replacement(const Object& original);
  /// The result of a pre-order replacement once its children are mapped.
  mapped_ref end_replacement(mapped_ref&& result);

  /// Pushes a node's children, found through its field table, to be mapped.
  void push_dynamic_children(const Object& node, DefRegionKind region);
  static bool has_dynamic_children(const Object& node) noexcept;

  /// Rebuilds a node through its field table (clone + set) from its children's results:
  /// `next(child, field)`, called in field order, gives a child's changed result or null
  /// when it is unchanged; null when none changed. (A template so that each caller reads
  /// its results inline: the explicit stack's, the runtime mapper's.)
  template <class Next>
  static Owned<Object> rebuild_dynamic(const Object& node, Next&& next) {
    return rebuild_dynamic_inline(node, next);
  }
  /// rebuild_dynamic inlined into its caller, for the callers compiled once per program
  /// whose rebuilds are hot (the runtime map's: a call per rebuilt node measured 2%).
  template <class Next>
  CTIR_DETAIL_ALWAYS_INLINE static Owned<Object> rebuild_dynamic_inline(const Object& node,
                                                                        Next&& next) {
    Owned<Object> copy(nullptr);
    auto take = [&](const Object& child, const FieldInfo& field)
                    CTIR_DETAIL_INLINE_LAMBDA -> mapped_ref* {
      mapped_ref* mapped = next(child, field);
      if (mapped == nullptr || !mapped->defined()) {
        return nullptr;
      }
      if (is_null_replacement(mapped->get())) {
        *mapped = mapped_ref();
      }
      if (!fits_field_by_ancestors(field, *mapped)) {
        check_dynamic_field(node, field, *mapped, child);
      }
      if (copy.get() == nullptr) {
        copy = clone_object(node);
      }
      return mapped;
    };
    for (const FieldInfo& field : node.type_info().fields) {
      if (field.ignored() || field.kind == FieldKind::value) {
        continue;
      }
      if (field.kind == FieldKind::node) {
        if (const Object* child = field.get(node, field)) {
          if (mapped_ref* mapped = take(*child, field)) {
            field.set(*copy, field, mapped->take());
          }
        }
      } else {
        const std::size_t size = field.size(node, field);
        for (std::size_t i = 0; i < size; ++i) {
          if (const Object* child = field.at(node, field, i)) {
            if (mapped_ref* mapped = take(*child, field)) {
              field.set_at(*copy, field, i, mapped->take());
            }
          }
        }
      }
    }
    return copy;
  }
  /// Rebuilds a node from the results of its children on the result stack (from `base`),
  /// pops them, and records a definition whose variable changed; null when none changed.
  ObjectRef rebuild_from_results(const Object& node, std::size_t base, DefRegionKind region);

  /// Maps `node` on the explicit stack and returns its result. A callback that catches an
  /// error and carries on finds the stacks as they were.
  template <class Hooks>
  CTIR_DETAIL_NOINLINE mapped_ref map_on_stack(const Object& node, DefRegionKind region,
                                               rewrite_item_kind kind, const Hooks& hooks);
  /// Calls `push`, which pushes work items, runs the explicit stack down to where it was and
  /// returns the result of the first item pushed. A callback that catches an error and
  /// carries on finds the stacks as they were.
  template <class Push, class Hooks>
  CTIR_DETAIL_ALWAYS_INLINE mapped_ref run_on_stack(Push&& push, const Hooks& hooks);
  /// Runs the explicit stack down to `work_base`, every node through the field-table steps.
  template <class Hooks>
  void run_steps(std::size_t work_base, const Hooks& hooks);
  /// One step of the explicit-stack path on a node that no static code handles (a type
  /// registered at run time, or one no callback matches), through its field table.
  template <class Hooks>
  void step_dynamic(const Object& node, const rewrite_item& current, const Hooks& hooks);
  /// A variable at a use, or at a definition already seen, known only at run time.
  template <class Hooks>
  mapped_ref dynamic_var_site(const Object& node, DefRegionKind region, const Hooks& hooks);
  /// Rebuilds a node from its mapped children (clone + set), then runs its post-order
  /// callback.
  template <class Hooks>
  void finish_dynamic(const Object& node, const rewrite_item& current, const Hooks& hooks);

  /// The sizes of the stacks, to restore them when a callback throws.
  struct stack_marks {
    std::size_t work;
    std::size_t results;
    std::size_t replacing;
    std::size_t keep_alive;
  };
  stack_marks marks() const noexcept {
    return {work_.size(), results_.size(), replacing_.size(), keep_alive_.size()};
  }
  void restore(const stack_marks& marks);
  /// The result of the item pushed at `marks`, popped.
  mapped_ref take_result_at(const stack_marks& marks);

  std::uintptr_t stack_floor_;
  DefRegionKind current_region_ = DefRegionKind::none;
  /// Definitions whose variable was rebuilt: old variable -> new variable.
  std::unordered_map<const Object*, ObjectRef> remap_;
  /// Pre-order replacements whose children are being mapped (to catch endless rewriting).
  std::vector<const Object*> replacing_;
  std::vector<ObjectRef> keep_alive_;
  std::vector<rewrite_item> work_;
  std::vector<mapped_ref> results_;
  /// Shared nodes already mapped, with their results.
  FlatMap<const Object*, shared_result, SlotOrder::by_address> shared_;
};

// The field-table steps, for a table of hooks: dynamic_hooks (function pointers: one copy for
// every static map of a program, compiled into the library in compiled mode), or an engine's
// own hooks called directly (the runtime layer's engine, which is compiled once anyway and
// runs every node through these steps).

template <class Hooks>
mapped_ref rewrite_state::map_on_stack(const Object& node, DefRegionKind region,
                                       rewrite_item_kind kind, const Hooks& hooks) {
  return run_on_stack([&] { work_.push_back({&node, 0, region, kind}); }, hooks);
}

template <class Push, class Hooks>
mapped_ref rewrite_state::run_on_stack(Push&& push, const Hooks& hooks) {
  const stack_marks before = marks();
  try {
    std::forward<Push>(push)();
    run_steps(before.work, hooks);
  } catch (...) {
    restore(before);
    throw;
  }
  return take_result_at(before);
}

template <class Hooks>
void rewrite_state::run_steps(std::size_t work_base, const Hooks& hooks) {
  while (work_.size() > work_base) {
    const rewrite_item current = work_.back();
    work_.pop_back();
    if (current.kind == rewrite_item_kind::remember) {
      remember(*current.node, results_.back());
      continue;
    }
    step_dynamic(*current.node, current, hooks);
  }
}

template <class Hooks>
void rewrite_state::step_dynamic(const Object& node, const rewrite_item& current,
                                 const Hooks& hooks) {
  const DefRegionKind region = current.region;
  switch (current.kind) {
  case rewrite_item_kind::remember:
    return;
  case rewrite_item_kind::enter: {
    if (structural::visited_once(node) && recall_or_remember(node, region)) {
      return;
    }
    mapped_ref result;
    bool unchanged = false;
    if (hooks.mode == rewrite_mode::mutate &&
        hooks.call(*this, node, node, region, result, unchanged)) {
      results_.push_back(std::move(result));
      return;
    }
    if (node.type_info().is_variable &&
        (region == DefRegionKind::none || remapped(node) != nullptr)) {
      // A use, or a definition met again (a shape variable in a second parameter's type).
      results_.push_back(dynamic_var_site(node, region, hooks));
      return;
    }
    if (hooks.mode == rewrite_mode::map_pre &&
        hooks.call(*this, node, node, region, result, unchanged) && result.defined()) {
      if (is_null_replacement(result.get()) || !has_dynamic_children(node)) {
        results_.push_back(std::move(result));
      } else {
        hooks.push_replacement(*this, node, result.take(), region);
      }
      return;
    }
    if (!hooks.may_contain(node.dynamic_type_index())) {
      // A node of a compiled-in type that no callback handles and below which none can.
      results_.emplace_back();
      return;
    }
    work_.push_back({&node, results_.size(), region, rewrite_item_kind::exit});
    push_dynamic_children(node, region);
    return;
  }
  case rewrite_item_kind::enter_quiet:
    if (is_dynamic_use_site(node, region)) {
      results_.push_back(resolved(node));
      return;
    }
    work_.push_back({&node, results_.size(), region, rewrite_item_kind::exit_quiet});
    push_dynamic_children(node, region);
    return;
  case rewrite_item_kind::exit:
  case rewrite_item_kind::exit_quiet:
  case rewrite_item_kind::exit_replacement:
    finish_dynamic(node, current, hooks);
    return;
  }
}

template <class Hooks>
mapped_ref rewrite_state::dynamic_var_site(const Object& node, DefRegionKind region,
                                           const Hooks& hooks) {
  const ObjectRef* fresh = remapped(node);
  mapped_ref result = fresh != nullptr ? mapped_ref(*fresh) : mapped_ref();
  if (hooks.mode != rewrite_mode::mutate) {
    const Object& shown = fresh != nullptr ? **fresh : node;
    mapped_ref called;
    bool unchanged = false;
    if (hooks.call(*this, shown, node, region, called, unchanged) && !unchanged) {
      result = std::move(called);
    }
  }
  return result;
}

template <class Hooks>
void rewrite_state::finish_dynamic(const Object& node, const rewrite_item& current,
                                   const Hooks& hooks) {
  const DefRegionKind region = current.region;
  const ObjectRef rebuilt = rebuild_from_results(node, current.base, region);
  mapped_ref result(rebuilt);
  if (hooks.mode == rewrite_mode::map_post && current.kind == rewrite_item_kind::exit) {
    mapped_ref called;
    bool unchanged = false;
    if (hooks.call(*this, rebuilt.defined() ? *rebuilt : node, node, region, called, unchanged) &&
        !unchanged) {
      result = std::move(called);
    }
  }
  if (current.kind == rewrite_item_kind::exit_replacement) {
    result = end_replacement(std::move(result));
  }
  results_.push_back(std::move(result));
}

#ifndef CTIR_HEADER_ONLY
extern template void rewrite_state::step_dynamic<dynamic_hooks>(const Object&, const rewrite_item&,
                                                                const dynamic_hooks&);
extern template void rewrite_state::run_steps<dynamic_hooks>(std::size_t, const dynamic_hooks&);
extern template mapped_ref rewrite_state::map_on_stack<dynamic_hooks>(const Object&, DefRegionKind,
                                                                      rewrite_item_kind,
                                                                      const dynamic_hooks&);
#endif

} // namespace ctir::detail::traverse

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/detail/map_state-inl.hpp>
#endif
