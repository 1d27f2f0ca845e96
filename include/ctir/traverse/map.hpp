// map: rewrite the nodes callbacks match and rebuild only the paths above them
// (TVM's structural_map).
#pragma once

#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/map_engine.hpp>

#include <type_traits>
#include <utility>

namespace ctir {

namespace detail::traverse {

/// Checks one map callback, with a message per mistake.
template <class B>
constexpr bool check_map_callback() {
  if constexpr (B::kind == callback_kind::plain && !B::param::known) {
    // An error here means the callback's parameter is `auto` (or not a node).
    static_assert(B::param::known,
                  "ctir::map: cannot tell which nodes this callback takes: its parameter is "
                  "generic (auto) or not a node; name the node type in the parameter "
                  "(const Var&), or bind it with ctir::on<Var>(f)");
    return false;
  } else if constexpr (std::is_same_v<declared_result_t<B>, unknown_result>) {
    return true; // a generic with_def_region_kind callback: checked when it is called
  } else {
    using R = declared_result_t<B>;
    // An error here means a map callback returns no node; say what to return instead.
    if constexpr (std::is_same_v<R, void_result>) {
      static_assert(!std::is_same_v<R, void_result>,
                    "ctir::map: this callback returns void; a map callback must return a node "
                    "(return its input, or ctir::unchanged, to keep it)");
      return false;
    } else if constexpr (walk_result_kind<R>::value) {
      static_assert(!walk_result_kind<R>::value,
                    "ctir::map: this callback returns a WalkResult (advance, skip or "
                    "interrupt); a map callback must return a node (return its input, or "
                    "ctir::unchanged, to keep it); to stop early, use ctir::walk");
      return false;
    } else {
      static_assert(is_map_result_v<R>,
                    "ctir::map: a map callback must return a node: a Ref<Node>, a "
                    "MapResult<Node> or ctir::unchanged");
      return is_map_result_v<R>;
    }
  }
}

template <class Set>
struct map_checks;
template <class... B>
struct map_checks<callback_set<std::tuple<B...>>> {
  static constexpr bool value = (check_map_callback<B>() && ...);
};

struct map_fn {
  /// Maps `root` (post-order unless `ctir::pre_order` is passed): each node matched by a
  /// callback is replaced by what the callback returns; returns the new root, or `root`
  /// itself when nothing changed.
  template <traversal_root Root, class... Args>
  Root operator()(const Root& root, Args&&... args) const {
    static_assert(order_argument_count<Args...>() <= 1,
                  "ctir::map: pass at most one walk order (ctir::pre_order or ctir::post_order)");
    using Set = callback_set<bound_tuple_t<0, Args...>>;
    if constexpr (!map_checks<Set>::value) {
      return root; // the checks above said what is wrong
    } else {
      const Set set{{}, std::tuple_cat(bind_callbacks<0>(args)...)};
      const auto& ref = root_traits<Root>::ref(root);
      using Node = root_node_t<Root>;
      if constexpr (has_runtime_order_v<Args...>) {
        if (runtime_order(args...) == WalkOrder::pre) {
          return root_traits<Root>::wrap(run<rewrite_mode::map_pre, Node>(set, ref));
        }
        return root_traits<Root>::wrap(run<rewrite_mode::map_post, Node>(set, ref));
      } else {
        constexpr bool pre = static_order<WalkOrder::post, Args...>() == WalkOrder::pre;
        return root_traits<Root>::wrap(run < pre ? rewrite_mode::map_pre : rewrite_mode::map_post,
                                       Node > (set, ref));
      }
    }
  }

private:
  template <rewrite_mode Mode, class Node, class Set>
  static Ref<Node> run(const Set& set, const Ref<Node>& root) {
    rewrite_engine<Node, Set, Mode, no_mutator> engine(set);
    node_slot<Node> result;
    engine.template map_ref<Node, DefRegionKind::none>(root, result);
    return result.changed ? std::move(result.ref) : root;
  }
};

} // namespace detail::traverse

/// Rewrites a tree: each node a callback matches is replaced by what the callback returns,
/// and only the nodes on the paths from the replacements to the root are rebuilt (as TVM's
/// structural_map does). The input is never modified; when nothing changes, the very same root
/// comes back, and nothing is allocated.
///
///     PrimFunc add_128 = map(add_one, [&](const Var& v) -> PrimExpr {
///       return v.same_as(n) ? PrimExpr(IntImm::make(128)) : PrimExpr(v);
///     });
///
/// Callbacks are matched as in walk. A callback returns its replacement (a Ref), its input
/// or `ctir::unchanged` to keep the node, or a `MapResult<Node>` holding either. In
/// post-order (the default) it sees its node with the children already mapped: a
/// `const Mapped<Add>&` parameter shows the mapped children before anything is built, so
/// a rule like `x + 0 -> x` allocates nothing. In pre-order (`ctir::pre_order`) it sees the
/// original node first, and the children of what it returns are mapped next (a callback
/// must then not return a node containing its input: that is reported as an error).
///
/// When the type of a variable changes at its definition site (say `n -> 128` rewrote
/// `A: Tensor[(n)]`), the map makes a new variable there and every later use of the old
/// variable stands for the new one. A replacement that cannot go where its node was (an
/// expression in place of a statement) throws a ctir::NodeError naming both types.
inline constexpr detail::traverse::map_fn map{};

} // namespace ctir
