// The static walk: native recursion within a depth budget, an explicit stack beyond it.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/code_owner.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/meta.hpp>
#include <ctir/traverse/detail/type_graph.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

// ---------------------------------------------------------------------------------------
// Payloads: what an interrupt carries back.

template <class R>
struct walk_result_traits {
  static constexpr bool valid = false;
  using payload = void;
};
template <>
struct walk_result_traits<void_result> {
  static constexpr bool valid = true;
  using payload = void;
};
template <class P>
struct walk_result_traits<WalkResult<P>> {
  static constexpr bool valid = true;
  using payload = P;
};
template <>
struct walk_result_traits<unknown_result> {
  static constexpr bool valid = true;
  using payload = void;
};

/// Whether R is a result a walk callback may return.
template <class R>
inline constexpr bool is_walk_result_v = walk_result_traits<R>::valid;

template <class... Ps>
struct payload_merge {
  using list = unique_types_t<
      concat_t<std::conditional_t<std::is_void_v<Ps>, type_list<>, type_list<Ps>>...>>;
  static constexpr bool single = list::size <= 1;
  using type =
      std::conditional_t<list::size == 0, void, list_element_t<0, concat_t<list, type_list<void>>>>;
};

/// The payload type of a set of callbacks: the one non-void payload they interrupt with.
template <class Set, class... Lead>
struct set_payload {
  // A callback set that is not a list of static callbacks (the runtime layer's) names it.
  static constexpr bool single = true;
  using type = typename Set::payload_type;
};
template <class... B, class... Lead>
struct set_payload<callback_set<std::tuple<B...>>, Lead...> {
  using merge =
      payload_merge<typename walk_result_traits<declared_result_t<B, Lead...>>::payload...>;
  static constexpr bool single = merge::single;
  using type = typename merge::type;
};

template <class P>
struct payload_slot {
  std::optional<P> value;
};
template <>
struct payload_slot<void> {};

/// Applies a callback's result: stores an interrupt's payload, returns the action.
template <class Payload, class R>
WalkAction apply_walk_result(payload_slot<Payload>& slot, R&& result) {
  using T = std::remove_cvref_t<R>;
  if constexpr (std::is_same_v<T, void_result>) {
    (void)slot;
    return WalkAction::advance;
  } else {
    static_assert(is_walk_result_v<T>,
                  "ctir::walk: a walk callback returns void, ctir::advance, ctir::skip or "
                  "ctir::interrupt(payload); to rewrite nodes, use ctir::map");
    const WalkAction action = result.action();
    if constexpr (!std::is_void_v<Payload>) {
      if (action == WalkAction::interrupt && !slot.value) {
        if constexpr (!std::is_void_v<typename walk_result_traits<T>::payload>) {
          if (result.payload()) {
            slot.value.emplace(std::move(*std::forward<R>(result).payload()));
            return action;
          }
        }
        if constexpr (std::is_default_constructible_v<Payload>) {
          slot.value.emplace();
        }
      }
    } else {
      // An error here means a callback interrupts with a payload while the walk's payload
      // type is unknown: a generic with_def_region_kind callback's result is only known when
      // it is called; name the variable type in its parameter.
      static_assert(std::is_void_v<typename walk_result_traits<T>::payload>,
                    "ctir::walk: this callback interrupts with a payload the walk cannot "
                    "return; name the node type in its parameter (const Var&) so that the walk "
                    "knows its result type");
      (void)slot;
    }
    return action;
  }
}

/// The result of a step of a walk that cannot be interrupted: always "go on", known to the
/// compiler, so that no flag travels through the recursion.
struct always_true {
  constexpr always_true() noexcept = default;
  constexpr always_true(bool) noexcept {}
  constexpr operator bool() const noexcept { return true; }
};

/// Whether the callback of Set that matches type C (at position K) returns anything but void.
template <class Set, class C, std::size_t K = Set::template first_match_v<C>>
inline constexpr bool may_interrupt_at_v =
    !std::is_same_v<callback_result_t<std::tuple_element_t<K, typename Set::tuple_type>, C>,
                    void_result>;
