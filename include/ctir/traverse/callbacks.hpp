// The callback vocabulary of walk, map, visit and mutate: matching, order and results.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/core/type_list.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace ctir {

namespace detail::traverse {
template <class T>
struct ref_traits {
  static constexpr bool is_ref = false;
};
template <class N>
struct ref_traits<Ref<N>> {
  static constexpr bool is_ref = true;
  using node = N;
};
} // namespace detail::traverse

/// A handle with value semantics around a node (IRModule): traversals go through
/// `handle.node()`, and map and mutate return a handle around the result.
template <class H>
concept node_handle = requires(const H& handle) {
  handle.node();
}
&&detail::traverse::ref_traits<
    std::remove_cvref_t<decltype(std::declval<const H&>().node())>>::is_ref&&
    std::constructible_from<H, std::remove_cvref_t<decltype(std::declval<const H&>().node())>>;

/// What walk, map, visit and mutate start from: a Ref to a node (`PrimFunc`, `ObjectRef`)
/// or a node handle.
template <class R>
concept traversal_root = detail::traverse::ref_traits<R>::is_ref || node_handle<R>;

namespace detail::traverse {
template <class R>
struct root_traits {
  using ref_type = R;
  static const R& ref(const R& root) noexcept { return root; }
  static R wrap(R result) noexcept { return result; }
};
template <class R>
requires(!ref_traits<R>::is_ref) struct root_traits<R> {
  using ref_type = std::remove_cvref_t<decltype(std::declval<const R&>().node())>;
  static decltype(auto) ref(const R& root) noexcept { return root.node(); }
  static R wrap(ref_type result) { return R(std::move(result)); }
};
/// The node type a traversal root starts from.
template <class R>
using root_node_t = typename ref_traits<typename root_traits<R>::ref_type>::node;
} // namespace detail::traverse

/// When a walk calls a callback: before a node's children (`pre`) or after them (`post`).
enum class WalkOrder : std::uint8_t { pre, post };

/// A walk order known at compile time, so that a walk compiles only that order.
///
/// Pass `ctir::pre_order` or `ctir::post_order` as the last argument of walk or map; a
/// plain `WalkOrder` value works too but compiles both traversals and picks one at run time.
template <WalkOrder Order>
struct walk_order_constant {
  static constexpr WalkOrder value = Order;
  constexpr operator WalkOrder() const noexcept { return Order; }
};

/// Callbacks run before the node's children.
inline constexpr walk_order_constant<WalkOrder::pre> pre_order{};
/// Callbacks run after the node's children (the default).
inline constexpr walk_order_constant<WalkOrder::post> post_order{};

/// What a walk callback asks the walk to do next.
enum class WalkAction : std::uint8_t {
  advance,   ///< continue
  skip,      ///< pre-order: do not descend into this node's children (post-order: no effect)
  interrupt, ///< stop the whole walk
};

template <class Payload = void>
class WalkResult;

/// The result of a walk callback without a payload: advance, skip or interrupt.
template <>
class WalkResult<void> {
public:
  constexpr WalkResult() noexcept = default;
  constexpr WalkResult(WalkAction action) noexcept : action_(action) {}

  constexpr WalkAction action() const noexcept { return action_; }
  constexpr bool was_interrupted() const noexcept { return action_ == WalkAction::interrupt; }
  constexpr bool was_skipped() const noexcept { return action_ == WalkAction::skip; }
  friend constexpr bool operator==(WalkResult, WalkResult) noexcept = default;

private:
  WalkAction action_ = WalkAction::advance;
};

/// The result of a walk callback that may stop the walk with a payload (TVM's
/// VisitInterrupt): `ctir::advance` and `ctir::skip` convert to it, `ctir::interrupt(p)`
/// makes one.
template <class Payload>
class WalkResult {
  static_assert(!std::is_reference_v<Payload> && !std::is_const_v<Payload>,
                "ctir::WalkResult<P>: the payload is stored by value; use a plain type");

public:
  WalkResult() = default;
  /// `advance`, `skip` or a payload-less `interrupt()`.
  constexpr WalkResult(WalkResult<void> result) : action_(result.action()) {}
  /// A result with a convertible payload (an interrupt with a For in a `WalkResult<Stmt>`).
  template <class Other>
  requires(!std::is_void_v<Other> && !std::is_same_v<Other, Payload> &&
           std::constructible_from<Payload, Other&&>) WalkResult(WalkResult<Other> other)
      : action_(other.action()) {
    if (other.payload()) {
      payload_.emplace(std::move(*std::move(other).payload()));
    }
  }

  /// An interrupt carrying `payload`.
  static WalkResult interrupted(Payload payload) {
    WalkResult result;
    result.action_ = WalkAction::interrupt;
    result.payload_.emplace(std::move(payload));
    return result;
  }

