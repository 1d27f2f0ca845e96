// Definitions of <ctir/runtime/map.hpp>.
// The runtime map's engine lives here: a per-type cache and a recursive mapper over the
// types' for_each_child, on top of the explicit-stack engine it hands deep subtrees to.
#pragma once

#include <ctir/runtime/map.hpp>
#include <ctir/runtime/mapped.hpp>

#include <ctir/core/child_visitor.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/map_engine.hpp>
#include <ctir/traverse/detail/map_result.hpp>
#include <ctir/traverse/detail/sharing.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

/// What a runtime map does at a node of a given type, per kind of site.
namespace runtime_map_site {
inline constexpr std::uint8_t idle = 1;    ///< nothing can change in it: it maps to itself
inline constexpr std::uint8_t descend = 2; ///< map the node's children
inline constexpr std::uint8_t matched = 4; ///< call the node's callback
inline constexpr std::uint8_t shared = 8;  ///< mapped once however many uses reach it
inline constexpr std::uint8_t use = 16;    ///< a variable use: its new variable, if any
/// A variable's definition: met again once its variable was rebuilt, it stands for the new
/// one (a shape variable in a second parameter's type).
inline constexpr std::uint8_t def = 32;
} // namespace runtime_map_site

/// What a runtime map needs to know about a node type, looked up once per type.
struct runtime_map_entry {
  /// The type index this entry describes (initialized to one that cannot hash here).
  std::uint32_t index = 0;
  /// runtime_map_site flags, indexed by the DefRegionKind of the site.
  std::array<std::uint8_t, 3> site{};
  /// Whether `match` takes a runtime::Mapped view (in what would be padding).
  bool viewed = false;
  const runtime::Callbacks::Entry* match = nullptr;
  bool (*for_each_child)(const Object&, DefRegionKind, ChildVisitor&) = nullptr;
};

