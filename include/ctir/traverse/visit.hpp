// visit: callbacks that drive the traversal themselves, through the visitor's default_visit
// (TVM's structural_visit).
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/callback_set.hpp>
#include <ctir/traverse/detail/engine_common.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/type_graph.hpp>
#include <ctir/traverse/detail/walk_engine.hpp>

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

namespace detail::traverse {

/// The visitor a visit callback receives first: `v.default_visit(node)` visits the node's
/// children with their usual traversal (their own callbacks, or default_visit for nodes no
/// callback matches) without calling the node's callback again; `v.def_region_kind()` is
/// the definition-region kind of the current site.
///
/// default_visit runs on an explicit stack shared by the whole visit, so it adds no native
/// frames of its own for the nodes no callback matches; the depth of native recursion is
/// what the callbacks make of it (a callback calling default_visit on a deeper node).
template <class Root, class Set>
class static_visitor {
public:
  using universe = reachable_types_t<Root>;
  using concrete = concrete_types_t<universe>;
  using table = contain_table<universe, typename Set::matcher>;
  /// The types whose step is compiled (see handled_types_t); every other node is visited
  /// through its type's field table.
  using handled = handled_types_t<Set, concrete>;

  static_visitor(const Set& set, void* payload) noexcept : set_(set), payload_(payload) {}
  static_visitor(const static_visitor&) = delete;
  static_visitor& operator=(const static_visitor&) = delete;

  /// Visits the children of `node` (a Ref or a node); returns an interrupt if a callback
  /// interrupted (return it from your callback so that it reaches the caller of visit).
  template <class T>
  WalkResult<> default_visit(const T& node) {
    const Object* object = object_of(node);
    if (object == nullptr) {
      return advance;
    }
    const std::size_t base = stack_.size();
    const DefRegionKind region = region_;
    dispatch_list(
        handled{}, *object,
        [&](const auto& concrete_node) {
          using C = std::remove_cvref_t<decltype(concrete_node)>;
          if (!is_use_site<C>(region)) {
            push_children(concrete_node, region);
          }
        },
        [&](const Object& other) {
          if (!is_dynamic_use_site(other, region)) {
            for_each_dynamic_child<true>(other, region,
                                         [&](const Object* child, DefRegionKind inner) {
                                           stack_.push_back({child, inner});
                                         });
          }
        });
    return run(base);
  }

  /// The definition-region kind of the site of the node whose callback is running.
  DefRegionKind def_region_kind() const noexcept { return region_; }

  /// Visits `node` itself: its callback if one matches, else default_visit.
  WalkResult<> visit_node(const Object* node) {
    if (node == nullptr) {
      return advance;
    }
    const std::size_t base = stack_.size();
    stack_.push_back({node, region_});
    return run(base);
  }

private:
  struct item {
    const Object* node;
    DefRegionKind region;
  };

  template <class T>
  static const Object* object_of(const T& node) noexcept {
    if constexpr (ref_traits<T>::is_ref) {
      return node.get();
    } else {
      return &node;
    }
  }

  WalkResult<> run(std::size_t base) {
    struct truncate {
      std::vector<item>& stack;
      std::size_t size;
      ~truncate() { stack.resize(size); }
    } guard{stack_, base};
    while (stack_.size() > base) {
      const item current = stack_.back();
      stack_.pop_back();
      const bool stop = dispatch_list(
          handled{}, *current.node, [&](const auto& node) { return step(node, current.region); },
          [&](const Object& node) { return step_dynamic(node, current.region); });
      if (stop) {
        return interrupt();
      }
    }
    return advance;
  }

  template <class P>
  WalkAction apply(auto&& result) {
    return apply_walk_result(*static_cast<payload_slot<P>*>(payload_),
                             std::forward<decltype(result)>(result));
  }

  /// Returns true when the visit is interrupted.
  template <class C>
  bool step(const C& node, DefRegionKind region) {
    if constexpr (structural::visited_once_v<C>) {
      if (node.use_count() > 1 && !visited_.first_visit(node)) {
        return false;
      }
    }
    constexpr std::size_t k = Set::template first_match_v<C>;
    if constexpr (k != npos) {
      using P = typename set_payload<Set, static_visitor>::type;
      const DefRegionKind saved = region_;
      region_ = region;
      node_provider<C> provider{&node};
      const WalkAction action = apply<P>(std::get<k>(set_.items).call(provider, region, *this));
      region_ = saved;
      return action == WalkAction::interrupt;
    } else {
      if (!is_use_site<C>(region)) {
        push_children(node, region);
      }
      return false;
    }
  }

