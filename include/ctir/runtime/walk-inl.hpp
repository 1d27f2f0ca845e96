// Definitions of <ctir/runtime/walk.hpp>.
// The runtime walk's engine lives here: a per-type cache and a walker over for_each_child.
#pragma once

#include <ctir/runtime/walk.hpp>

#include <ctir/core/child_visitor.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/walk_engine.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace ctir::detail::traverse {

/// TypeInfo::for_each_child for a type without one (registered at run time): the children
/// read through its field table. After a stop, the rest of this node's children are passed
/// over without a call.
CTIR_INLINE bool for_each_child_by_fields(const Object& object, DefRegionKind region,
                                          ChildVisitor& visitor) {
  bool go_on = true;
  for_each_dynamic_child<false>(object, region, [&](const Object* child, DefRegionKind inner) {
    go_on = go_on && visitor(*child, inner);
  });
  return go_on;
}

/// What a runtime walk does at a node of a given type, per kind of site.
namespace runtime_site {
inline constexpr std::uint8_t idle = 1;    ///< no callback, no children to walk
inline constexpr std::uint8_t descend = 2; ///< walk the node's children
inline constexpr std::uint8_t matched = 4; ///< call the node's callback
inline constexpr std::uint8_t shared = 8;  ///< met once however many uses reach it
inline constexpr std::uint8_t pruned = 16; ///< descend through some of the child fields only
} // namespace runtime_site

/// What a runtime walk needs to know about a node type, looked up once per type: the
/// callback that matches it and how to reach its children.
struct alignas(64) runtime_type_entry {
  /// The type index this entry describes (initialized to one that cannot hash here).
  std::uint32_t index = 0;
  /// runtime_site flags, indexed by the DefRegionKind of the site.
  std::array<std::uint8_t, 3> site{};
  const runtime::Callbacks::Entry* match = nullptr;
  bool (*for_each_child)(const Object&, DefRegionKind, ChildVisitor&) = nullptr;
  /// Set when only some child fields can lead to a match: the ones to walk.
  const reach_type* pruned = nullptr;
  /// When those are one or two node fields (a loop's body, a branch's cases): the fields,
  /// read without going through the list.
  std::array<const FieldInfo*, 2> kept{};
};

/// Calls f(child, region) for the children in the listed fields of `object` (positions in
/// its field table), in field order or reversed (to push them on a stack); stops when f
/// returns false, and returns false then.
template <bool Reversed, class F>
bool for_each_listed_child(const Object& object, DefRegionKind region,
                           const std::vector<std::uint32_t>& positions, F&& f) {
  const auto& fields = object.type_info().fields;
  const std::size_t count = positions.size();
  for (std::size_t n = 0; n < count; ++n) {
    const FieldInfo& field = fields[positions[Reversed ? count - 1 - n : n]];
    const DefRegionKind inner = child_region(region, field.def_kind);
    if (field.kind == FieldKind::node) {
      if (const Object* child = field.get(object, field); child != nullptr && !f(*child, inner)) {
        return false;
      }
    } else {
      const std::size_t size = field.size(object, field);
      for (std::size_t m = 0; m < size; ++m) {
        const Object* child = field.at(object, field, Reversed ? size - 1 - m : m);
        if (child != nullptr && !f(*child, inner)) {
          return false;
        }
      }
    }
  }
  return true;
}

/// A small direct-mapped cache from type index to runtime_type_entry, so that matching by
/// ancestry and scanning the field table happen once per type, not once per node. A type
/// that can lead to no match is a leaf here, and a type with some fields that can is
/// entered through those fields only (the callbacks' reach table).
class runtime_type_cache {
public:
  static constexpr std::uint32_t size = 128;

  explicit runtime_type_cache(const runtime::Callbacks& callbacks)
      : callbacks_(callbacks), reach_(callbacks.reach()) {
    static_assert(size == ChildVisitor::filter_slots);
    for (std::uint32_t slot = 0; slot < size; ++slot) {
      entries_[slot].index = slot ^ 1U; // never looked up in this slot
      filter_[slot].index = slot ^ 1U;
    }
  }

