// The static map and mutate: the engine that maps children into slots, rebuilds nodes lazily
// and repoints definition sites whose variable changed at their uses.
//
// Longer than most files for a reason: it is one class template, whose recursive path and
// explicit-stack path call each other; its slots and results live in map_slots.hpp and
// map_result.hpp.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/code_owner.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/map_result.hpp>
#include <ctir/traverse/detail/map_slots.hpp>
#include <ctir/traverse/detail/map_state.hpp>
#include <ctir/traverse/detail/meta.hpp>
#include <ctir/traverse/detail/type_graph.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

/// The Derived of a map, which has no mutator.
struct no_mutator {};

/// One map or mutate over a root of static type Root. `Derived` is the mutator (whose
/// callbacks receive it first), or no_mutator for a map.
template <class Root, class Set, rewrite_mode Mode, class Derived>
class rewrite_engine : public rewrite_state {
public:
  using universe = reachable_types_t<Root>;
  using concrete = concrete_types_t<universe>;
  using table = contain_table<universe, typename Set::matcher>;
  /// The types whose explicit-stack step is compiled (see handled_types_t).
  using handled = handled_types_t<Set, concrete>;

  explicit rewrite_engine(const Set& set) noexcept : set_(set) {}

  template <class E>
  static constexpr bool may_contain_v = table::template may_contain_v<E>;

  /// Maps the node in a field of static type E at a site of kind Region into `slot` (left
  /// untouched when the node is unchanged). Inlined where the field is read, so that a node
  /// with nothing to map below it costs no call.
  template <class E, DefRegionKind Region>
  CTIR_DETAIL_ALWAYS_INLINE void map_ref(const Ref<E>& ref, node_slot<E>& slot) {
    const E* node = ref.get();
    if (node == nullptr) {
      return;
    }
    if constexpr (Region == DefRegionKind::def_pattern) {
      mapped_ref result = map_in_pattern(*node);
      if (result.defined()) [[unlikely]] {
        store(slot, std::move(result), *node);
      }
      return;
    }
    mapped_ref result = map_member<E, Region>(*node);
    if (result.defined()) [[unlikely]] {
      store(slot, std::move(result), *node);
    }
  }

  /// Maps a node of E's family: inline over the family's members, or through one out-of-line
  /// switch for a large family (see inline_dispatch_limit).
  template <class E, DefRegionKind Region>
  CTIR_DETAIL_ALWAYS_INLINE mapped_ref map_member(const E& node) {
    if constexpr (dispatched_out_of_line_v<E>) {
      return map_family<E, Region>(node);
    } else {
      return dispatch_family(
          node,
          [&](const auto& concrete_node) CTIR_DETAIL_INLINE_LAMBDA -> mapped_ref {
            return map_concrete<Region>(concrete_node);
          },
          [&](const Object& other) -> mapped_ref { return map_deep(other, Region); });
    }
  }

  /// Maps a node through its type's field table only (the runtime layer's entry).
  ObjectRef map_dynamic(const Object& node) { return map_deep(node, DefRegionKind::none).take(); }

protected:
  // -------------------------------------------------------------------------------------
  // Calling callbacks and reading their results.

  struct region_scope {
    DefRegionKind& target;
    DefRegionKind saved;
    ~region_scope() { target = saved; }
  };

  template <std::size_t K, class Provider>
  auto call(Provider& provider, DefRegionKind region) {
    if constexpr (Mode == rewrite_mode::mutate) {
      region_scope scope{current_region_, current_region_};
      current_region_ = region;
      return std::get<K>(set_.items).call(provider, region, derived());
    } else {
      return std::get<K>(set_.items).call(provider, region);
    }
  }

  Derived& derived() noexcept { return static_cast<Derived&>(*this); }

  /// A callback's result as a mapped node; `keep` gives the result of "unchanged".
  template <class R, class Keep>
  mapped_ref take_result(R&& result, const Object& original, Keep&& keep) {
    using T = std::remove_cvref_t<R>;
    if constexpr (std::is_same_v<T, unchanged_t>) {
      return keep();
    } else if constexpr (requires { result.is_unchanged(); }) {
      if (result.is_unchanged()) {
        return keep();
      }
      return replacement(ObjectRef(std::forward<R>(result).node()), original);
    } else if constexpr (map_result_traits<T>::valid) {
      if (static_cast<const Object*>(result.get()) == &original) {
        return {};
      }
      return replacement(ObjectRef(std::forward<R>(result)), original);
    } else {
      // An error here means a map or mutate callback returns no node (void, a
      // WalkResult ...): return the replacement, the input itself, or ctir::unchanged.
      static_assert(map_result_traits<T>::valid,
                    "ctir::map: a map callback must return a node (return its input, or "
                    "ctir::unchanged, to keep it)");
      return {};
    }
  }

