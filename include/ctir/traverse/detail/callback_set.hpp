// Normalized callbacks: what each matches, the compile-time match table, and invocation.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/meta.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ctir::detail::traverse {

enum class callback_kind : std::uint8_t {
  plain,      ///< a callable whose parameter names the node type
  on,         ///< on<Nodes...>(f)
  def_region, ///< with_def_region_kind(f): f(var, kind) on variable sites
};

/// The node parameter a callable declares at argument position `Position`, if it is not a
/// template: `const For&` gives ForNode with form ref.
template <class F, std::size_t Position, class Signature = callable_signature<std::remove_cv_t<F>>,
          bool Known = Signature::known>
struct declared_param {
  static constexpr bool known = false;
  static constexpr param_form form = param_form::none;
  using node = void;
};
template <class F, std::size_t Position, class Signature>
struct declared_param<F, Position, Signature, true> {
  using args = typename Signature::args;
  using raw = std::conditional_t<
      (Position < args::size),
      list_element_t<(Position < args::size ? Position : 0), concat_t<args, type_list<void>>>,
      void>;
  using info = node_param<std::remove_cvref_t<raw>>;
  static constexpr bool known = info::form != param_form::none;
  static constexpr param_form form = info::form;
  using node = typename info::node;
};

/// What a callable returned, with void made a value so that results can be passed around.
struct void_result {};

template <class G>
auto invoke_decayed(G&& g) {
  using R = decltype(std::forward<G>(g)());
  if constexpr (std::is_void_v<R>) {
    std::forward<G>(g)();
    return void_result{};
  } else {
    return std::decay_t<R>(std::forward<G>(g)());
  }
}

/// Presents a node reached with static type C to a callback.
template <class C>
struct node_provider {
  using node_type = C;
  const C* node;
  const C* object() const noexcept { return node; }
};

/// Whether T is final and in List: no node of a type outside List is a T.
template <class T, class List>
inline constexpr bool final_in_list_v = std::is_final_v<T> && (list_contains_v<T, List>);

/// What a bound callback matches, apart from its callable: the node types it is bound to,
/// those it leaves out (`excluding`) and those the traversal does not enter (`not_into`,
/// left out too). The compile-time predicates depend on this alone, so the traversals of a
/// program whose callbacks match alike share them and the tables built on them.
template <bool DefRegion, class Match, class Excluded, class Opaque>
struct match_shape;

template <bool DefRegion, class... Ts, class... Xs, class... Os>
struct match_shape<DefRegion, type_list<Ts...>, type_list<Xs...>, type_list<Os...>> {
  using match_types = type_list<Ts...>;
  using excluded_types = type_list<Xs...>;
  using opaque_types = type_list<Os...>;
  static constexpr bool is_def_region = DefRegion;

  // The compile-time predicates are variable templates over the compiler's own trait
  // builtins: a traversal asks them for every type of its graph, and a variable template
  // costs a compiler a fraction of a function template's instantiation and constant call.

  /// Whether the traversal must not enter a node of type C (not_into).
  template <class C>
  static constexpr bool opaque_v = (std::is_base_of_v<Os, C> || ...);
  /// Whether type C is left out (it is or derives from an excluded or opaque type).
  template <class C>
  static constexpr bool excluded_v = (std::is_base_of_v<Xs, C> || ...) || opaque_v<C>;
  static bool excluded_dynamic(const Object& object) noexcept {
    return (instance_of<Xs>(object) || ...) || (instance_of<Os>(object) || ...);
  }

  /// Whether a node of concrete static type C is matched.
  template <class C>
  static constexpr bool matches_v = !excluded_v<C> && (std::is_base_of_v<Ts, C> || ...) &&
                                    (!is_def_region || is_variable_node_v<C>);