  /// The types with nothing to do, for ChildVisitor::filter.
  const ChildVisitor::FilterSlot* filter() const noexcept { return filter_.data(); }
  /// The for_each_child of the filter's types, for PassThroughVisitor::children.
  const ChildVisitor::ForEachChild* children() const noexcept { return children_.data(); }

  /// The entry of the node's type if it is in the cache, else null.
  CTIR_DETAIL_ALWAYS_INLINE const runtime_type_entry* find(const Object& node) const noexcept {
    const std::uint32_t index = node.dynamic_type_index();
    const runtime_type_entry& entry = entries_[index % size];
    return entry.index == index ? &entry : nullptr;
  }

  CTIR_DETAIL_ALWAYS_INLINE const runtime_type_entry& lookup(const Object& node) {
    const std::uint32_t index = node.dynamic_type_index();
    runtime_type_entry& entry = entries_[index % size];
    if (entry.index != index) [[unlikely]] {
      fill(entry, node);
    }
    return entry;
  }

private:
  CTIR_DETAIL_NOINLINE void fill(runtime_type_entry& entry, const Object& node) {
    const TypeInfo& info = node.type_info();
    entry.index = info.index;
    entry.match = callbacks_.match(node);
    entry.for_each_child =
        info.walk_children != nullptr ? info.walk_children : &for_each_child_by_fields;
    entry.pruned = nullptr;
    entry.kept = {nullptr, nullptr};
    bool has_children = false;
    if (const reach_type* reach = reach_->find(info.index); reach != nullptr) {
      has_children = !reach->fields.empty();
      // Where some fields lead nowhere: one or two node fields that do (a loop's body, a
      // branch's cases) are read directly. Otherwise a static type keeps its compiled
      // for_each_child, whose filter passes over each child that leads nowhere in a few
      // instructions, fewer than reading the other fields through the field table
      // (measured); a type registered at run time has only the field table, and reads
      // just the fields that lead somewhere.
      if (has_children && !reach->all_fields) {
        bool direct = reach->fields.size() <= entry.kept.size();
        for (const std::uint32_t position : reach->fields) {
          direct = direct && info.fields[position].kind == FieldKind::node;
        }
        if (direct) {
          for (std::size_t k = 0; k < reach->fields.size(); ++k) {
            entry.kept[k] = &info.fields[reach->fields[k]];
          }
        }
        if (direct || info.for_each_child == nullptr) {
          entry.pruned = reach;
        }
      }
    } else {
      // Not in the table (registered during the walk): every child field.
      for (const FieldInfo& field : info.fields) {
        has_children = has_children || (!field.ignored() && field.kind != FieldKind::value);
      }
    }
    const bool once = structural::visited_once(node);
    ChildVisitor::FilterSlot& filter = filter_[info.index % size];
    filter.index = info.index;
    filter.skip = 0;
    filter.pass_through = 0;
    children_[info.index % size] = entry.for_each_child;
    for (const DefRegionKind region :
         {DefRegionKind::none, DefRegionKind::def_simple, DefRegionKind::def_pattern}) {
      // A variable at a use is a leaf: its type belongs to its definition.
      const bool descend = has_children && !(region == DefRegionKind::none && info.is_variable);
      const bool matched = entry.match != nullptr;
      entry.site[static_cast<std::size_t>(region)] = static_cast<std::uint8_t>(
          (!matched && !descend ? runtime_site::idle : 0U) |
          (descend ? runtime_site::descend : 0U) | (matched ? runtime_site::matched : 0U) |
          (once && descend ? runtime_site::shared : 0U) |
          (descend && entry.pruned != nullptr ? runtime_site::pruned : 0U));
      const auto bit = static_cast<std::uint8_t>(1U << static_cast<unsigned>(region));
      if (!matched && !descend) {
        filter.skip = static_cast<std::uint8_t>(filter.skip | bit);
      }
      if (entry.site[static_cast<std::size_t>(region)] == runtime_site::descend) {
        filter.pass_through = static_cast<std::uint8_t>(filter.pass_through | bit);
      }
    }
  }

  const runtime::Callbacks& callbacks_;
  std::shared_ptr<const reach_table> reach_;
  std::array<runtime_type_entry, size> entries_{};
  std::array<ChildVisitor::FilterSlot, size> filter_{};
  std::array<ChildVisitor::ForEachChild, size> children_{};
};