  mapped_ref replacement(ObjectRef node, const Object& original) {
    if (node.get() == &original) {
      return {};
    }
    if (!node.defined()) {
      return mapped_ref(null_replacement());
    }
    resolve(node);
    return mapped_ref(std::move(node));
  }

  // -------------------------------------------------------------------------------------
  // The recursive path.

  /// Whether a node of type C at a site of kind Region has fields the map enters.
  template <class C, DefRegionKind Region>
  static constexpr bool has_children_v = table::template enters_children_v<C, Region>;

  template <DefRegionKind Region, class C>
  CTIR_DETAIL_ALWAYS_INLINE mapped_ref map_concrete(const C& node) {
    constexpr std::size_t k = Set::template first_match_v<C>;
    if constexpr (is_variable_node_v<C>) {
      if constexpr (k == npos || Mode == rewrite_mode::mutate) {
        // No callback for it: a use stands for its new variable, if any (inline, as the
        // common case is a variable use and an empty table).
        const ObjectRef* fresh = remapped(node);
        if (Region == DefRegionKind::none || fresh != nullptr) {
          return fresh != nullptr ? mapped_ref(*fresh) : mapped_ref();
        }
      } else if (Region == DefRegionKind::none || remapped(node) != nullptr) {
        return map_var_site(node, Region);
      }
    }
    if constexpr (has_children_v<C, Region>) {
      if constexpr (k == npos) {
        return map_inner<Region>(static_cast<const code_owner_t<C>&>(node));
      } else {
        return map_inner<Region>(node);
      }
    } else if constexpr (k != npos) {
      // A leaf with a callback (in either order): nothing to rebuild before it, and what it
      // returns stands as it is.
      slots_of<C> none;
      mapped_view<C> view(node, none, false);
      mapped_provider<C> provider{view};
      return take_result(call<k>(provider, Region), node, [] { return mapped_ref(); });
    } else {
      return {};
    }
  }

  /// A node in a field of a large family's type (see inline_dispatch_limit): one
  /// out-of-line switch per map and region over the family's members that a callback
  /// handles; any other member, and its subtree, is mapped through the field tables.
  template <class E, DefRegionKind Region>
  CTIR_DETAIL_NOINLINE mapped_ref map_family(const E& node) {
    return dispatch_list(
        handled_types_t<Set, family_t<E>>{}, node,
        [&](const auto& concrete_node) -> mapped_ref {
          return map_concrete<Region>(concrete_node);
        },
        [&](const Object& other) -> mapped_ref { return map_deep(other, Region); });
  }

  /// A node with children to map: one out-of-line function per type and region, the only
  /// place where the native recursion deepens, so the only place that checks the budget.
  template <DefRegionKind Region, class C>
  CTIR_DETAIL_NOINLINE mapped_ref map_inner(const C& node) {
    if (stack_below(stack_floor_)) [[unlikely]] {
      return map_deep(node, Region);
    }
    if constexpr (Region == DefRegionKind::none && structural::visited_once_v<C>) {
      if (node.use_count() > 1) {
        if (const ObjectRef* known = recalled(node)) {
          return mapped_ref(*known);
        }
        mapped_ref result = map_node<Region>(node);
        remember(node, result);
        return result;
      }
    }
    return map_node<Region>(node);
  }

  /// A node with children to map, after the budget check and the memo.
  template <DefRegionKind Region, class C>
  CTIR_DETAIL_ALWAYS_INLINE mapped_ref map_node(const C& node) {
    constexpr std::size_t k = Set::template first_match_v<C>;
    if constexpr (Mode == rewrite_mode::map_pre && k != npos) {
      slots_of<C> none;
      mapped_view<C> view(node, none, false);
      mapped_provider<C> provider{view};
      mapped_ref result = take_result(call<k>(provider, Region), node, [] { return mapped_ref(); });
      if (result.defined()) {
        if (is_null_replacement(result.get())) {
          return result;
        }
        return map_replacement(node, result.take(), Region);
      }
    }
    slots_of<C> slots;
    const bool changed = map_fields<Region>(node, slots);
    return finish<C, Mode == rewrite_mode::map_post>(node, slots, changed, Region);
  }