  /// For an abstract field type E: whether a node of a subtype of E that is not known at
  /// compile time (registered at run time) could be matched, so the field must be entered.
  /// A matched type below E that is not final, or final but outside E's family (a node kind
  /// declared outside the IR, dispatched at run time), may hide in a field of type E.
  template <class E>
  static constexpr bool may_match_unknown_subtype_v =
      !is_def_region && !excluded_v<E> &&
      ((std::is_base_of_v<Ts, E> ||
        (std::is_base_of_v<E, Ts> &&
         (!std::is_final_v<Ts> || !list_contains_v<Ts, family_t<E>>))) ||
       ...);

  /// Whether every type the callback is bound to is final and in List, so that a node of a
  /// type outside List, registered at run time or not, is never matched.
  template <class List>
  static constexpr bool bound_within_v = (final_in_list_v<Ts, List> && ...);

  /// Whether a node of any dynamic type (one registered at run time included) is matched.
  static bool matches_dynamic(const Object& object) noexcept {
    if (excluded_dynamic(object)) {
      return false;
    }
    if constexpr (is_def_region) {
      if (!object.type_info().is_variable) {
        return false;
      }
    }
    return (instance_of<Ts>(object) || ...);
  }
};

/// A callback bound for one traversal: a pointer to the user's callable and what it matches
/// (its match_shape). `Position` is where the node parameter sits (1 for visit and mutate,
/// whose callbacks take the visitor first).
template <callback_kind Kind, class F, class Match, std::size_t Position,
          class Excluded = type_list<>, class Opaque = type_list<>>
struct bound_callback;