template <class Set, class C>
inline constexpr bool may_interrupt_at_v<Set, C, npos> = false;

/// Whether some callback of Set, on some node of the types Concrete, returns anything but
/// void (callbacks that may interrupt), or matches nodes of types registered at run time.
template <class Set>
struct set_any_non_void {
  // The runtime layer's callbacks may always interrupt.
  static constexpr bool value = true;
};
template <class... B>
struct set_any_non_void<callback_set<std::tuple<B...>>> {
  static constexpr bool value = (!std::is_same_v<declared_result_t<B>, void_result> || ...);
  // (A generic with_def_region_kind callback counts as one that may interrupt.)
};

// Only when every callback is declared void are the matched types asked one by one.
template <class Set, class Concrete, bool AnyNonVoid = set_any_non_void<Set>::value>
struct set_can_interrupt {
  static constexpr bool value = true;
};
template <class Set, class... Cs>
struct set_can_interrupt<Set, type_list<Cs...>, false> {
  static constexpr bool value = (may_interrupt_at_v<Set, Cs> || ...);
};

/// An entry of the explicit stack of a walk (the same type for every walk of a program, so
/// that the stack's code is compiled once).
struct walk_item {
  const Object* node;
  DefRegionKind region;
  bool exit; ///< post-order: the children are done, call the node's callback
};

/// Pushes a node's children, found through its field table, to be walked.
void push_walk_children(std::vector<walk_item>& stack, const Object& node, DefRegionKind region);

/// What the shared explicit-stack walk needs from an engine, whose code depends on the
/// callbacks: one table per engine type.
struct walk_hooks {
  WalkOrder order;
  /// Calls the callback matching `node` at a site of kind `region` (advance if none does).
  WalkAction (*call)(void* engine, const Object& node, DefRegionKind region);
  /// Whether a callback matches `node` (post-order: whether to come back to it).
  bool (*matches)(const void* engine, const Object& node);
  /// Whether a node of a type can contain a node some callback matches.
  bool (*may_contain)(std::uint32_t type_index);
};

/// The explicit-stack walk of a subtree (too deep for native recursion, or below a node no
/// static code handles), every node through its field table; false once interrupted. One
/// copy per program: a walk call site compiles only its hooks.
bool walk_explicit(const Object& root, DefRegionKind region, void* engine, const walk_hooks& hooks,
                   structural::VisitedNodes& visited);

// ---------------------------------------------------------------------------------------

/// One walk: the callbacks, the pruning table of the root's type graph and the state.
template <class Root, class Set, WalkOrder Order, class Payload>
class walk_engine {
public:
  using universe = reachable_types_t<Root>;
  using concrete = concrete_types_t<universe>;
  using table = contain_table<universe, typename Set::matcher>;
  /// The types whose explicit-stack step is compiled (see handled_types_t).
  using handled = handled_types_t<Set, concrete>;
  /// Whether some callback can stop the walk; if none can, the recursion carries no flag.
  static constexpr bool can_stop = set_can_interrupt<Set, concrete>::value;
  using step_result = std::conditional_t<can_stop, bool, always_true>;

  explicit walk_engine(const Set& set) noexcept : set_(set), stack_floor_(stack_floor()) {}

  /// Walks the node in a field of static type E at a site of kind Region; false once the
  /// walk is interrupted. Inlined where the field is read, so
  /// that a node with nothing to walk below it (a leaf, a variable at a use) costs no call.
  template <class E, DefRegionKind Region, class Host = void, bool InParent = false>
  CTIR_DETAIL_ALWAYS_INLINE step_result walk_ref(const E* node) {
    if (node == nullptr) {
      return true;
    }
    if constexpr (Region == DefRegionKind::def_pattern) {
      return walk_in_pattern(*node);
    } else if constexpr (dispatched_out_of_line_v<E>) {
      return walk_family<E, Region>(*node);
    } else {
      return dispatch_family(
          *node,
          [&](const auto& concrete_node) CTIR_DETAIL_INLINE_LAMBDA -> step_result {
            return walk_concrete<Region, Host, InParent>(concrete_node);
          },
          [&](const Object& other) -> step_result { return walk_deep(&other, Region); });
    }
  }