  template <DefRegionKind Region, class C>
  CTIR_DETAIL_ALWAYS_INLINE bool map_fields(const C& node, slots_of<C>& slots) {
    if constexpr (is_use_site<C>(Region)) {
      return false;
    } else {
      bool changed = false;
      [&]<std::size_t... I>(std::index_sequence<I...>) CTIR_DETAIL_INLINE_LAMBDA {
        ((changed = map_field<C, I, Region>(node, slots) || changed), ...);
      }
      (std::make_index_sequence<field_count_v<C>>{});
      return changed;
    }
  }

  template <class C, std::size_t I, DefRegionKind Region>
  CTIR_DETAIL_ALWAYS_INLINE bool map_field(const C& node, slots_of<C>& slots) {
    using F = field_type_t<C, I>;
    if constexpr (!is_child_field_v<F>) {
      return false;
    } else {
      using E = typename F::element_type;
      if constexpr (!may_contain_v<E>) {
        return false;
      } else {
        constexpr DefRegionKind inner = child_region(Region, F::def_kind);
        auto& slot = leaf_value<I>(slots);
        if constexpr (F::kind == FieldKind::node) {
          map_ref<E, inner>(F::get(node), slot);
          return slot.changed;
        } else {
          const auto& items = F::get(node);
          const std::size_t count = items.size();
          for (std::size_t j = 0; j < count; ++j) {
            node_slot<E> element;
            map_ref<E, inner>(items[j], element);
            if (element.changed || slot.changed) [[unlikely]] {
              add_array_item(slot, items, j, std::move(element));
            }
          }
          return slot.changed;
        }
      }
    }
  }

  /// Calls f(std::integral_constant<DefRegionKind, region>) for a region known at run time.
  template <class F>
  static decltype(auto) with_region(DefRegionKind region, F&& f) {
    switch (region) {
    case DefRegionKind::def_simple:
      return f(std::integral_constant<DefRegionKind, DefRegionKind::def_simple>{});
    case DefRegionKind::def_pattern:
      return f(std::integral_constant<DefRegionKind, DefRegionKind::def_pattern>{});
    case DefRegionKind::none:
      break;
    }
    return f(std::integral_constant<DefRegionKind, DefRegionKind::none>{});
  }

  /// Ends a node: its definition (if it is a variable that changed), then the post-order
  /// callback, else the rebuilt node. (clang keeps a post-order callback out of line here,
  /// which sends every slot of its node through memory; g++ is 3% slower when forced.)
  template <class C, bool WithCallback>
  CTIR_DETAIL_CLANG_ALWAYS_INLINE mapped_ref finish(const C& node, slots_of<C>& slots, bool changed,
                                                    DefRegionKind region) {
    constexpr std::size_t k = WithCallback ? Set::template first_match_v<C> : npos;
    if constexpr (is_variable_node_v<C>) {
      if (changed && region != DefRegionKind::none) {
        return finish_definition<C, k>(node, slots, region);
      }
    }
    if constexpr (k != npos) {
      mapped_view<C> view(node, slots, changed);
      mapped_provider<C> provider{view};
      return take_result(call<k>(provider, region), node,
                         [&] { return changed ? mapped_ref(view.node()) : mapped_ref(); });
    } else {
      if (!changed) {
        return {};
      }
      return materialize(node, slots);
    }
  }

  /// A definition whose variable changed (its type, say): a new variable, which every later
  /// use stands for; callback k (if any) sees the new one.
  template <class C, std::size_t K>
  CTIR_DETAIL_NOINLINE mapped_ref finish_definition(const C& node, slots_of<C>& slots,
                                                    DefRegionKind region) {
    Ref<C> fresh = materialize(node, slots);
    remap_.emplace(&node, fresh);
    if constexpr (K != npos) {
      slots_of<C> none;
      mapped_view<C> view(*fresh, none, false);
      mapped_provider<C> provider{view};
      return take_result(call<K>(provider, region), node, [&] { return mapped_ref(fresh); });
    } else {
      return fresh;
    }
  }

  /// A variable at a use (or at a definition already seen): stands for its new variable if
  /// its definition changed; matched callbacks see that one.
  template <class C>
  mapped_ref map_var_site(const C& node, DefRegionKind region) {
    const ObjectRef* fresh = remapped(node);
    constexpr std::size_t k = Set::template first_match_v<C>;
    if constexpr (k != npos && Mode != rewrite_mode::mutate) {
      const C& shown = fresh != nullptr ? static_cast<const C&>(**fresh) : node;
      slots_of<C> none;
      mapped_view<C> view(shown, none, false);
      mapped_provider<C> provider{view};
      return take_result(call<k>(provider, region), node,
                         [&] { return fresh != nullptr ? mapped_ref(*fresh) : mapped_ref(); });
    } else {
      (void)region;
      return fresh != nullptr ? mapped_ref(*fresh) : mapped_ref();
    }
  }