template <callback_kind Kind, class F, class... Ts, std::size_t Position, class... Xs, class... Os>
struct bound_callback<Kind, F, type_list<Ts...>, Position, type_list<Xs...>, type_list<Os...>>
    : match_shape<Kind == callback_kind::def_region, type_list<Ts...>, type_list<Xs...>,
                  type_list<Os...>> {
  using shape = match_shape<Kind == callback_kind::def_region, type_list<Ts...>, type_list<Xs...>,
                            type_list<Os...>>;
  using shape::excluded_dynamic;
  using shape::is_def_region;
  using fn_type = F;
  using param = declared_param<F, Position>;
  static constexpr callback_kind kind = Kind;

  // Implicit: bind_callbacks builds the tuple of bound callbacks from the callables.
  constexpr bound_callback(F* callable) noexcept
      : fn(callable) {} // NOLINT(google-explicit-constructor)

  F* fn;

  /// Whether a generic callback can be called with a node presented as a T.
  template <class T, class... Lead>
  static constexpr bool accepts() noexcept {
    // std::disjunction stops at the first match: probing a generic callback with a form
    // it does not expect (a node where it wants a Ref) would instantiate its body.
    return std::disjunction_v<std::is_invocable<F&, Lead&..., const Ref<T>&>,
                              std::is_invocable<F&, Lead&..., const Ref<T>&, DefRegionKind>,
                              std::is_invocable<F&, Lead&..., const T&>,
                              std::is_invocable<F&, Lead&..., const T&, DefRegionKind>>;
  }

  /// Calls the callback on the node the provider presents; `lead` are the arguments before
  /// the node (the visitor). Returns the callback's result, decayed (void as void_result).
  template <class Provider, class... Lead>
  auto call(Provider& provider, DefRegionKind region, Lead&... lead) const {
    using C = typename Provider::node_type;
    auto invoke = [&](auto&& node) {
      return invoke_decayed([&]() -> decltype(auto) {
        if constexpr (is_def_region) {
          return std::invoke(*fn, lead..., node, region);
        } else {
          return std::invoke(*fn, lead..., node);
        }
      });
    };
    if constexpr (param::known) {
      using N = typename param::node;
      // An error here means the callback's parameter cannot receive a node this callback
      // is bound to (on<Stmt>([](const For&) ...)); name a type every bound node has.
      static_assert(std::is_base_of_v<N, C>,
                    "ctir: a callback's parameter type cannot receive every node it is bound "
                    "to by on<...>; name a common base type in the parameter (const Stmt&)");
      if constexpr (param::form == param_form::ref) {
        borrowed_ref<N> borrowed(static_cast<const N*>(provider.object()));
        return invoke(borrowed.get());
      } else if constexpr (param::form == param_form::node) {
        return invoke(*static_cast<const N*>(provider.object()));
      } else {
        static_assert(std::is_same_v<N, C>,
                      "ctir: a callback taking Mapped<Node> must be bound to exactly that "
                      "concrete node type");
        return invoke(provider.mapped());
      }
    } else if constexpr (std::is_invocable_v<F&, Lead&..., const Ref<C>&> ||
                         std::is_invocable_v<F&, Lead&..., const Ref<C>&, DefRegionKind>) {
      borrowed_ref<C> borrowed(provider.object());
      return invoke(borrowed.get());
    } else {
      // An error here means a generic callback cannot be called with the node type it is
      // bound to: check its parameters (visit and mutate callbacks take the visitor first).
      static_assert(std::is_invocable_v<F&, Lead&..., const C&> ||
                        std::is_invocable_v<F&, Lead&..., const C&, DefRegionKind>,
                    "ctir: this callback cannot be called with a node it is bound to; check "
                    "its parameters (visit and mutate callbacks take the visitor first)");
      return invoke(*provider.object());
    }
  }

  /// The node type the callback is declared with: its parameter's, else the first type
  /// named in on<...>.
  using declared_node =
      std::conditional_t<param::known && param::form != param_form::mapped, typename param::node,
                         list_element_t<0, type_list<Ts..., Object>>>;

  /// Calls the callback on a node whose type is known only at run time, if it matches;
  /// `handler` receives the result. Returns whether the callback ran.
  template <class Handler, class... Lead>
  bool call_dynamic(const Object& object, DefRegionKind region, Handler& handler,
                    Lead&... lead) const {
    if (excluded_dynamic(object)) {
      return false;
    }
    if constexpr (is_def_region) {
      if (!object.type_info().is_variable) {
        return false;
      }
    }
    if constexpr (param::form == param_form::mapped) {
      // A Mapped<Node> view exists for compiled-in types only.
      (void)object, (void)region, (void)handler, ((void)lead, ...);
      return false;
    } else if constexpr (param::known) {
      using N = typename param::node;
      if (!(instance_of<Ts>(object) || ...)) {
        return false;
      }
      node_provider<N> provider{static_cast<const N*>(&object)};
      handler(call(provider, region, lead...));
      return true;
    } else {
      bool done = false;
      (
          [&] {
            // A generic callback is offered a node of a run-time type as each type it is
            // bound to that it accepts (a generic with_def_region_kind callback naming its
            // variable type, say, is not offered an Object).
            if constexpr (accepts<Ts, Lead...>()) {
              if (!done && instance_of<Ts>(object)) {
                done = true;
                node_provider<Ts> provider{static_cast<const Ts*>(&object)};
                handler(call(provider, region, lead...));
              }
            }
          }(),
          ...);
      return done;
    }
  }
};

/// Whether R is a WalkResult (what walk callbacks return, and map callbacks must not).
template <class R>
struct walk_result_kind : std::false_type {};
template <class P>
struct walk_result_kind<WalkResult<P>> : std::true_type {};

/// Stands for any provider when only a callback's result type is wanted.
template <class C>
struct probe_provider {
  using node_type = C;
  const C* object() const noexcept;
  mapped_view<C>& mapped() const noexcept;
};

/// A callback's result for a node of static type C (void as void_result).
/// The argument `call` hands a callback for a node of static type C.
template <class B, class C, class... Lead>
struct callback_argument {
  using F = typename B::fn_type;
  static auto probe() {
    if constexpr (B::param::known) {
      using N = typename B::param::node;
      if constexpr (B::param::form == param_form::ref) {
        return std::type_identity<const Ref<N>&>{};
      } else if constexpr (B::param::form == param_form::node) {
        return std::type_identity<const N&>{};
      } else {
        return std::type_identity<mapped_view<C>&>{};
      }
    } else if constexpr (std::disjunction_v<
                             std::is_invocable<F&, Lead&..., const Ref<C>&>,
                             std::is_invocable<F&, Lead&..., const Ref<C>&, DefRegionKind>>) {
      return std::type_identity<const Ref<C>&>{};
    } else {
      return std::type_identity<const C&>{};
    }
  }
  using type = typename decltype(probe())::type;
};