  WalkAction action() const noexcept { return action_; }
  bool was_interrupted() const noexcept { return action_ == WalkAction::interrupt; }
  bool was_skipped() const noexcept { return action_ == WalkAction::skip; }
  /// The payload of an interrupt (empty for advance, skip or a payload-less interrupt).
  const std::optional<Payload>& payload() const& noexcept { return payload_; }
  std::optional<Payload>&& payload() && noexcept { return std::move(payload_); }

private:
  WalkAction action_ = WalkAction::advance;
  std::optional<Payload> payload_;
};

/// Continue the walk.
inline constexpr WalkResult<> advance{WalkAction::advance};
/// Pre-order: do not descend into this node's children. Post-order: no effect.
inline constexpr WalkResult<> skip{WalkAction::skip};

/// Stop the whole walk without a payload.
constexpr WalkResult<> interrupt() noexcept { return WalkResult<>{WalkAction::interrupt}; }

/// Stop the whole walk; the walk returns `payload`.
template <class Payload>
WalkResult<std::decay_t<Payload>> interrupt(Payload&& payload) {
  return WalkResult<std::decay_t<Payload>>::interrupted(std::forward<Payload>(payload));
}

/// The tag a map or mutate callback returns to keep its node: costs nothing (no reference
/// count traffic); in a post-order map it keeps the node with its already mapped children.
struct unchanged_t {
  explicit constexpr unchanged_t() noexcept = default;
};
/// Keep this node as it is (with its mapped children).
inline constexpr unchanged_t unchanged{};

/// What a map or mutate callback may return when it sometimes keeps its node: either
/// `ctir::unchanged` or a replacement node of type T (a node type or a Ref type).
///
///     on<Var>([&](const Var& v) -> MapResult<PrimExpr> {
///       if (v.same_as(n)) return IntImm::make(128);
///       return unchanged;
///     })
template <class T>
class MapResult {
public:
  using node_type = node_of_t<T>;
  static_assert(ir_node<node_type>,
                "ctir::MapResult<T>: T must be a node type (PrimExprNode) or a Ref to one");

  /// Keeps the node.
  MapResult(unchanged_t) noexcept {}
  /// Replaces the node (anything a `Ref<node_type>` is made from: a Ref, a literal ...).
  template <class U>
  requires(!std::is_same_v<std::remove_cvref_t<U>, unchanged_t> &&
           !std::is_same_v<std::remove_cvref_t<U>, MapResult> &&
           std::constructible_from<Ref<node_type>, U&&>) MapResult(U&& replacement)
      : node_(std::forward<U>(replacement)), replaced_(true) {}

  /// Whether the callback kept its node.
  bool is_unchanged() const noexcept { return !replaced_; }
  /// The replacement (null when unchanged).
  const Ref<node_type>& node() const& noexcept { return node_; }
  Ref<node_type>&& node() && noexcept { return std::move(node_); }

private:
  Ref<node_type> node_;
  bool replaced_ = false;
};

namespace detail::traverse {
template <class N>
class mapped_view;
} // namespace detail::traverse

/// What a post-order map callback taking `const Mapped<Node>&` receives: the original node
/// and its already mapped children, before any node is built (T: a node type or a Ref).
///
/// A rule that drops its node reads the mapped children and allocates nothing:
///
///     on<Add>([](const Mapped<Add>& add) -> MapResult<PrimExpr> {
///       if (is_zero(add[&AddNode::b])) return add[&AddNode::a];  // x + 0 -> x
///       return unchanged;                                         // keep the (rebuilt) Add
///     })
///
/// `add[&AddNode::a]` (or `add.get<&AddNode::a>()`) is a field's mapped value,
/// `add.original()` the node before mapping, `add.changed()` whether a child changed, and
/// `add.node()` builds the node with the mapped children (once; only if a child changed).
/// Defined with the map (ctir/traverse/map.hpp).
template <class T>
using Mapped = detail::traverse::mapped_view<node_of_t<T>>;

/// A callback bound to the node types it handles: `on<For, While>(f)` calls f on every node
/// that is a For or a While (or derives from one).
template <class F, class... Nodes>
class on_callback {
public:
  using match_types = type_list<Nodes...>;
  F fn;
};

/// Binds `f` to the node types `Nodes` (node types or Refs: `on<For>` or `on<ForNode>`).
///
/// f receives the node as the type it names in its parameter (`const For&`,
/// `const ForNode&`, `const Stmt&` ...); a generic f (`const auto&`) receives a
/// `const Ref<C>&` of the node's concrete type C.
template <class... Nodes, class F>
constexpr on_callback<std::decay_t<F>, node_of_t<Nodes>...> on(F&& f) {
  static_assert(sizeof...(Nodes) > 0,
                "ctir::on<Node...>(f): name at least one node type, like on<For>(f)");
  static_assert((ir_node<node_of_t<Nodes>> && ...),
                "ctir::on<Node...>(f): every Node must be a node type (ForNode) or a Ref to one "
                "(For)");
  return {std::forward<F>(f)};
}

