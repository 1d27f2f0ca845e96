// walk: call callbacks on the nodes of a tree that match their types (TVM's structural_walk).
#pragma once

#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/walk_engine.hpp>

#include <optional>
#include <type_traits>
#include <utility>

namespace ctir {

namespace detail::traverse {

/// Checks one walk (or visit, Lead = the visitor) callback, with a message per mistake.
template <class B>
constexpr bool check_walk_callback() {
  if constexpr (B::kind == callback_kind::plain && !B::param::known) {
    // An error here means the callback's parameter is `auto` (or not a node): the walk
    // cannot tell which nodes to pass it.
    static_assert(B::param::known,
                  "ctir::walk: cannot tell which nodes this callback takes: its parameter is "
                  "generic (auto) or not a node; name the node type in the parameter "
                  "(const For&), or bind it with ctir::on<For>(f)");
    return false;
  } else if constexpr (B::param::form == param_form::mapped) {
    static_assert(B::param::form != param_form::mapped,
                  "ctir::walk: a Mapped<Node> parameter is for map callbacks; take the node "
                  "(const Add&) instead");
    return false;
  } else {
    using R = declared_result_t<B>;
    // An error here means the callback returns something a walk does not understand.
    static_assert(is_walk_result_v<R>,
                  "ctir::walk: a walk callback returns void, ctir::advance, ctir::skip or "
                  "ctir::interrupt(payload); this one returns something else (to rewrite "
                  "nodes, use ctir::map)");
    return is_walk_result_v<R>;
  }
}

template <class Set>
struct walk_checks;
template <class... B>
struct walk_checks<callback_set<std::tuple<B...>>> {
  static constexpr bool value = (check_walk_callback<B>() && ...);
};

/// The result of a walk: the interrupt's payload if there is a payload type, else a
/// WalkResult<> that says whether the walk was interrupted.
template <class Payload>
struct walk_outcome {
  using type = std::optional<Payload>;
};
template <>
struct walk_outcome<void> {
  using type = WalkResult<>;
};

struct walk_fn {
  /// Walks `root` (post-order unless `ctir::pre_order` is passed), calling on each node
  /// the first callback whose node type it matches.
  template <traversal_root Root, class... Args>
  auto operator()(const Root& root, Args&&... args) const {
    static_assert(order_argument_count<Args...>() <= 1,
                  "ctir::walk: pass at most one walk order (ctir::pre_order or ctir::post_order)");
    using Set = callback_set<bound_tuple_t<0, Args...>>;
    if constexpr (!walk_checks<Set>::value) {
      return WalkResult<>(); // the checks above said what is wrong
    } else {
      using payload = set_payload<Set>;
      // An error here means two callbacks interrupt with payloads of different types.
      static_assert(payload::single,
                    "ctir::walk: the callbacks interrupt with payloads of different types; make "
                    "them return the same WalkResult<Payload>");
      using Payload = typename payload::type;
      const Set set{{}, std::tuple_cat(bind_callbacks<0>(args)...)};
      const auto& ref = root_traits<Root>::ref(root);
      using Node = root_node_t<Root>;
      if constexpr (has_runtime_order_v<Args...>) {
        if (runtime_order(args...) == WalkOrder::pre) {
          return run<WalkOrder::pre, Node, Payload>(set, ref.get());
        }
        return run<WalkOrder::post, Node, Payload>(set, ref.get());
      } else {
        return run<static_order<WalkOrder::post, Args...>(), Node, Payload>(set, ref.get());
      }
    }
  }

private:
  template <WalkOrder Order, class Node, class Payload, class Set>
  static typename walk_outcome<Payload>::type run(const Set& set, const Node* root) {
    walk_engine<Node, Set, Order, Payload> engine(set);
    const bool finished = engine.template walk_ref<Node, DefRegionKind::none>(root);
    if constexpr (std::is_void_v<Payload>) {
      return finished ? WalkResult<>{WalkAction::advance} : WalkResult<>{WalkAction::interrupt};
    } else {
      return std::move(engine.payload().value);
    }
  }
};

} // namespace detail::traverse

/// Walks a tree and calls callbacks on the nodes that match them (as in TVM's structural
/// utilities).
///
///     std::vector<std::string> written;
///     walk(add_one, [&](const TensorStore& store) { written.push_back(store->dest->name); });
///
/// Arguments after the root: callbacks (a callable whose parameter names the node type,
/// `on<A, B>(f)`, `with_def_region_kind(f)`, or a `callbacks(...)` list), tried in order,
/// the first whose type matches a node (or a base of its type) runs; and optionally
/// `ctir::pre_order` (default: post-order). A callback returns void or `advance` to
/// continue, `skip` (pre-order) not to descend into the node, `interrupt(payload)` to stop.
/// Returns the payload as a `std::optional` (empty when nothing interrupted), or a
/// `WalkResult<>` when no callback has a payload.
///
/// The walk never passes null fields to callbacks, never visits fields flagged ignore or
/// plain values, and treats a variable at a use site as a leaf (its type belongs to its
/// definition). It prunes at compile time: it does not enter a field whose static type
/// cannot lead to a node some callback matches (looking for loops never enters an
/// expression); a node of a type registered at run time is reached where its field's static
/// type allows a match, and walked through its field table.
inline constexpr detail::traverse::walk_fn walk{};

} // namespace ctir