/// What `call` returns for a node of static type C (void as void_result). Found from the
/// callable's declared result, without instantiating `call`: a callback with an explicit
/// result type that calls back into its visitor (default_visit) must not need its own
/// body to tell the visitor's payload type.
template <class B, class C, class... Lead>
struct callback_result {
  using F = typename B::fn_type;
  using Arg = typename callback_argument<B, C, Lead...>::type;
  using R = typename std::conditional_t<B::is_def_region,
                                        std::invoke_result<F&, Lead&..., Arg, DefRegionKind>,
                                        std::invoke_result<F&, Lead&..., Arg>>::type;
  using type = std::conditional_t<std::is_void_v<R>, void_result, std::decay_t<R>>;
};

template <class B, class C, class... Lead>
using callback_result_t = typename callback_result<B, C, Lead...>::type;

/// The declared result of a generic with_def_region_kind callback: it is only known per
/// variable type, when the callback is called.
struct unknown_result {};

template <class B, class... Lead>
struct declared_result {
  using type = callback_result_t<B, typename B::declared_node, Lead...>;
};
template <class B, class... Lead>
requires(B::is_def_region && !B::param::known) struct declared_result<B, Lead...> {
  using type = unknown_result;
};

/// A callback's result for the type it is declared with: what a walk's payload type is
/// found from (unknown_result for a generic with_def_region_kind callback).
template <class B, class... Lead>
using declared_result_t = typename declared_result<B, Lead...>::type;

// ---------------------------------------------------------------------------------------
// From the arguments of walk/map/visit/mutate to a tuple of bound callbacks.

template <class T>
struct is_walk_order : std::false_type {};
template <>
struct is_walk_order<WalkOrder> : std::true_type {};
template <WalkOrder O>
struct is_walk_order<walk_order_constant<O>> : std::true_type {};

template <class T>
struct is_callback_list : std::false_type {};
template <class... Cs>
struct is_callback_list<callback_list<Cs...>> : std::true_type {};

template <class T>
struct is_on_callback : std::false_type {};
template <class F, class... Ns>
struct is_on_callback<on_callback<F, Ns...>> : std::true_type {};

template <class T>
struct is_def_region_callback : std::false_type {};
template <class F>
struct is_def_region_callback<def_region_callback<F>> : std::true_type {};

template <class T>
struct is_excluding_callback : std::false_type {};
template <class C, class... Xs>
struct is_excluding_callback<excluding_callback<C, Xs...>> : std::true_type {};

template <class T>
struct is_not_into_callback : std::false_type {};
template <class C, class... Os>
struct is_not_into_callback<not_into_callback<C, Os...>> : std::true_type {};

/// A bound callback that also leaves out the types of list Extra (excluding), or does not
/// enter them (not_into, Opaque true).
template <class Extra, bool Opaque, class B>
struct with_exclusions;
template <class... Ys, bool Opaque, callback_kind K, class F, class M, std::size_t P, class... Xs,
          class... Os>
struct with_exclusions<type_list<Ys...>, Opaque,
                       bound_callback<K, F, M, P, type_list<Xs...>, type_list<Os...>>> {
  using type =
      std::conditional_t<Opaque,
                         bound_callback<K, F, M, P, type_list<Xs...>, type_list<Os..., Ys...>>,
                         bound_callback<K, F, M, P, type_list<Xs..., Ys...>, type_list<Os...>>>;
};

template <class Extra, bool Opaque, class... B>
auto add_exclusions(const std::tuple<B...>& bound) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::tuple<typename with_exclusions<Extra, Opaque, B>::type...>{
        typename with_exclusions<Extra, Opaque, B>::type{std::get<I>(bound).fn}...};
  }
  (std::index_sequence_for<B...>{});
}