/// The runtime layer's walk: callbacks and children found through the type cache. A leaf
/// with nothing to do costs a filter test, an interior node that no callback matches the
/// filter test and a call of its type's for_each_child; a node with a callback costs a
/// call here, then of its for_each_child, which calls back here for each child. Native
/// recursion within the stack budget, an explicit stack beyond it.
template <WalkOrder Order>
class runtime_walker : private PassThroughVisitor {
public:
  explicit runtime_walker(const runtime::Callbacks& callbacks) : cache_(callbacks) {
    ChildVisitor::visit = &runtime_walker::visit;
    ChildVisitor::filter = cache_.filter();
    PassThroughVisitor::native_floor = stack_floor();
    PassThroughVisitor::children = cache_.children();
  }
  runtime_walker(const runtime_walker&) = delete;
  runtime_walker& operator=(const runtime_walker&) = delete;

  /// Walks `root`; returns the interrupt's payload, if any.
  std::optional<ObjectRef> run(const Object* root) {
    if (root != nullptr && !visit(*this, *root, DefRegionKind::none)) {
      return std::move(payload_.value);
    }
    return std::nullopt;
  }

private:
  /// The ChildVisitor::visit the node types' for_each_child call back. Nodes with nothing
  /// to do rarely get here: the filter, filled with the cache, passes over them (and
  /// walk_node does nothing for those that do), and it goes straight into the children of
  /// a node no callback matches while the stack allows. Small, with calls only in tail
  /// position, so that it saves no registers.
  static bool visit(ChildVisitor& self, const Object& node, DefRegionKind region) {
    auto& walker = static_cast<runtime_walker&>(self);
    const runtime_type_entry* type = walker.cache_.find(node);
    if (type == nullptr) [[unlikely]] {
      return walker.visit_new_type(node, region);
    }
    const std::uint8_t what = type->site[static_cast<std::size_t>(region)];
    if (what == runtime_site::descend) {
      // No callback: the node's children are all there is to it (a tail call, no frame).
      if (stack_below(walker.native_floor)) [[unlikely]] {
        return walker.walk_deep(node, region);
      }
      return type->for_each_child(node, region, self);
    }
    if ((what & runtime_site::pruned) != 0) {
      return walker.template walk_node<true>(node, region, *type, what);
    }
    return walker.template walk_node<false>(node, region, *type, what);
  }

  /// visit() of a node whose type is not in the cache yet (out of line: a call would make
  /// visit() save registers on every node).
  CTIR_DETAIL_NOINLINE bool visit_new_type(const Object& node, DefRegionKind region) {
    (void)cache_.lookup(node);
    return visit(*this, node, region);
  }

  /// A node with something to do; Pruned: one whose type has fields left out (loops,
  /// branches), compiled apart so that the many with a callback and all their fields do not
  /// pay for reading kept fields.
  template <bool Pruned>
  CTIR_DETAIL_NOINLINE bool walk_node(const Object& node, DefRegionKind region,
                                      const runtime_type_entry& type, std::uint8_t what) {
    if (stack_below(native_floor)) [[unlikely]] {
      return walk_deep(node, region);
    }
    if ((what & runtime_site::shared) != 0 && node.use_count() > 1 && !visited_.first_visit(node)) {
      return true;
    }
    // Loaded before the callback, which the optimizer cannot see through.
    const runtime::Callbacks::Entry* const match = type.match;
    [[maybe_unused]] const auto for_each_child = type.for_each_child;
    if constexpr (Order == WalkOrder::pre) {
      if (match != nullptr) {
        const WalkAction action = call(*match, node, region);
        if (action != WalkAction::advance) {
          return action != WalkAction::interrupt;
        }
      }
    }
    if ((what & runtime_site::descend) != 0) {
      bool go_on;
      if constexpr (!Pruned) {
        go_on = for_each_child(node, region, *this);
      } else if (const FieldInfo* const first = type.kept[0]; first != nullptr) {
        // One or two node fields read in place (a loop's body, a branch's cases).
        const FieldInfo* const second = type.kept[1];
        const Object* child = first->get(node, *first);
        go_on = child == nullptr ||
                PassThroughVisitor::operator()(*child, child_region(region, first->def_kind));
        if (go_on && second != nullptr) {
          child = second->get(node, *second);
          go_on = child == nullptr ||
                  PassThroughVisitor::operator()(*child, child_region(region, second->def_kind));
        }
      } else {
        go_on = walk_kept_fields(node, region, type);
      }
      if (!go_on) {
        return false;
      }
    }
    if constexpr (Order == WalkOrder::post) {
      if (match != nullptr) {
        return call(*match, node, region) != WalkAction::interrupt;
      }
    }
    return true;
  }

