// The type-erased walk: callbacks registered at run time, nodes walked through their field tables.
#pragma once

#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/walk_engine.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ctir::detail::traverse {

/// One child field of a node type, as the runtime walk reads it.
struct runtime_child_field {
  const FieldInfo* field;
  const Object* (*get)(const Object&, const FieldInfo&);
  std::size_t (*size)(const Object&, const FieldInfo&);
  const Object* (*at)(const Object&, const FieldInfo&, std::size_t);
  DefRegionKind def_kind;
};

/// What a runtime walk needs to know about a node type, looked up once per type: the
/// callback that matches it and its child fields.
struct runtime_type_entry {
  /// The type index this entry describes (initialized to one that cannot hash here).
  std::uint32_t index = 0;
  /// Bit 0: nothing to do at a use site; bit 1: nothing to do at a definition site.
  std::uint8_t idle = 0;
  bool is_variable = false;
  const runtime::Callbacks::Entry* match = nullptr;
  /// The child fields, in order: [first, last) of the walker's field pool.
  std::uint32_t first = 0;
  std::uint32_t last = 0;
};

/// A small direct-mapped cache from type index to runtime_type_entry, so that matching by
/// ancestry and scanning the field table happen once per type, not once per node.
class runtime_type_cache {
public:
  static constexpr std::uint32_t size = 128;

  explicit runtime_type_cache(const runtime::Callbacks& callbacks) noexcept
      : callbacks_(callbacks) {
    for (std::uint32_t slot = 0; slot < size; ++slot) {
      entries_[slot].index = slot ^ 1U; // never looked up in this slot
    }
  }

  CTIR_DETAIL_ALWAYS_INLINE const runtime_type_entry& lookup(const Object& node) {
    const std::uint32_t index = node.dynamic_type_index();
    runtime_type_entry& entry = entries_[index % size];
    if (entry.index != index) [[unlikely]] {
      fill(entry, node);
    }
    return entry;
  }

  /// The child fields of an entry.
  const runtime_child_field* fields() const noexcept { return fields_.data(); }

private:
  CTIR_DETAIL_NOINLINE void fill(runtime_type_entry& entry, const Object& node) {
    const TypeInfo& info = node.type_info();
    entry.index = info.index;
    entry.is_variable = info.is_variable;
    entry.match = callbacks_.match(node);
    // A type evicted and met again appends its fields again: the pool stays small (types
    // times fields), and entries never point into a reallocated range they do not own.
    entry.first = static_cast<std::uint32_t>(fields_.size());
    for (const FieldInfo& field : info.fields) {
      if (!field.ignored() && field.kind != FieldKind::value) {
        fields_.push_back({&field, field.kind == FieldKind::node ? field.get : nullptr, field.size,
                           field.at, field.def_kind});
      }
    }
    entry.last = static_cast<std::uint32_t>(fields_.size());
    const bool has_children = entry.last != entry.first;
    const bool busy = entry.match != nullptr;
    const bool use_idle = !busy && (!has_children || info.is_variable);
    const bool def_idle = !busy && !has_children;
    entry.idle = static_cast<std::uint8_t>((use_idle ? 1U : 0U) | (def_idle ? 2U : 0U));
  }

  const runtime::Callbacks& callbacks_;
  std::array<runtime_type_entry, size> entries_{};
  std::vector<runtime_child_field> fields_;
};

/// The runtime layer's walk: callbacks and child fields found through the type cache;
/// native recursion within the stack budget, an explicit stack beyond it.
template <WalkOrder Order>
class runtime_walker {
public:
  explicit runtime_walker(const runtime::Callbacks& callbacks)
      : cache_(callbacks), stack_floor_(stack_floor()) {}

  /// Walks `root`; returns the interrupt's payload, if any.
  std::optional<ObjectRef> run(const Object* root) {
    if (root != nullptr && !walk(*root, DefRegionKind::none)) {
      return std::move(payload_.value);
    }
    return std::nullopt;
  }

private:
  /// Walks a node; inlined at each child, so that a node with nothing to do (a leaf no
  /// callback matches, a variable at a use) costs no call.
  CTIR_DETAIL_ALWAYS_INLINE bool walk(const Object& node, DefRegionKind region) {
    const runtime_type_entry& type = cache_.lookup(node);
    if ((type.idle >> (region == DefRegionKind::none ? 0 : 1)) & 1U) {
      return true;
    }
    return walk_node(node, type.match, type.first, type.last, type.is_variable, region);
  }