  /// Pre-order: a callback replaced `original` by `node`; map the replacement's children.
  mapped_ref map_replacement(const Object& original, ObjectRef node, DefRegionKind region) {
    enter_replacement(original);
    struct leave {
      std::vector<const Object*>& stack;
      ~leave() { stack.pop_back(); }
    } guard{replacing_};
    mapped_ref result;
    dispatch_list(
        concrete{}, *node,
        [&](const auto& concrete_node) {
          using C = std::remove_cvref_t<decltype(concrete_node)>;
          if (is_use_site<C>(region)) {
            return;
          }
          with_region(region, [&](auto region_constant) {
            constexpr DefRegionKind site = decltype(region_constant)::value;
            slots_of<C> slots;
            const bool changed = map_fields<site>(concrete_node, slots);
            result = finish<C, false>(concrete_node, slots, changed, site);
          });
        },
        [&](const Object& other) { result = map_deep(other, region, item_kind::enter_quiet); });
    return result.defined() ? std::move(result) : mapped_ref(std::move(node));
  }

  // -------------------------------------------------------------------------------------
  // The explicit-stack path: subtrees deeper than the stack budget, nodes of types
  // registered at run time, and all of mutate.

  // -------------------------------------------------------------------------------------
  // Sharing: a node visited once (see visited_once_v) that is referenced more than once is
  // mapped once, and every use gets its one result, so the output shares what the input
  // shared.

  using item_kind = rewrite_item_kind;
  using item = rewrite_item;

  mapped_ref map_deep(const Object& node, DefRegionKind region, item_kind kind = item_kind::enter) {
    return map_on_stack(node, region, kind, step_hooks());
  }

  void push_replacement(const Object& original, ObjectRef node, DefRegionKind region) {
    enter_replacement(original);
    const Object* target = node.get();
    keep_alive_.push_back(std::move(node));
    work_.push_back({target, results_.size(), region, item_kind::exit_replacement});
    if (!is_dynamic_use_site(*target, region)) {
      push_dynamic_children(*target, region);
    }
  }

  // Nodes of types registered at run time: through their field table.

  /// Calls the callback matching a node met on the explicit-stack path: the static callback
  /// of a type a callback handles (a Mapped<Node> parameter sees the node as it stands: its
  /// children are mapped already), else a callback matching a type known only at run time.
  template <class Handler>
  bool call_dynamic(const Object& shown, const Object& original, DefRegionKind region,
                    Handler& handler) {
    return dispatch_list(
        handled{}, original,
        [&](const auto& concrete_node) -> bool {
          using C = std::remove_cvref_t<decltype(concrete_node)>;
          // The callback sees the node as the recursive path shows it: the original with
          // its children mapped (a rebuilt node keeps its original's dynamic type), and a
          // variable as the one it stands for.
          const C& mapped = static_cast<const C&>(shown);
          slots_of<C> none;
          auto run = [&](mapped_view<C>& view) {
            mapped_provider<C> provider{view};
            handler(call<Set::template first_match_v<C>>(provider, region));
          };
          if constexpr (is_variable_node_v<C>) {
            mapped_view<C> view(mapped, none, false);
            run(view);
          } else {
            mapped_view<C> view(concrete_node, mapped, none);
            run(view);
          }
          return true;
        },
        [&](const Object&) -> bool {
          if constexpr (matches_handled_only) {
            return false;
          } else {
            return call_unhandled(shown, original, region, handler);
          }
        });
  }

  /// Whether only nodes of the handled types can match a callback: then the explicit-stack
  /// path compiles no second call of each callback for nodes of other types.
  static constexpr bool matches_handled_only = [] {
    if constexpr (requires { Set::template bound_within_v<handled>; }) {
      return Set::template bound_within_v<handled>;
    } else {
      return false; // the runtime layer's callbacks: matched by type key at run time
    }
  }();

  template <class Handler>
  bool call_unhandled(const Object& node, const Object& original, DefRegionKind region,
                      Handler& handler) {
    if constexpr (Mode == rewrite_mode::mutate) {
      region_scope scope{current_region_, current_region_};
      current_region_ = region;
      return set_.call_dynamic(node, region, handler, derived());
    } else if constexpr (requires { set_.call_dynamic_from(node, original, region, handler); }) {
      // The runtime layer's: a callback there may take a Mapped view.
      return set_.call_dynamic_from(node, original, region, handler);
    } else {
      return set_.call_dynamic(node, region, handler);
    }
  }

