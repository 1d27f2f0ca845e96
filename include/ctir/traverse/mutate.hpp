// mutate: rewriting callbacks that drive the traversal themselves, through the mutator's
// default_mutate (TVM's structural_mutate).
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/map_engine.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace ctir {

namespace detail::traverse {

/// The mutator a mutate callback receives first: `m.default_mutate(node)` rewrites the
/// node's children with their usual traversal (their own callbacks, or default_mutate for
/// nodes no callback matches) and returns the node rebuilt around them (the same object
/// when nothing changed); `m.def_region_kind()` is the definition-region kind of the
/// current site.
///
/// default_mutate runs on an explicit stack shared by the whole mutate, so nodes no
/// callback matches add no native frames; native recursion is what the callbacks make of it.
template <class Root, class Set>
class static_mutator
    : public rewrite_engine<Root, Set, rewrite_mode::mutate, static_mutator<Root, Set>> {
  using base = rewrite_engine<Root, Set, rewrite_mode::mutate, static_mutator<Root, Set>>;

public:
  explicit static_mutator(const Set& set) noexcept : base(set) {}
  static_mutator(const static_mutator&) = delete;
  static_mutator& operator=(const static_mutator&) = delete;

  /// Rewrites the children of `node` (a Ref or a node) and returns the node rebuilt
  /// around them, or the node itself when no child changed.
  template <class T>
  Ref<node_of_t<T>> default_mutate(const T& node) {
    using N = node_of_t<T>;
    const N* object = nullptr;
    if constexpr (ref_traits<T>::is_ref) {
      object = node.get();
    } else {
      object = &node;
    }
    if (object == nullptr) {
      return {};
    }
    mapped_ref result =
        this->map_deep(*object, this->current_region_, base::item_kind::enter_quiet);
    if (!result.defined()) {
      return Ref<N>::borrow(object);
    }
    // Rebuilding keeps the node's dynamic type (and a variable stands for a variable), so
    // the result is still an N.
    return static_ref_cast<N>(result.take());
  }

  /// The definition-region kind of the site of the node whose callback is running.
  DefRegionKind def_region_kind() const noexcept { return this->current_region_; }

  /// Mutates `root` itself: its callback if one matches, else default_mutate.
  template <class N>
  Ref<N> run(const Ref<N>& root) {
    if (!root.defined()) {
      return root;
    }
    mapped_ref mapped = this->map_deep(*root, DefRegionKind::none);
    if (!mapped.defined()) {
      return root;
    }
    node_slot<N> result;
    store(result, std::move(mapped), *root);
    return result.ref;
  }
};

template <class B, class Mutator>
constexpr bool check_mutate_callback() {
  if constexpr (B::kind == callback_kind::plain) {
    // An error here means a mutate callback was not bound with on<...>: its first
    // parameter is the mutator, so its node type cannot be read from it.
    static_assert(B::kind != callback_kind::plain,
                  "ctir::mutate: bind each mutate callback with ctir::on<Node>(f), where f takes "
                  "the mutator first: on<For>([&](auto& m, const For& loop) -> Stmt {...})");
  } else if constexpr (!std::is_same_v<declared_result_t<B, Mutator>, unknown_result>) {
    using R = declared_result_t<B, Mutator>;
    static_assert(!std::is_same_v<R, void_result>,
                  "ctir::mutate: this callback returns void; a mutate callback must return a "
                  "node (return m.default_mutate(node), its input, or ctir::unchanged)");
    static_assert(std::is_same_v<R, void_result> || is_map_result_v<R>,
                  "ctir::mutate: a mutate callback must return a node: a Ref<Node>, a "
                  "MapResult<Node> or ctir::unchanged");
  }
  return true;
}

template <class Set, class Mutator>
struct mutate_checks;
template <class... B, class Mutator>
struct mutate_checks<callback_set<std::tuple<B...>>, Mutator> {
  static constexpr bool value = (check_mutate_callback<B, Mutator>() && ...);
};

struct mutate_fn {
  /// Mutates `root`: its callback if one matches, else default_mutate; returns the new
  /// root, or `root` itself when nothing changed.
  template <traversal_root Root, class... Args>
  Root operator()(const Root& root, Args&&... args) const {
    static_assert(order_argument_count<Args...>() == 0,
                  "ctir::mutate: callbacks decide the order themselves (call default_mutate "
                  "before or after your work); pass no walk order");
    using Node = root_node_t<Root>;
    using Set = callback_set<bound_tuple_t<1, Args...>>;
    using Mutator = static_mutator<Node, Set>;
    static_assert(mutate_checks<Set, Mutator>::value);
    const Set set{{}, std::tuple_cat(bind_callbacks<1>(args)...)};
    Mutator mutator(set);
    return root_traits<Root>::wrap(mutator.run(root_traits<Root>::ref(root)));
  }
};

} // namespace detail::traverse

/// Rewrites a tree with callbacks that decide when, and whether, to rewrite their node's
/// children (as in TVM's structural utilities). Each callback is bound with `on<Node>`, takes the
/// mutator first and returns the new node, as in map; `m.default_mutate(node)` rewrites the node's
/// children and returns the node rebuilt around them; `m.def_region_kind()` tells the
/// current site's definition region. A node no callback matches is mutated by default.
///
///     std::unordered_map<const Object*, PrimExpr> reversed;
///     PrimFunc out = mutate(f,
///         on<For>([&](auto& m, const For& loop) -> Stmt {
///           reversed[loop->var.get()] = loop->end - 1 - loop->var;
///           return m.default_mutate(loop);
///         }),
///         on<Var>([&](auto& m, const Var& v) -> PrimExpr {
///           auto it = reversed.find(v.get());
///           if (m.def_region_kind() != DefRegionKind::none || it == reversed.end()) return v;
///           return it->second;
///         }));
///
/// As in map, the input is never modified, unchanged subtrees are shared, a variable whose
/// definition changed is repointed at its uses, and a replacement that cannot go where its
/// node was throws a ctir::NodeError.
inline constexpr detail::traverse::mutate_fn mutate{};

} // namespace ctir