  bool step_dynamic(const Object& node, DefRegionKind region) {
    if (node.use_count() > 1 && structural::visited_once(node) && !visited_.first_visit(node)) {
      return false;
    }
    using P = typename set_payload<Set, static_visitor>::type;
    WalkAction action = WalkAction::advance;
    auto handler = [&](auto&& result) {
      action = apply<P>(std::forward<decltype(result)>(result));
    };
    const DefRegionKind saved = region_;
    region_ = region;
    const bool called = set_.call_dynamic(node, region, handler, *this);
    region_ = saved;
    if (called) {
      return action == WalkAction::interrupt;
    }
    if (!is_dynamic_use_site(node, region) &&
        table::may_contain_dynamic(node.dynamic_type_index())) {
      for_each_dynamic_child<true>(node, region, [&](const Object* child, DefRegionKind inner) {
        stack_.push_back({child, inner});
      });
    }
    return false;
  }

  template <class C>
  void push_children(const C& node, DefRegionKind region) {
    constexpr std::size_t n = field_count_v<C>;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (push_field<C, n - 1 - I>(node, region), ...);
    }
    (std::make_index_sequence<n>{});
  }

  template <class C, std::size_t I>
  void push_field(const C& node, DefRegionKind region) {
    using F = field_type_t<C, I>;
    if constexpr (is_child_field_v<F>) {
      if constexpr (table::template may_contain_v<typename F::element_type>) {
        const DefRegionKind inner = child_region(region, F::def_kind);
        if constexpr (F::kind == FieldKind::node) {
          if (const auto* child = F::get(node).get()) {
            stack_.push_back({child, inner});
          }
        } else {
          const auto& children = F::get(node);
          for (auto it = children.rbegin(); it != children.rend(); ++it) {
            if (const auto* child = it->get()) {
              stack_.push_back({child, inner});
            }
          }
        }
      }
    }
  }

  const Set& set_;
  void* payload_;
  DefRegionKind region_ = DefRegionKind::none;
  std::vector<item> stack_;
  /// The nodes visited once that the visit has met (see visited_once_v).
  structural::VisitedNodes visited_;
};

template <class B, class Visitor>
constexpr bool check_visit_callback() {
  if constexpr (B::kind == callback_kind::plain) {
    // An error here means a visit callback was not bound with on<...>: its first
    // parameter is the visitor, so its node type cannot be read from it.
    static_assert(B::kind != callback_kind::plain,
                  "ctir::visit: bind each visit callback with ctir::on<Node>(f), where f takes "
                  "the visitor first: on<For>([&](auto& v, const For& loop) {...})");
  } else if constexpr (!std::is_same_v<declared_result_t<B, Visitor>, unknown_result>) {
    using R = declared_result_t<B, Visitor>;
    static_assert(is_walk_result_v<R>,
                  "ctir::visit: a visit callback returns void, ctir::advance, ctir::skip, "
                  "ctir::interrupt(payload), or what default_visit returned");
  }
  return true;
}

template <class Set, class Visitor>
struct visit_checks;
template <class... B, class Visitor>
struct visit_checks<callback_set<std::tuple<B...>>, Visitor> {
  static constexpr bool value = (check_visit_callback<B, Visitor>() && ...);
};

struct visit_fn {
  /// Visits `root`: its callback if one matches, else default_visit.
  template <traversal_root Root, class... Args>
  auto operator()(const Root& root, Args&&... args) const {
    static_assert(order_argument_count<Args...>() == 0,
                  "ctir::visit: callbacks decide the order themselves (call default_visit "
                  "before or after your work); pass no walk order");
    using Node = root_node_t<Root>;
    using Set = callback_set<bound_tuple_t<1, Args...>>;
    using Visitor = static_visitor<Node, Set>;
    static_assert(visit_checks<Set, Visitor>::value);
    using payload = set_payload<Set, Visitor>;
    static_assert(payload::single,
                  "ctir::visit: the callbacks interrupt with payloads of different types; make "
                  "them return the same WalkResult<Payload>");
    using Payload = typename payload::type;
    const Set set{{}, std::tuple_cat(bind_callbacks<1>(args)...)};
    payload_slot<Payload> slot;
    Visitor visitor(set, &slot);
    const WalkResult<> result = visitor.visit_node(root_traits<Root>::ref(root).get());
    if constexpr (std::is_void_v<Payload>) {
      return result;
    } else {
      return std::move(slot.value);
    }
  }
};

} // namespace detail::traverse

/// Visits a tree with callbacks that decide when, and whether, to visit their node's
/// children (as in TVM's structural utilities). Each callback is bound with `on<Node>` and takes
/// the visitor first; `v.default_visit(node)` visits the node's children (with their own
/// callbacks), `v.def_region_kind()` tells the current site's definition region. A node
/// no callback matches is visited by default_visit automatically; a callback that never
/// calls default_visit skips its children.
///
///     std::vector<Var> loops;
///     visit(f,
///           on<For>([&](auto& v, const For& loop) {
///             loops.push_back(loop->var);
///             WalkResult<> result = v.default_visit(loop);
///             loops.pop_back();
///             return result;  // lets an interrupt from inside reach the caller
///           }),
///           on<TensorStore>([&](auto&, const TensorStore& store) { ... }));
///
/// Returns like walk: the interrupt's payload as a std::optional, or a WalkResult<>.
inline constexpr detail::traverse::visit_fn visit{};

} // namespace ctir