  /// Whether a field of static type E can lead to a matched node.
  template <class E>
  static constexpr bool may_contain_v = table::template may_contain_v<E>;

  payload_slot<Payload>& payload() noexcept { return payload_; }

  /// Walks a node through its type's field table only (the runtime layer's entry).
  bool walk_dynamic(const Object* node, DefRegionKind region) {
    return node == nullptr || walk_deep(node, region);
  }

private:
  template <std::size_t K, class C>
  WalkAction call(const C& node, DefRegionKind region) {
    node_provider<C> provider{&node};
    return apply_walk_result(payload_, std::get<K>(set_.items).call(provider, region));
  }

  /// Whether a node of type C at a site of kind Region has fields the walk enters.
  template <class C, DefRegionKind Region>
  static constexpr bool has_children_v = table::template enters_children_v<C, Region>;

  /// Whether a field of C, entered at a site of kind Region, leads to one concrete type
  /// whose walk is a call of its own (it enters an array).
  template <class C, std::size_t I, DefRegionKind Region>
  static constexpr bool leads_to_called_type() noexcept {
    using F = field_type_t<C, I>;
    if constexpr (!is_child_field_v<F>) {
      return true;
    } else if constexpr (!may_contain_v<typename F::element_type>) {
      return true;
    } else if constexpr (F::kind != FieldKind::node) {
      return false;
    } else {
      using E = typename F::element_type;
      constexpr DefRegionKind inner = child_region(Region, F::def_kind);
      if constexpr (!std::is_same_v<family_t<E>, type_list<E>> || is_use_site<E>(inner)) {
        return false;
      } else {
        return enters_array<E>();
      }
    }
  }

  template <class F>
  static constexpr bool entered_array() noexcept {
    if constexpr (is_child_field_v<F> && F::kind == FieldKind::node_array) {
      return may_contain_v<typename F::element_type>;
    } else {
      return false;
    }
  }