/// The node type a plain callable names in its parameter, as a one-element list (empty
/// when it cannot be told: a generic lambda).
template <class F, std::size_t Position>
using plain_match_t =
    std::conditional_t<declared_param<F, Position>::known,
                       type_list<typename declared_param<F, Position>::node>, type_list<>>;

template <std::size_t Position, class Arg>
auto bind_callbacks(Arg& arg) {
  using A = std::remove_cv_t<Arg>;
  if constexpr (is_walk_order<A>::value) {
    return std::tuple<>{};
  } else if constexpr (is_callback_list<A>::value) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple_cat(bind_callbacks<Position>(get<I>(arg))...);
    }
    (std::make_index_sequence<A::size>{});
  } else if constexpr (is_excluding_callback<A>::value) {
    return add_exclusions<typename A::excluded_types, false>(
        bind_callbacks<Position>(arg.callback));
  } else if constexpr (is_not_into_callback<A>::value) {
    return add_exclusions<typename A::opaque_types, true>(bind_callbacks<Position>(arg.callback));
  } else if constexpr (is_on_callback<A>::value) {
    using F = std::remove_reference_t<decltype((arg.fn))>;
    return std::tuple<bound_callback<callback_kind::on, F, typename A::match_types, Position>>{
        {&arg.fn}};
  } else if constexpr (is_def_region_callback<A>::value) {
    // A generic fn (`const auto& var`) sees every variable.
    using F = std::remove_reference_t<decltype((arg.fn))>;
    using Match = std::conditional_t<declared_param<F, Position>::known, plain_match_t<F, Position>,
                                     type_list<Object>>;
    return std::tuple<bound_callback<callback_kind::def_region, F, Match, Position>>{{&arg.fn}};
  } else {
    return std::tuple<
        bound_callback<callback_kind::plain, Arg, plain_match_t<Arg, Position>, Position>>{{&arg}};
  }
}

template <std::size_t Position, class... Args>
using bound_tuple_t = decltype(std::tuple_cat(
    bind_callbacks<Position>(std::declval<std::remove_reference_t<Args>&>())...));

/// The walk order among the arguments: 0 none given, 1 a compile-time constant, 2 a value.
template <class... Args>
constexpr int order_argument_count() noexcept {
  return (0 + ... + (is_walk_order<std::remove_cvref_t<Args>>::value ? 1 : 0));
}

template <WalkOrder Default, class... Args>
constexpr WalkOrder static_order() noexcept {
  WalkOrder order = Default;
  (
      [&] {
        using A = std::remove_cvref_t<Args>;
        if constexpr (is_walk_order<A>::value && !std::is_same_v<A, WalkOrder>) {
          order = A::value;
        }
      }(),
      ...);
  return order;
}

template <class... Args>
inline constexpr bool has_runtime_order_v = (std::is_same_v<std::remove_cvref_t<Args>, WalkOrder> ||
                                             ...);

template <class... Args>
WalkOrder runtime_order(const Args&... args) noexcept {
  WalkOrder order = WalkOrder::post;
  (
      [&] {
        if constexpr (std::is_same_v<Args, WalkOrder>) {
          order = args;
        }
      }(),
      ...);
  return order;
}

/// Whether bound callbacks B all make the same types opaque (not_into).
template <class... B>
struct same_opaque_types : std::true_type {};
template <class B0, class... B>
struct same_opaque_types<B0, B...>
    : std::bool_constant<(std::is_same_v<typename B0::opaque_types, typename B::opaque_types> &&
                          ...)> {};

/// The position of the first true entry before the last (a sentinel), or npos.
template <std::size_t N>
constexpr std::size_t first_true(const bool (&hits)[N]) noexcept {
  for (std::size_t i = 0; i + 1 < N; ++i) {
    if (hits[i]) {
      return i;
    }
  }
  return npos;
}

/// A matcher's hit test, chosen by whether the type is abstract, so that only one of the
/// two predicates is instantiated per type.
template <bool Abstract>
struct direct_hit {
  template <class Shapes, class T>
  static constexpr bool value = Shapes::template handles_v<T>;
};
template <>
struct direct_hit<true> {
  template <class Shapes, class T>
  static constexpr bool value = Shapes::template unknown_subtype_v<T>;
};