  /// The children of a node in the fields that can lead to a match (runtime_site::pruned),
  /// when they are not one or two node fields.
  CTIR_DETAIL_NOINLINE bool walk_kept_fields(const Object& node, DefRegionKind region,
                                             const runtime_type_entry& type) {
    return for_each_listed_child<false>(node, region, type.pruned->fields,
                                        [this](const Object& child, DefRegionKind inner) {
                                          return PassThroughVisitor::operator()(child, inner);
                                        });
  }

  CTIR_DETAIL_NOINLINE WalkAction call(const runtime::Callbacks::Entry& entry, const Object& node,
                                       DefRegionKind region) {
    borrowed_ref<Object> ref(&node);
    return apply_walk_result(payload_, entry.walk(ref.get(), region));
  }

  struct item {
    const Object* node;
    /// Set for the second visit of a node in post-order: the callback to call.
    const runtime::Callbacks::Entry* exit;
    DefRegionKind region;
  };

  /// The rest of a subtree too deep for native recursion, on an explicit stack.
  CTIR_DETAIL_NOINLINE bool walk_deep(const Object& root, DefRegionKind region) {
    std::vector<item> stack;
    stack.push_back({&root, nullptr, region});
    while (!stack.empty()) {
      const item current = stack.back();
      stack.pop_back();
      if (current.exit != nullptr) {
        if (call(*current.exit, *current.node, current.region) == WalkAction::interrupt) {
          return false;
        }
        continue;
      }
      const runtime_type_entry& type = cache_.lookup(*current.node);
      const std::uint8_t what = type.site[static_cast<std::size_t>(current.region)];
      if ((what & runtime_site::shared) != 0 && current.node->use_count() > 1 &&
          !visited_.first_visit(*current.node)) {
        continue;
      }
      if (type.match != nullptr) {
        if constexpr (Order == WalkOrder::pre) {
          const WalkAction action = call(*type.match, *current.node, current.region);
          if (action == WalkAction::interrupt) {
            return false;
          }
          if (action == WalkAction::skip) {
            continue;
          }
        } else {
          stack.push_back({current.node, type.match, current.region});
        }
      }
      if ((what & runtime_site::descend) != 0 && type.pruned != nullptr) {
        for_each_listed_child<true>(*current.node, current.region, type.pruned->fields,
                                    [&](const Object& child, DefRegionKind inner) {
                                      stack.push_back({&child, nullptr, inner});
                                      return true;
                                    });
      } else if ((what & runtime_site::descend) != 0) {
        for_each_dynamic_child<true>(*current.node, current.region,
                                     [&](const Object* child, DefRegionKind inner) {
                                       stack.push_back({child, nullptr, inner});
                                     });
      }
    }
    return true;
  }

  runtime_type_cache cache_;
  payload_slot<ObjectRef> payload_;
  /// The nodes visited once that the walk has met (see visited_once_v).
  structural::VisitedNodes visited_;
};

} // namespace ctir::detail::traverse

namespace ctir::runtime {

CTIR_INLINE std::optional<ObjectRef> walk(const ObjectRef& root, const Callbacks& callbacks,
                                          WalkOrder order) {
  callbacks.expect(Callbacks::Kind::walk, "walk");
  if (order == WalkOrder::pre) {
    return detail::traverse::runtime_walker<WalkOrder::pre>(callbacks).run(root.get());
  }
  return detail::traverse::runtime_walker<WalkOrder::post>(callbacks).run(root.get());
}

} // namespace ctir::runtime