  /// The callbacks' part of the field-table steps of rewrite_state.
  static bool call_dynamic_hook(rewrite_state& state, const Object& shown, const Object& original,
                                DefRegionKind region, mapped_ref& result, bool& unchanged) {
    auto& self = static_cast<rewrite_engine&>(state);
    bool kept = false;
    auto handler = [&](auto&& value) {
      result = self.take_result(std::forward<decltype(value)>(value), original, [&] {
        kept = true;
        return mapped_ref();
      });
    };
    const bool ran = self.call_dynamic(shown, original, region, handler);
    unchanged = kept;
    return ran;
  }
  static void push_replacement_hook(rewrite_state& state, const Object& original, ObjectRef node,
                                    DefRegionKind region) {
    static_cast<rewrite_engine&>(state).push_replacement(original, std::move(node), region);
  }
  /// The hooks called directly, for a callback set whose engine compiles the field-table
  /// steps inline (the runtime layer's: it runs every node through them).
  struct direct_hooks {
    static constexpr rewrite_mode mode = Mode;
    /// The callbacks, which may make types opaque to the traversal (not_into).
    const Set* set = nullptr;
    static bool call(rewrite_state& state, const Object& shown, const Object& original,
                     DefRegionKind region, mapped_ref& result, bool& unchanged) {
      return call_dynamic_hook(state, shown, original, region, result, unchanged);
    }
    bool may_contain(std::uint32_t type_index) const {
      return table::may_contain_dynamic(type_index) && set->enters_dynamic(type_index);
    }
    static void push_replacement(rewrite_state& state, const Object& original, ObjectRef node,
                                 DefRegionKind region) {
      push_replacement_hook(state, original, std::move(node), region);
    }
  };
  static constexpr bool inline_steps = requires { Set::inline_dynamic_steps; };
  // Only a pre-order map replaces a node before mapping its children.
  static constexpr std::conditional_t<inline_steps, direct_hooks, dynamic_hooks> hooks = [] {
    if constexpr (inline_steps) {
      return direct_hooks{};
    } else {
      return dynamic_hooks{Mode, &call_dynamic_hook, &table::may_contain_dynamic,
                           Mode == rewrite_mode::map_pre ? &push_replacement_hook : nullptr};
    }
  }();

  /// The hooks of the explicit-stack path, whose every node goes through the field-table
  /// steps (the types a callback handles meet it through call_dynamic_hook). The steps are
  /// one copy per program (dynamic_hooks), except for an engine that inlines them (the
  /// runtime layer's), so a map call site compiles no explicit-stack code of its own.
  decltype(auto) step_hooks() const noexcept {
    if constexpr (inline_steps) {
      return direct_hooks{&set_};
    } else {
      return (hooks);
    }
  }

  // -------------------------------------------------------------------------------------
  // Patterns that define variables (the shapes in a parameter's type): one function per
  // map, through the field tables, with static code only for the types a callback handles.
  // Patterns are few and small; a copy of the static code per node type for them would
  // double what every map call site compiles.

  CTIR_DETAIL_NOINLINE mapped_ref map_in_pattern(const Object& node) {
    constexpr DefRegionKind region = DefRegionKind::def_pattern;
    if (stack_below(stack_floor_)) [[unlikely]] {
      return map_deep(node, region);
    }
    return dispatch_list(
        handled{}, node,
        [&](const auto& concrete_node) -> mapped_ref {
          return map_concrete<region>(concrete_node);
        },
        [&](const Object& other) -> mapped_ref { return map_unhandled_in_pattern(other); });
  }

  mapped_ref map_unhandled_in_pattern(const Object& node) {
    const std::uint32_t index = node.dynamic_type_index();
    if (!table::is_static_type(index)) {
      // A type registered at run time: a callback may match it.
      return map_deep(node, DefRegionKind::def_pattern);
    }
    if (node.type_info().is_variable) {
      if (const ObjectRef* fresh = remapped(node)) {
        return mapped_ref(*fresh); // a definition already seen
      }
    }
    if (!table::may_contain_dynamic(index)) {
      return {};
    }
    mapped_ref scratch;
    Owned<Object> copy = rebuild_dynamic(node, [&](const Object& child, const FieldInfo&) {
      scratch = map_in_pattern(child);
      return &scratch;
    });
    if (copy.get() == nullptr) {
      return {};
    }
    ObjectRef rebuilt(std::move(copy));
    if (node.type_info().is_variable) {
      remap_.emplace(&node, rebuilt);
    }
    return mapped_ref(std::move(rebuilt));
  }

  const Set set_;
};

} // namespace ctir::detail::traverse