  template <class C>
  static constexpr bool enters_array() noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (entered_array<field_type_t<C, I>>() || ...);
    }
    (std::make_index_sequence<field_count_v<C>>{});
  }

  /// Whether the walk of a node of type C is written into its parent's loop instead of a
  /// call of its own, as a hand-written walk does with a For and its block: C enters only
  /// single-node fields, each of one concrete type that enters an array. That type's walk
  /// is a call that checks the budget, so every cycle of the recursion still checks it and
  /// inlining cannot recurse.
  template <class C, DefRegionKind Region>
  static constexpr bool walked_in_parent() noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (leads_to_called_type<C, I, Region>() && ...);
    }
    (std::make_index_sequence<field_count_v<C>>{});
  }

  /// Whether a node of type C is walked in its parent's loop (it has children to walk).
  template <class C, DefRegionKind Region>
  static constexpr bool walked_in_parent_here() noexcept {
    if constexpr (has_children_v<C, Region>) {
      return walked_in_parent<C, Region>();
    } else {
      return false;
    }
  }

  template <class... Cs, DefRegionKind Region>
  static constexpr bool any_walked_in_parent(type_list<Cs...>,
                                             std::integral_constant<DefRegionKind, Region>) {
    return (walked_in_parent_here<Cs, Region>() || ...);
  }

  /// Whether the walk of a field of static type E at a site of kind Region, inside the walk
  /// of a node of type Host, can come back to a Host through nodes walked in their parent
  /// (a block, a loop in it, the loop's block). Only then does the field's walk carry Host,
  /// so that the walk of every other field is the same code whatever encloses it.
  template <class E, DefRegionKind Region, class Host, bool InParent>
  static constexpr bool leads_back_to_host() noexcept {
    if constexpr (std::is_void_v<Host> || dispatched_out_of_line_v<E>) {
      return false;
    } else if constexpr (!E::is_abstract_type && std::is_final_v<E>) {
      return (InParent && std::is_same_v<E, Host>) || walked_in_parent_here<E, Region>();
    } else {
      return any_walked_in_parent(family_t<E>{}, std::integral_constant<DefRegionKind, Region>{});
    }
  }

  /// The node type whose out-of-line walk may hold one level of its own recursion: one that
  /// enters an array (a block), as a compiler does with a hand-written recursive walk.
  template <class C>
  using inline_host_t = std::conditional_t<enters_array<C>(), C, void>;

  /// Host: the type whose out-of-line walk this code is written into (void once a level of
  /// it is, or where no node walked in its parent leads back to it); InParent: whether a
  /// node walked in its parent leads here.
  template <DefRegionKind Region, class Host, bool InParent, class C>
  CTIR_DETAIL_ALWAYS_INLINE step_result walk_concrete(const C& node) {
    if constexpr (has_children_v<C, Region>) {
      if constexpr (walked_in_parent<C, Region>()) {
        return walk_node<Region, false, Host, true>(node);
      } else if constexpr (InParent && std::is_same_v<C, Host>) {
        // A block reached from a block through a loop or a branch: one level is written in
        // the enclosing block's walk; the level below it is a call again, which checks the
        // budget.
        return walk_node<Region, false, void, false>(node);
      } else if constexpr (Set::template first_match_v<C> == npos) {
        return walk_inner<Region>(static_cast<const code_owner_t<C>&>(node));
      } else {
        return walk_inner<Region>(node);
      }
    } else {
      constexpr std::size_t k = Set::template first_match_v<C>;
      if constexpr (k != npos) {
        const WalkAction action = call<k>(node, Region);
        return action != WalkAction::interrupt;
      } else {
        return true;
      }
    }
  }

  /// A node in a field of a large family's type (see inline_dispatch_limit): one
  /// out-of-line switch per walk and region over the family's members that a callback
  /// handles; any other member, and its subtree, is walked through the field tables.
  template <class E, DefRegionKind Region>
  CTIR_DETAIL_NOINLINE step_result walk_family(const E& node) {
    return dispatch_list(
        handled_types_t<Set, family_t<E>>{}, node,
        [&](const auto& concrete_node) -> step_result {
          return walk_concrete<Region, void, false>(concrete_node);
        },
        [&](const Object& other) -> step_result { return walk_deep(&other, Region); });
  }

  /// A node with children to walk (unless walked in its parent): one out-of-line function per
  /// type and region, the only place where the native recursion deepens, so the only place
  /// that checks the budget.
  template <DefRegionKind Region, class C>
  CTIR_DETAIL_NOINLINE step_result walk_inner(const C& node) {
    return walk_node<Region, true, inline_host_t<C>, false>(node);
  }

  /// A node's callback (pre or post order) and its fields; CheckBudget in a function of
  /// its own, not when walked in its parent.
  template <DefRegionKind Region, bool CheckBudget, class Host, bool InParent, class C>
  CTIR_DETAIL_ALWAYS_INLINE step_result walk_node(const C& node) {
    if constexpr (CheckBudget) {
      if (stack_below(stack_floor_)) [[unlikely]] {
        return walk_deep(&node, Region);
      }
    }
    if constexpr (structural::visited_once_v<C>) {
      if (node.use_count() > 1 && !visited_.first_visit(node)) {
        return true;
      }
    }
    constexpr std::size_t k = Set::template first_match_v<C>;
    if constexpr (Order == WalkOrder::pre && k != npos) {
      const WalkAction action = call<k>(node, Region);
      if (action == WalkAction::interrupt) {
        return false;
      }
      if (action == WalkAction::skip) {
        return true;
      }
    }
    const step_result ok = [&]<std::size_t... I>(std::index_sequence<I...>)
                               CTIR_DETAIL_INLINE_LAMBDA->step_result {
      return (walk_field<C, I, Region, Host, InParent>(node) && ...);
    }
    (std::make_index_sequence<field_count_v<C>>{});
    if (!ok) {
      return false;
    }
    if constexpr (Order == WalkOrder::post && k != npos) {
      if (call<k>(node, Region) == WalkAction::interrupt) {
        return false;
      }
    }
    return true;
  }

  template <class C, std::size_t I, DefRegionKind Region, class Host, bool InParent>
  CTIR_DETAIL_ALWAYS_INLINE step_result walk_field(const C& node) {
    using F = field_type_t<C, I>;
    if constexpr (!is_child_field_v<F>) {
      return true;
    } else {
      using E = typename F::element_type;
      if constexpr (!may_contain_v<E>) {
        return true;
      } else {
        constexpr DefRegionKind inner = child_region(Region, F::def_kind);
        constexpr bool back = leads_back_to_host<E, inner, Host, InParent>();
        using NextHost = std::conditional_t<back, Host, void>;
        if constexpr (F::kind == FieldKind::node) {
          constexpr bool next_in_parent = back && InParent;
          return walk_ref<E, inner, NextHost, next_in_parent>(F::get(node).get());
        } else {
          for (const auto& child : F::get(node)) {
            if (!walk_ref<E, inner, NextHost, false>(child.get())) {
              return false;
            }
          }
          return true;
        }
      }
    }
  }

  // -------------------------------------------------------------------------------------
  // The explicit-stack walk: the rest of a subtree too deep for native recursion, and any
  // node whose type was registered at run time (walked through its field table).

  using item = walk_item;

  /// Whether the engine runs the explicit-stack steps inline (the runtime layer's, which
  /// runs every node through them) rather than through the shared walk_explicit.
  static constexpr bool inline_steps = requires { Set::inline_dynamic_steps; };

  static WalkAction call_hook(void* self, const Object& node, DefRegionKind region) {
    auto& engine = *static_cast<walk_engine*>(self);
    return dispatch_list(
        handled{}, node,
        [&](const auto& concrete_node) -> WalkAction {
          using C = std::remove_cvref_t<decltype(concrete_node)>;
          return engine.template call<Set::template first_match_v<C>>(concrete_node, region);
        },
        [&](const Object& other) -> WalkAction {
          WalkAction action = WalkAction::advance;
          auto handler = [&](auto&& result) {
            action = apply_walk_result(engine.payload_, std::forward<decltype(result)>(result));
          };
          engine.set_.call_dynamic(other, region, handler);
          return action;
        });
  }
  static bool matches_hook(const void* self, const Object& node) {
    return static_cast<const walk_engine*>(self)->set_.matches_dynamic(node);
  }
  static constexpr walk_hooks hooks{Order, &call_hook, &matches_hook, &table::may_contain_dynamic};

  [[gnu::noinline]] bool walk_deep(const Object* root, DefRegionKind region) {
    if constexpr (inline_steps) {
      return walk_deep_inline(root, region);
    } else {
      return walk_explicit(*root, region, this, hooks, visited_);
    }
  }

  bool walk_deep_inline(const Object* root, DefRegionKind region) {
    std::vector<item> stack;
    stack.push_back({root, region, false});
    while (!stack.empty()) {
      const item current = stack.back();
      stack.pop_back();
      const bool ok = dispatch_list(
          handled{}, *current.node,
          [&](const auto& node) { return deep_step(node, current, stack); },
          [&](const Object& node) { return deep_step_dynamic(node, current, stack); });
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  template <class C>
  bool deep_step(const C& node, const item& current, std::vector<item>& stack) {
    if constexpr (structural::visited_once_v<C>) {
      if (!current.exit && node.use_count() > 1 && !visited_.first_visit(node)) {
        return true;
      }
    }
    constexpr std::size_t k = Set::template first_match_v<C>;
    if constexpr (Order == WalkOrder::post && k != npos) {
      if (current.exit) {
        return call<k>(node, current.region) != WalkAction::interrupt;
      }
      stack.push_back({&node, current.region, true});
    }
    if constexpr (Order == WalkOrder::pre && k != npos) {
      const WalkAction action = call<k>(node, current.region);
      if (action == WalkAction::interrupt) {
        return false;
      }
      if (action == WalkAction::skip) {
        return true;
      }
    }
    if (!is_use_site<C>(current.region)) {
      constexpr std::size_t n = field_count_v<C>;
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (push_field<C, n - 1 - I>(node, current.region, stack), ...);
      }
      (std::make_index_sequence<n>{});
    }
    return true;
  }

  template <class C, std::size_t I>
  void push_field(const C& node, DefRegionKind region, std::vector<item>& stack) {
    using F = field_type_t<C, I>;
    if constexpr (is_child_field_v<F>) {
      if constexpr (may_contain_v<typename F::element_type>) {
        const DefRegionKind inner = child_region(region, F::def_kind);
        if constexpr (F::kind == FieldKind::node) {
          if (const auto* child = F::get(node).get()) {
            stack.push_back({child, inner, false});
          }
        } else {
          const auto& children = F::get(node);
          for (auto it = children.rbegin(); it != children.rend(); ++it) {
            if (const auto* child = it->get()) {
              stack.push_back({child, inner, false});
            }
          }
        }
      }
    }
  }

  bool deep_step_dynamic(const Object& node, const item& current, std::vector<item>& stack) {
    WalkAction action = WalkAction::advance;
    auto handler = [&](auto&& result) {
      action = apply_walk_result(payload_, std::forward<decltype(result)>(result));
    };
    if (current.exit) {
      set_.call_dynamic(node, current.region, handler);
      return action != WalkAction::interrupt;
    }
    if (node.use_count() > 1 && structural::visited_once(node) && !visited_.first_visit(node)) {
      return true;
    }
    if constexpr (Order == WalkOrder::pre) {
      set_.call_dynamic(node, current.region, handler);
      if (action == WalkAction::interrupt) {
        return false;
      }
      if (action == WalkAction::skip) {
        return true;
      }
    } else if (set_.matches_dynamic(node)) {
      stack.push_back({&node, current.region, true});
    }
    if (!is_dynamic_use_site(node, current.region) &&
        table::may_contain_dynamic(node.dynamic_type_index())) {
      push_walk_children(stack, node, current.region);
    }
    return true;
  }

  // -------------------------------------------------------------------------------------
  // Patterns that define variables (the shapes in a parameter's type): one function per
  // walk, through the field tables, with static code only for the types a callback handles.
  // Patterns are few and small; a copy of the static code per node type for them would
  // double what every walk call site compiles.

  CTIR_DETAIL_NOINLINE bool walk_in_pattern(const Object& node) {
    constexpr DefRegionKind region = DefRegionKind::def_pattern;
    if (stack_below(stack_floor_)) [[unlikely]] {
      return walk_deep(&node, region);
    }
    return dispatch_list(
        handled{}, node,
        [&](const auto& concrete_node) -> bool {
          return walk_concrete<region, void, false>(concrete_node);
        },
        [&](const Object& other) -> bool {
          const std::uint32_t index = other.dynamic_type_index();
          if (!table::is_static_type(index)) {
            return walk_deep(&other, region); // a type registered at run time
          }
          if (!table::may_contain_dynamic(index)) {
            return true;
          }
          bool ok = true;
          for_each_dynamic_child<false>(other, region, [&](const Object* child, DefRegionKind) {
            ok = ok && walk_in_pattern(*child);
          });
          return ok;
        });
  }

  const Set set_;
  std::uintptr_t stack_floor_;
  payload_slot<Payload> payload_;
  /// The nodes visited once that the walk has met (see visited_once_v).
  structural::VisitedNodes visited_;
};

} // namespace ctir::detail::traverse

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/detail/walk_engine-inl.hpp>
#endif