/// A callback on variable sites that also receives the definition-region kind of the site:
/// `fn(var, kind)` with kind NONE at uses, DEF_SIMPLE at a simple definition (a loop
/// variable) and DEF_PATTERN anywhere inside a pattern (a parameter and its type).
template <class F>
class def_region_callback {
public:
  F fn;
};

/// Wraps `fn(var, DefRegionKind)` so that walk, map, visit and mutate pass it the kind of
/// each variable site (as in TVM's structural utilities).
template <class F>
constexpr def_region_callback<std::decay_t<F>> with_def_region_kind(F&& fn) {
  return {std::forward<F>(fn)};
}

/// A callback that does not match the node types `Excluded` or their subtypes: see
/// `excluding`.
template <class Callback, class... Excluded>
class excluding_callback {
public:
  using excluded_types = type_list<Excluded...>;
  Callback callback;
};

/// Narrows `callback` (a callable, an `on<...>`, a `with_def_region_kind` or a callback
/// list) so that it matches no node of the types `Excluded` or their subtypes, those
/// registered at run time included. A traversal enters a field only for nodes some callback
/// matches, so it no longer enters a field that can hold only excluded nodes:
///
///     // the graph-level expressions of a function, without the scalar expressions (and
///     // variables) inside its types: a walk that never enters a type
///     walk(f, excluding<PrimExpr>([&](const Expr& e) { ... }));
template <class... Excluded, class Callback>
constexpr excluding_callback<std::decay_t<Callback>, node_of_t<Excluded>...>
excluding(Callback&& callback) {
  static_assert(sizeof...(Excluded) > 0,
                "ctir::excluding<Node...>(callback): name at least one node type to leave out, "
                "like excluding<PrimExpr>(f)");
  static_assert((ir_node<node_of_t<Excluded>> && ...),
                "ctir::excluding<Node...>(callback): every Node must be a node type "
                "(PrimExprNode) or a Ref to one (PrimExpr)");
  return {std::forward<Callback>(callback)};
}

/// Callbacks for a traversal that does not enter the node types `Opaque`: see `not_into`.
template <class Callback, class... Opaque>
class not_into_callback {
public:
  using opaque_types = type_list<Opaque...>;
  Callback callback;
};

/// Makes the node types `Opaque` and their subtypes opaque to a traversal: `callback`
/// (a callable, an `on<...>`, a `with_def_region_kind`, `excluding<...>` or a callback
/// list holding every callback of the traversal) matches none of them, and the traversal
/// does not enter them, nor anything inside them: a map keeps them as they are. A
/// traversal's callbacks must all be inside it (a compile error says so otherwise).
///
///     // the uses of let-bound variables in a graph-level function, without entering its
///     // types (whose shape variables are of no interest here)
///     map(f, not_into<Type>(callbacks(with_def_region_kind(rename), on<Let>(g))));
///
/// Node types registered at run time below an opaque type are opaque too.
template <class... Opaque, class Callback>
constexpr not_into_callback<std::decay_t<Callback>, node_of_t<Opaque>...>
not_into(Callback&& callback) {
  static_assert(sizeof...(Opaque) > 0,
                "ctir::not_into<Node...>(callbacks): name at least one node type the traversal "
                "must not enter, like not_into<Type>(...)");
  static_assert((ir_node<node_of_t<Opaque>> && ...),
                "ctir::not_into<Node...>(callbacks): every Node must be a node type (TypeNode) "
                "or a Ref to one (Type)");
  return {std::forward<Callback>(callback)};
}

namespace detail::traverse {
template <std::size_t I, class T>
struct list_leaf {
  T value;
};
template <std::size_t I, class T>
constexpr T& leaf_value(list_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}
template <std::size_t I, class T>
constexpr const T& leaf_value(const list_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}
template <class Sequence, class... Ts>
struct list_storage;
template <std::size_t... I, class... Ts>
struct list_storage<std::index_sequence<I...>, Ts...> : list_leaf<I, Ts>... {};
} // namespace detail::traverse

/// An ordered list of callbacks that can be built once and passed around; the first
/// callback whose node type matches a node is the one that runs.
template <class... Callbacks>
class callback_list
    : public detail::traverse::list_storage<std::index_sequence_for<Callbacks...>, Callbacks...> {
public:
  static constexpr std::size_t size = sizeof...(Callbacks);
  using types = type_list<Callbacks...>;
};

/// Builds a callback list: `auto cbs = callbacks(on<For>(f), on<TensorStore>(g));`.
template <class... Callbacks>
constexpr callback_list<std::decay_t<Callbacks>...> callbacks(Callbacks&&... cbs) {
  return {{{std::forward<Callbacks>(cbs)}...}};
}

/// The I-th callback of a list.
template <std::size_t I, class... Callbacks>
constexpr auto& get(callback_list<Callbacks...>& list) noexcept {
  return detail::traverse::leaf_value<I>(list);
}
template <std::size_t I, class... Callbacks>
constexpr const auto& get(const callback_list<Callbacks...>& list) noexcept {
  return detail::traverse::leaf_value<I>(list);
}

} // namespace ctir