/// The runtime layer's map. Recursive over the node types' for_each_child (compiled from
/// their hooks; the field table for a type registered at run time), with the callback and
/// what to do at each type looked up once per type; a subtree too deep for the native stack
/// goes to the explicit-stack engine it derives from, which shares its memo of shared nodes
/// and its table of rebuilt definitions. A type that cannot lead to a node the callbacks
/// match (the callbacks' reach table) maps to itself unvisited.
///
/// Children report to visit() in field order; each changed child's result is kept with its
/// position among the node's children until the node is rebuilt (clone + set), so a map
/// that changes nothing allocates nothing.
template <rewrite_mode Mode>
class runtime_mapper
    : public rewrite_engine<opaque_root, runtime_set<runtime_op::map>, Mode, no_mutator>,
      private ChildVisitor {
  using engine = rewrite_engine<opaque_root, runtime_set<runtime_op::map>, Mode, no_mutator>;
  using Entry = runtime::Callbacks::Entry;

public:
  explicit runtime_mapper(const runtime::Callbacks& callbacks)
      : engine(runtime_set<runtime_op::map>{&callbacks}), callbacks_(callbacks),
        reach_(callbacks.reach()) {
    // The stack is this map's until it ends (an inner map gets a stack of its own).
    changes_.swap(spare_changes());
    static_assert(cache_size == ChildVisitor::filter_slots);
    for (std::uint32_t slot = 0; slot < cache_size; ++slot) {
      entries_[slot].index = slot ^ 1U; // never looked up in this slot
      filter_[slot].index = slot ^ 1U;
    }
    ChildVisitor::visit = &runtime_mapper::visit;
    ChildVisitor::filter = filter_.data();
  }
  runtime_mapper(const runtime_mapper&) = delete;
  runtime_mapper& operator=(const runtime_mapper&) = delete;
  ~runtime_mapper() {
    changes_.clear();
    spare_changes().swap(changes_);
  }

  /// The result of mapping `root` (empty: unchanged).
  ObjectRef run(const Object& root) {
    const runtime_map_entry& type = lookup(root);
    const std::uint8_t what = type.site[0];
    if (what == runtime_map_site::idle) {
      return ObjectRef();
    }
    mapped_ref result = map_node(root, DefRegionKind::none, type, what);
    note_remapped();
    return result.take();
  }

private:
  static constexpr std::uint32_t cache_size = 128;

  /// A changed child: its position among its parent's children, and its result. A variable
  /// at a use whose site does nothing else (a pure use) is not counted, so that uses can be
  /// passed over by the filter while no definition has been rebuilt (see note_remapped): its
  /// change is marked with `use_position` and is the variable's entry in the remap table.
  /// (Sixteen bytes: the stack's size is taken per node.)
  struct change {
    std::uint32_t position;
    mapped_ref result;
  };
  static constexpr std::uint32_t use_position = 1U << 31;

  CTIR_DETAIL_ALWAYS_INLINE const runtime_map_entry& lookup(const Object& node) {
    const std::uint32_t index = node.dynamic_type_index();
    runtime_map_entry& entry = entries_[index % cache_size];
    if (entry.index != index) [[unlikely]] {
      fill(entry, node);
    }
    return entry;
  }

  CTIR_DETAIL_NOINLINE void fill(runtime_map_entry& entry, const Object& node) {
    const TypeInfo& info = node.type_info();
    entry.index = info.index;
    entry.match = callbacks_.match(node);
    entry.viewed = entry.match != nullptr && static_cast<bool>(entry.match->mapped);
    entry.for_each_child =
        info.for_each_child != nullptr ? info.for_each_child : &for_each_child_by_fields;
    bool reaches = true;
    bool has_children = false;
    if (const reach_type* reach = reach_->find(info.index); reach != nullptr) {
      reaches = reach->reaches;
      has_children = !reach->fields.empty();
    } else {
      // Not in the table (registered during the map): every child field.
      has_children = rewrite_state::has_dynamic_children(node);
    }
    const bool once = structural::visited_once(node);
    ChildVisitor::FilterSlot& slot = filter_[info.index % cache_size];
    slot.index = info.index;
    slot.skip = 0;
    for (const DefRegionKind region :
         {DefRegionKind::none, DefRegionKind::def_simple, DefRegionKind::def_pattern}) {
      const bool use_site = region == DefRegionKind::none && info.is_variable;
      const bool matched = entry.match != nullptr;
      // A variable use changes only when its definition did, which needs its type to lead
      // to a match.
      const bool use = use_site && reaches;
      const bool descend = !use_site && has_children;
      const bool idle = !matched && !descend && !use;
      entry.site[static_cast<std::size_t>(region)] = static_cast<std::uint8_t>(
          (idle ? runtime_map_site::idle : 0U) | (descend ? runtime_map_site::descend : 0U) |
          (matched ? runtime_map_site::matched : 0U) | (use ? runtime_map_site::use : 0U) |
          (info.is_variable && !use_site && !idle ? runtime_map_site::def : 0U) |
          (once && !idle ? runtime_map_site::shared : 0U));
      // A pure use can only change once a definition was rebuilt: until then it is
      // passed over like an idle child (it is not counted either way).
      const bool pure_use = use && !matched && !(once && !idle);
      if (idle || (pure_use && uses_filtered_)) {
        slot.skip = static_cast<std::uint8_t>(slot.skip | (1U << static_cast<unsigned>(region)));
      }
    }
  }

  /// Once a definition was rebuilt, a variable at a use may stand for a new one: the filter
  /// stops passing over pure uses. Called after every step that can rebuild a definition.
  CTIR_DETAIL_ALWAYS_INLINE void note_remapped() {
    if (uses_filtered_ && !this->remap_.empty()) [[unlikely]] {
      unfilter_uses();
    }
  }
  CTIR_DETAIL_NOINLINE void unfilter_uses() {
    uses_filtered_ = false;
    for (std::uint32_t slot = 0; slot < cache_size; ++slot) {
      if (entries_[slot].index == filter_[slot].index &&
          entries_[slot].site[0] == runtime_map_site::use) {
        filter_[slot].skip = static_cast<std::uint8_t>(filter_[slot].skip & ~1U);
      }
    }
  }

  /// The ChildVisitor::visit the node types' for_each_child call back: counts the child's
  /// position, and passes over a child that cannot change in a few instructions. Small, with
  /// calls only in tail position, so that it saves no registers.
  static bool visit(ChildVisitor& self, const Object& node, DefRegionKind region) {
    auto& mapper = static_cast<runtime_mapper&>(self);
    const std::uint32_t index = node.dynamic_type_index();
    const runtime_map_entry& type = mapper.entries_[index % cache_size];
    if (type.index != index) [[unlikely]] {
      return mapper.visit_new_type(node, region);
    }
    const std::uint8_t what = type.site[static_cast<std::size_t>(region)];
    if (what == runtime_map_site::idle) {
      return true;
    }
    if (what == runtime_map_site::use) [[unlikely]] {
      return mapper.map_use(node);
    }
    ++mapper.position_;
    if (what == runtime_map_site::descend) {
      return mapper.descend(node, region, type);
    }
    return mapper.map_child(node, region, type, what);
  }

  /// visit() of a node whose type is not in the cache yet.
  CTIR_DETAIL_NOINLINE bool visit_new_type(const Object& node, DefRegionKind region) {
    (void)lookup(node);
    return visit(*this, node, region);
  }

  // A child's position is not passed down: visit() counted it, so it is position_ - 1
  // whenever the child's own children are not being counted.

  /// A child with children and nothing else to do: mapped, and rebuilt if one of them
  /// changed.
  CTIR_DETAIL_NOINLINE bool descend(const Object& node, DefRegionKind region,
                                    const runtime_map_entry& type) {
    if (stack_below(this->stack_floor_)) [[unlikely]] {
      return map_child(node, region, type, runtime_map_site::descend);
    }
    const std::size_t base = changes_.size();
    const std::uint32_t saved = position_;
    position_ = 0;
    type.for_each_child(node, region, *this);
    position_ = saved;
    if (changes_.size() != base) [[unlikely]] {
      rebuild_child(node, region, base);
    }
    return true;
  }

  /// A pure use met while definitions may have been rebuilt: the new variable, if any.
  CTIR_DETAIL_NOINLINE bool map_use(const Object& node) {
    if (const ObjectRef* fresh = this->remapped(node)) {
      changes_.push_back(change{position_ | use_position, mapped_ref(*fresh)});
    }
    return true;
  }

  /// descend() once some children changed: out of line, so that descend() keeps few
  /// registers.
  CTIR_DETAIL_NOINLINE void rebuild_child(const Object& node, DefRegionKind region,
                                          std::size_t base) {
    mapped_ref result = rebuild(node, region, base);
    if (result.defined()) {
      changes_.push_back(change{position_ - 1, std::move(result)});
    }
  }

  /// A child with a callback, a memo, or a use to resolve (or too deep for recursion).
  CTIR_DETAIL_NOINLINE bool map_child(const Object& node, DefRegionKind region,
                                      const runtime_map_entry& type, std::uint8_t what) {
    mapped_ref result = map_node(node, region, type, what);
    note_remapped();
    if (result.defined()) {
      changes_.push_back(change{position_ - 1, std::move(result)});
    }
    return true;
  }

  /// A node with more to do than mapping its children: the same steps as the engine's
  /// field-table step (rewrite_state::step_dynamic), with what depends on the type cached.
  CTIR_DETAIL_ALWAYS_INLINE mapped_ref map_node(const Object& node, DefRegionKind region,
                                                const runtime_map_entry& type, std::uint8_t what) {
    if (stack_below(this->stack_floor_)) [[unlikely]] {
      return this->map_deep(node, region);
    }
    const bool shared = (what & runtime_map_site::shared) != 0 && region == DefRegionKind::none &&
                        node.use_count() > 1;
    if (shared) {
      if (const ObjectRef* known = this->recalled(node)) {
        return mapped_ref(*known);
      }
    }
    mapped_ref result = map_unshared(node, region, type, what);
    if (shared) {
      this->remember(node, result);
    }
    return result;
  }

  mapped_ref map_unshared(const Object& node, DefRegionKind region, const runtime_map_entry& type,
                          std::uint8_t what) {
    const Entry* const match = type.match;
    bool kept = false;
    if ((what & runtime_map_site::use) != 0 ||
        ((what & runtime_map_site::def) != 0 && this->remapped(node) != nullptr)) {
      const ObjectRef* fresh = this->remapped(node);
      mapped_ref result = fresh != nullptr ? mapped_ref(*fresh) : mapped_ref();
      if (match != nullptr) {
        mapped_ref called =
            call_matched(type, fresh != nullptr ? **fresh : node, node, region, kept);
        if (!kept) {
          result = std::move(called);
        }
      }
      return result;
    }
    if constexpr (Mode == rewrite_mode::map_pre) {
      if (match != nullptr) {
        mapped_ref called = call(*match, node, node, region, kept);
        if (called.defined()) {
          if (is_null_replacement(called.get()) || !rewrite_state::has_dynamic_children(node)) {
            return called;
          }
          return map_replacement(node, called.take(), region);
        }
      }
    }
    if constexpr (Mode == rewrite_mode::map_post) {
      // A variable's definition takes the path below: its rebuilt variable must stand for
      // it at its uses whatever the callback returns.
      if (type.viewed && (what & (runtime_map_site::descend | runtime_map_site::def)) ==
                             runtime_map_site::descend) {
        return map_viewed(node, region, type, *match);
      }
    }
    mapped_ref result;
    if ((what & runtime_map_site::descend) != 0) {
      result = map_children(node, region, type);
    }
    if constexpr (Mode == rewrite_mode::map_post) {
      if (match != nullptr) {
        mapped_ref called =
            call_matched(type, result.defined() ? *result : node, node, region, kept);
        if (!kept) {
          result = std::move(called);
        }
      }
    }
    return result;
  }

  /// Maps a node's children and rebuilds it from those that changed (null: none did); a
  /// definition whose variable is rebuilt stands for the new variable at its uses.
  mapped_ref map_children(const Object& node, DefRegionKind region, const runtime_map_entry& type) {
    const std::size_t base = changes_.size();
    const std::uint32_t saved = position_;
    position_ = 0;
    type.for_each_child(node, region, *this);
    position_ = saved;
    if (changes_.size() == base) [[likely]] {
      return {};
    }
    return rebuild(node, region, base);
  }

  /// Finds the pending changes (from `next` on) of a node's children, met in field order: a
  /// change's position counts the children that are not idle at their site, as visit()
  /// does; whether a child is idle depends on its type and site only, so the filter that
  /// passed over some of them changes nothing.
  struct change_cursor {
    runtime_mapper& mapper;
    DefRegionKind region;
    std::size_t next;
    std::uint32_t position = 0;

    /// The change of `child` (in `field`), or null when it did not change.
    CTIR_DETAIL_ALWAYS_INLINE mapped_ref* operator()(const Object& child, const FieldInfo& field) {
      const DefRegionKind inner = child_region(region, field.def_kind);
      auto& changes = mapper.changes_;
      const std::uint8_t what = mapper.lookup(child).site[static_cast<std::size_t>(inner)];
      if (what == runtime_map_site::idle) {
        return nullptr;
      }
      if (what == runtime_map_site::use) {
        // Uses met at one position are told apart by their variables' new ones.
        if (next == changes.size() || changes[next].position != (position | use_position)) {
          return nullptr;
        }
        const ObjectRef* fresh = mapper.remapped(child);
        if (fresh == nullptr || fresh->get() != changes[next].result.get()) {
          return nullptr;
        }
        return &changes[next++].result;
      }
      if (next == changes.size() || changes[next].position != position++) {
        return nullptr;
      }
      return &changes[next++].result;
    }
  };

  /// The Mapped view of a node whose children's changes are on changes_ from `base` on:
  /// nothing is built unless the callback asks for the node (or keeps it).
  class pending_view final : public runtime::Mapped {
  public:
    pending_view(runtime_mapper& mapper, const ObjectRef& original, DefRegionKind region,
                 std::size_t base) noexcept
        : Mapped(original, mapper.changes_.size() != base,
                 mapper.changes_.size() != base ? nullptr : original.get()),
          mapper_(mapper), region_(region), base_(base) {}

    const ObjectRef& node() const override {
      if (!changed()) {
        return original();
      }
      if (!built_.defined()) {
        built_ = mapper_.rebuild(*original(), region_, base_).take();
        settle(*built_);
      }
      return built_;
    }

    /// Whether the changes are still on the mapper's stack (node() pops them).
    bool pending() const noexcept { return changed() && !built_.defined(); }
    /// The node with its mapped children, taken out of the view (empty: none changed).
    mapped_ref take_node() {
      static_cast<void>(node());
      return changed() ? mapped_ref(std::move(built_)) : mapped_ref();
    }

  private:
    ObjectRef child(const FieldInfo& wanted, std::size_t index) const override {
      // Follows the children up to the one asked for, and finds its change, if any.
      const Object& node = *original();
      change_cursor cursor{mapper_, region_, base_};
      const auto mapped = [&](const Object* child, const FieldInfo& field) -> const mapped_ref* {
        return child != nullptr ? cursor(*child, field) : nullptr;
      };
      const auto value = [](const Object* child, const mapped_ref* change) {
        if (change == nullptr) {
          return ObjectRef::borrow(child);
        }
        return is_null_replacement(change->get()) ? ObjectRef() : ObjectRef::borrow(change->get());
      };
      for (const FieldInfo& field : node.type_info().fields) {
        if (field.ignored() || field.kind == FieldKind::value) {
          continue;
        }
        if (field.kind == FieldKind::node) {
          const Object* child = field.get(node, field);
          const mapped_ref* change = mapped(child, field);
          if (&field == &wanted) {
            return value(child, change);
          }
        } else {
          const std::size_t size = field.size(node, field);
          for (std::size_t i = 0; i < size; ++i) {
            const Object* child = field.at(node, field, i);
            const mapped_ref* change = mapped(child, field);
            if (&field == &wanted && i == index) {
              return value(child, change);
            }
          }
        }
      }
      return ObjectRef(); // not reached: `wanted` is one of the node's fields
    }

    runtime_mapper& mapper_;
    DefRegionKind region_;
    std::size_t base_;
    mutable ObjectRef built_;
  };

  /// A post-order node whose callback takes a Mapped view: its children are mapped, the
  /// callback reads them, and the node is rebuilt only if the callback keeps it.
  CTIR_DETAIL_NOINLINE mapped_ref map_viewed(const Object& node, DefRegionKind region,
                                             const runtime_map_entry& type, const Entry& match) {
    const std::size_t base = changes_.size();
    const std::uint32_t saved = position_;
    position_ = 0;
    type.for_each_child(node, region, *this);
    position_ = saved;
    borrowed_ref<Object> original(&node);
    pending_view view(*this, original.get(), region, base);
    bool kept = false;
    mapped_ref result;
    try {
      result = this->take_result(match.mapped(view, region), node, [&kept] {
        kept = true;
        return mapped_ref();
      });
    } catch (...) {
      changes_.resize(base);
      throw;
    }
    if (kept) {
      return view.take_node();
    }
    if (view.pending()) {
      changes_.resize(base);
    }
    return result;
  }

  /// Rebuilds `node` (clone + set) from the changes from `base` on, and pops them.
  CTIR_DETAIL_NOINLINE mapped_ref rebuild(const Object& node, DefRegionKind region,
                                          std::size_t base) {
    Owned<Object> copy =
        rewrite_state::rebuild_dynamic_inline(node, change_cursor{*this, region, base});
    changes_.resize(base);
    if (copy.get() == nullptr) {
      return {};
    }
    ObjectRef rebuilt(std::move(copy));
    if (region != DefRegionKind::none && node.type_info().is_variable) {
      this->remap_.emplace(&node, rebuilt);
      note_remapped();
    }
    return mapped_ref(std::move(rebuilt));
  }

  /// A pre-order replacement: its children are mapped on the explicit stack, as the engine
  /// does, with its check against rewriting a node forever.
  CTIR_DETAIL_NOINLINE mapped_ref map_replacement(const Object& original, ObjectRef node,
                                                  DefRegionKind region) {
    return this->run_on_stack([&] { this->push_replacement(original, std::move(node), region); },
                              this->step_hooks());
  }

  /// Runs `entry`'s callback on `shown` (the node, or what it became); the result is
  /// relative to `original`, and `kept` tells whether the callback said "unchanged".
  CTIR_DETAIL_NOINLINE mapped_ref call(const Entry& entry, const Object& shown,
                                       const Object& original, DefRegionKind region, bool& kept) {
    borrowed_ref<Object> ref(&shown);
    kept = false;
    return this->take_result(entry.map(ref.get(), region), original, [&kept] {
      kept = true;
      return mapped_ref();
    });
  }

  /// call() or call_with_view(), as the callback of `type` takes.
  CTIR_DETAIL_ALWAYS_INLINE mapped_ref call_matched(const runtime_map_entry& type,
                                                    const Object& shown, const Object& original,
                                                    DefRegionKind region, bool& kept) {
    if (type.viewed) [[unlikely]] {
      return call_with_view(*type.match, shown, original, region, kept);
    }
    return call(*type.match, shown, original, region, kept);
  }

  /// call() for a callback that takes a Mapped view, on a node without children to map (a
  /// variable, a leaf) or already rebuilt: the view shows it as it stands.
  CTIR_DETAIL_NOINLINE mapped_ref call_with_view(const Entry& entry, const Object& shown,
                                                 const Object& original, DefRegionKind region,
                                                 bool& kept) {
    borrowed_ref<Object> before(&original);
    borrowed_ref<Object> after(&shown);
    built_mapped view(before.get(), after.get());
    kept = false;
    return this->take_result(entry.mapped(view, region), original, [&kept] {
      kept = true;
      return mapped_ref();
    });
  }

  /// TypeInfo::for_each_child for a type without one (registered at run time).
  static bool for_each_child_by_fields(const Object& object, DefRegionKind region,
                                       ChildVisitor& visitor) {
    for_each_dynamic_child<false>(object, region, [&](const Object* child, DefRegionKind inner) {
      (void)visitor(*child, inner);
    });
    return true;
  }

  const runtime::Callbacks& callbacks_;
  std::shared_ptr<const reach_table> reach_;
  /// The position of the next child of the node whose children are being mapped.
  std::uint32_t position_ = 0;
  /// Whether the filter passes over pure uses (no definition rebuilt yet).
  bool uses_filtered_ = true;
  std::array<runtime_map_entry, cache_size> entries_{};
  std::array<ChildVisitor::FilterSlot, cache_size> filter_{};
  /// The capacity of a finished map's stack of changes, kept for the thread's next map: a
  /// node can have thousands of changed children (a function's statements), and a stack
  /// that grew once does not allocate again.
  static std::vector<change>& spare_changes() {
    thread_local std::vector<change> spare;
    return spare;
  }
  /// Changed children waiting for their parents to be rebuilt.
  std::vector<change> changes_;
};

} // namespace ctir::detail::traverse

namespace ctir::runtime {

CTIR_INLINE ObjectRef map(const ObjectRef& root, const Callbacks& callbacks, WalkOrder order) {
  using namespace detail::traverse;
  callbacks.expect(Callbacks::Kind::map, "map");
  if (order == WalkOrder::pre) {
    callbacks.expect_no_mapped("map");
  }
  if (!root.defined()) {
    return root;
  }
  ObjectRef result;
  if (order == WalkOrder::pre) {
    result = runtime_mapper<rewrite_mode::map_pre>(callbacks).run(*root);
  } else {
    result = runtime_mapper<rewrite_mode::map_post>(callbacks).run(*root);
  }
  if (!result.defined()) {
    return root;
  }
  return is_null_replacement(result.get()) ? ObjectRef() : result;
}

} // namespace ctir::runtime