/// The compile-time match table of a traversal's callbacks, from their match_shapes only:
/// two traversals whose callbacks match alike (a walk and a map of Add nodes in different
/// passes) share it, and the pruning table and handled types computed from it.
template <class... S>
struct callback_shapes {
  static constexpr std::size_t size = sizeof...(S);
  /// The key of the tables computed from the callbacks (handled_types_t, contain_table).
  using match_key = callback_shapes;

  /// The index of the first callback that matches concrete type C, or npos.
  template <class C>
  static constexpr std::size_t first_match_v = first_true({S::template matches_v<C>..., false});
  /// Whether some callback matches concrete type C.
  template <class C>
  static constexpr bool handles_v = (S::template matches_v<C> || ...);

  /// Whether some callback is a with_def_region_kind callback.
  static constexpr bool has_def_region = (S::is_def_region || ...);

  // not_into is a property of the whole traversal: a node type is entered for every
  // callback or for none.
  static_assert(same_opaque_types<S...>::value,
                "ctir::not_into<Node...>: wrap every callback of the traversal, as in "
                "not_into<Type>(callbacks(f, g)), so that no callback needs what the "
                "traversal does not enter");

  /// Whether the traversal does not enter nodes of type T (not_into).
  template <class T>
  static constexpr bool opaque_v = (S::template opaque_v<T> && ...) && size > 0;

  /// Whether the type registered at run time under `index` derives from one of Opaque.
  template <class Opaque>
  static bool opaque_below(std::uint32_t index) noexcept {
    return [&]<class... Os>(type_list<Os...>) {
      if constexpr (sizeof...(Os) == 0) {
        static_cast<void>(index);
        return false;
      } else {
        const TypeInfo* type = TypeRegistry::global().find(index);
        return type != nullptr && (type->derives_from(Os::type_index, Os::type_depth) || ...);
      }
    }(Opaque{});
  }

  /// The hit predicate of the pruning table, and the types it must not enter.
  struct matcher {
    template <class T>
    static constexpr bool opaque_v = callback_shapes::opaque_v<T>;
    /// Whether the type registered at run time under `index` derives from a type the
    /// traversal must not enter.
    static bool opaque_dynamic(std::uint32_t index) noexcept {
      if constexpr (size == 0) {
        static_cast<void>(index);
        return false;
      } else {
        return opaque_below<typename pack_element_t<0, S...>::opaque_types>(index);
      }
    }
    template <class T>
    static constexpr bool direct_v =
        direct_hit<T::is_abstract_type>::template value<callback_shapes, T>;
  };

  /// Whether some callback may match a node of a subtype of abstract type E unknown at
  /// compile time.
  template <class E>
  static constexpr bool unknown_subtype_v = (S::template may_match_unknown_subtype_v<E> || ...);

  /// Whether no callback matches a node of a type outside List (see
  /// match_shape::bound_within_v).
  template <class List>
  static constexpr bool bound_within_v = (S::template bound_within_v<List> && ...);
};

/// The bound callbacks of one traversal; its compile-time match table is its base (built
/// as `Set{{}, bound}`).
template <class Tuple>
struct callback_set;
template <class... B>
struct callback_set<std::tuple<B...>> : callback_shapes<typename B::shape...> {
  using tuple_type = std::tuple<B...>;
  tuple_type items;

  /// Whether some callback matches a node known only at run time.
  bool matches_dynamic(const Object& object) const noexcept {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(items).matches_dynamic(object) || ...);
    }
    (std::index_sequence_for<B...>{});
  }

  /// Calls the first callback matching a node known only at run time; returns whether one
  /// ran. `handler` receives its result.
  template <class Handler, class... Lead>
  bool call_dynamic(const Object& object, DefRegionKind region, Handler& handler,
                    Lead&... lead) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(items).call_dynamic(object, region, handler, lead...) || ...);
    }
    (std::index_sequence_for<B...>{});
  }
};

} // namespace ctir::detail::traverse