  /// A node with something to do (passed its cache entry's parts, which the recursion
  /// below may evict).
  CTIR_DETAIL_NOINLINE bool walk_node(const Object& node, const runtime::Callbacks::Entry* match,
                                      std::uint32_t first, std::uint32_t last, bool is_variable,
                                      DefRegionKind region) {
    if (stack_position() < stack_floor_) [[unlikely]] {
      return walk_deep(node, region);
    }
    if constexpr (Order == WalkOrder::pre) {
      if (match != nullptr) {
        const WalkAction action = call(*match, node, region);
        if (action != WalkAction::advance) {
          return action != WalkAction::interrupt;
        }
      }
    }
    if (region != DefRegionKind::none || !is_variable) {
      for (std::uint32_t f = first; f != last; ++f) {
        // Indexed, not by pointer: a child's first visit may grow the pool.
        const runtime_child_field& child_field = cache_.fields()[f];
        const DefRegionKind inner = child_region(region, child_field.def_kind);
        if (child_field.get != nullptr) {
          if (const Object* child = child_field.get(node, *child_field.field)) {
            if (!walk(*child, inner)) {
              return false;
            }
          }
        } else {
          const std::size_t size = child_field.size(node, *child_field.field);
          for (std::size_t i = 0; i < size; ++i) {
            const runtime_child_field& array = cache_.fields()[f];
            if (const Object* child = array.at(node, *array.field, i)) {
              if (!walk(*child, inner)) {
                return false;
              }
            }
          }
        }
      }
    }
    if constexpr (Order == WalkOrder::post) {
      if (match != nullptr) {
        return call(*match, node, region) != WalkAction::interrupt;
      }
    }
    return true;
  }

  struct item {
    const Object* node;
    /// Set for the second visit of a node in post-order: the callback to call.
    const runtime::Callbacks::Entry* exit;
    DefRegionKind region;
  };

  CTIR_DETAIL_NOINLINE WalkAction call(const runtime::Callbacks::Entry& entry, const Object& node,
                                       DefRegionKind region) {
    borrowed_ref<Object> ref(&node);
    return apply_walk_result(payload_, entry.walk(ref.get(), region));
  }

  static void push_child(std::vector<item>& stack, const FieldInfo& field, const Object& node,
                         DefRegionKind region) {
    const DefRegionKind inner = child_region(region, field.def_kind);
    if (field.kind == FieldKind::node) {
      if (const Object* child = field.get(node, field)) {
        stack.push_back({child, nullptr, inner});
      }
    } else {
      for (std::size_t i = field.size(node, field); i-- > 0;) {
        if (const Object* child = field.at(node, field, i)) {
          stack.push_back({child, nullptr, inner});
        }
      }
    }
  }

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
      if (current.region == DefRegionKind::none && type.is_variable) {
        continue; // a variable at a use is a leaf
      }
      for (std::uint32_t f = type.last; f-- > type.first;) {
        push_child(stack, *cache_.fields()[f].field, *current.node, current.region);
      }
    }
    return true;
  }

  runtime_type_cache cache_;
  std::uintptr_t stack_floor_;
  payload_slot<ObjectRef> payload_;
};

} // namespace ctir::detail::traverse

namespace ctir::runtime {

/// Walks `root` and calls on each node the first registered callback whose type is the
/// node's type or an ancestor of it (post-order unless `order` is WalkOrder::pre), as
/// ctir::walk does, for any node type, those registered at run time included.
///
/// Returns the interrupt's payload when a callback interrupted (a null ObjectRef for an
/// interrupt without payload), else an empty optional. Throws a ctir::Error if a callback
/// is not a walk callback. The walk runs on an explicit stack: any depth fits.
inline std::optional<ObjectRef> walk(const ObjectRef& root, const Callbacks& callbacks,
                                     WalkOrder order = WalkOrder::post) {
  callbacks.expect(Callbacks::Kind::walk, "walk");
  if (order == WalkOrder::pre) {
    return detail::traverse::runtime_walker<WalkOrder::pre>(callbacks).run(root.get());
  }
  return detail::traverse::runtime_walker<WalkOrder::post>(callbacks).run(root.get());
}

} // namespace ctir::runtime
