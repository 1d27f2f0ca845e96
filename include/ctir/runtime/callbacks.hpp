// Callbacks registered at run time by node type key, for the type-erased walk, map, visit
// and mutate.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/runtime/detail/reach_table.hpp>
#include <ctir/runtime/mapped.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/meta.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

/// The root type of the runtime layer's traversals: it has no static family, so every node
/// is handled through its type's field table.
struct opaque_root : Object {
  CTIR_ABSTRACT_NODE(opaque_root, Object, "ctir.detail.OpaqueRoot");
};

enum class runtime_op : std::uint8_t { walk, map, visit, mutate };

} // namespace ctir::detail::traverse

CTIR_FAMILY(ctir::detail::traverse::opaque_root);

namespace ctir::detail::traverse {

template <runtime_op Op>
struct runtime_set;
template <class Root, class Set>
class static_visitor;
template <class Root, class Set>
class static_mutator;

} // namespace ctir::detail::traverse

namespace ctir::runtime {

/// What a runtime walk or visit callback returns: `ctir::advance`, `ctir::skip`,
/// `ctir::interrupt()` or `ctir::interrupt(node)` all convert to it.
using WalkResult = ctir::WalkResult<ObjectRef>;

/// The visitor a runtime visit callback receives: `v.default_visit(node)` visits the node's
/// children, `v.def_region_kind()` is the current site's definition-region kind.
using Visitor = detail::traverse::static_visitor<
    detail::traverse::opaque_root,
    detail::traverse::runtime_set<detail::traverse::runtime_op::visit>>;
/// The mutator a runtime mutate callback receives: `m.default_mutate(node)` rewrites the
/// node's children, `m.def_region_kind()` is the current site's definition-region kind.
using Mutator = detail::traverse::static_mutator<
    detail::traverse::opaque_root,
    detail::traverse::runtime_set<detail::traverse::runtime_op::mutate>>;

/// An ordered list of callbacks registered at run time, each bound to a node type (by key,
/// descriptor or static type) and matched by ancestry: the first callback whose type is
/// the node's type or one of its ancestors runs. Works for types registered at run time.
///
///     runtime::Callbacks cbs;
///     cbs.on("ir.TensorStore", [&](const ObjectRef& store) { ... });           // walk
///     cbs.on("ir.Var", [&](const ObjectRef& v) -> ObjectRef { ... });          // map
///     cbs.on("ir.Add", [&](const runtime::Mapped& a) -> MapResult<Object> { ... });
///                                                  // map: sees the mapped children first
///     cbs.on("ir.For", [&](runtime::Visitor& v, const ObjectRef& loop) {       // visit
///       return v.default_visit(loop);
///     });
///     cbs.with_def_region_kind([&](const ObjectRef& var, DefRegionKind kind) { ... });
///
/// What a callback takes and returns decides which traversal it is for: a node alone and
/// void / WalkResult for walk, a node alone and a node (ObjectRef, any Ref, MapResult,
/// ctir::unchanged) for map, a `const runtime::Mapped&` and a node for a post-order map
/// that reads the mapped children before the node is rebuilt, a Visitor& first for visit, a
/// Mutator& first for mutate. A traversal given a callback of another kind throws a ctir::Error
/// naming it.
class Callbacks {
public:
  enum class Kind : std::uint8_t { walk, map, visit, mutate };

  using WalkFn = std::function<WalkResult(const ObjectRef&, DefRegionKind)>;
  using MapFn = std::function<MapResult<Object>(const ObjectRef&, DefRegionKind)>;
  using MappedFn = std::function<MapResult<Object>(const Mapped&, DefRegionKind)>;
  using VisitFn = std::function<WalkResult(Visitor&, const ObjectRef&, DefRegionKind)>;
  using MutateFn = std::function<MapResult<Object>(Mutator&, const ObjectRef&, DefRegionKind)>;

  /// One registered callback.
  struct Entry {
    const TypeInfo* type = nullptr;
    /// A with_def_region_kind callback: matches variables only.
    bool def_region = false;
    Kind kind = Kind::walk;
    /// Types left out of what it matches, with their subtypes (excluding()).
    std::vector<const TypeInfo*> excluded;
    std::string description;
    WalkFn walk;
    /// A map callback takes the node (map) or its Mapped view (mapped); one is set.
    MapFn map;
    MappedFn mapped;
    VisitFn visit;
    MutateFn mutate;
  };

  /// Binds `fn` to the node type registered under `type_key` (and its subtypes).
  template <class F>
  Callbacks& on(std::string_view type_key, F&& fn) {
    return on(type_by_key(type_key), std::forward<F>(fn));
  }
  /// Binds `fn` to a node type descriptor (and its subtypes).
  template <class F>
  Callbacks& on(const TypeInfo& type, F&& fn) {
    add(&type, false, std::forward<F>(fn), "the callback for '" + std::string(type.key) + "'");
    return *this;
  }
  /// Binds `fn` to the static node type N (and its subtypes, including run-time ones).
  template <hooked_node N, class F>
  Callbacks& on(F&& fn) {
    return on(register_type<N>(), std::forward<F>(fn));
  }
  /// Adds `fn(var, kind)`, called on every variable site with its definition-region kind.
  template <class F>
  Callbacks& with_def_region_kind(F&& fn) {
    add(&type_info_v<Object>, true, std::forward<F>(fn), "the with_def_region_kind callback");
    return *this;
  }

  /// Leaves the node type registered under `type_key` and its subtypes out of what the
  /// callback added last matches, as the static layer's `excluding<Nodes...>(callback)`
  /// does: `cbs.on("ir.Expr", f).excluding("ir.PrimExpr")` sees graph-level expressions
  /// only, and the walks and maps prune what it can no longer reach.
  Callbacks& excluding(std::string_view type_key) { return excluding(type_by_key(type_key)); }
  Callbacks& excluding(const TypeInfo& type);
  template <hooked_node N>
  Callbacks& excluding() {
    return excluding(register_type<N>());
  }

  /// Makes the node type registered under `type_key` and its subtypes opaque to every
  /// traversal run with these callbacks, as the static layer's `not_into<Nodes...>` does: no
  /// callback sees them, and no walk, map, visit or mutate enters them, even when a callback
  /// matches what they hold (a map and a mutate keep them as they are).
  Callbacks& not_into(std::string_view type_key) { return not_into(type_by_key(type_key)); }
  Callbacks& not_into(const TypeInfo& type);
  template <hooked_node N>
  Callbacks& not_into() {
    return not_into(register_type<N>());
  }

  const std::vector<Entry>& entries() const noexcept { return entries_; }
  bool empty() const noexcept { return entries_.empty(); }
  /// The types not_into() made opaque.
  const std::vector<const TypeInfo*>& opaque_types() const noexcept { return opaque_; }

  /// The first entry that matches `node`, or null.
  const Entry* match(const Object& node) const noexcept { return match_type(node.type_info()); }
  /// The first entry that matches nodes of type `type`, or null (always null for a type
  /// not_into() made opaque).
  const Entry* match_type(const TypeInfo& type) const noexcept;
  /// Whether not_into() made `type` opaque (it is or derives from one of those types).
  bool is_opaque(const TypeInfo& type) const noexcept;

  /// Throws unless every callback is of `kind` (for the traversal `operation`).
  void expect(Kind kind, std::string_view operation) const;
  /// Throws if a callback takes a runtime::Mapped view (for a pre-order map).
  void expect_no_mapped(std::string_view operation) const;

  /// Which node types can lead to a node these callbacks match, and through which fields:
  /// what the runtime traversals leave out. Computed on first use, and again once node
  /// types were registered since (a plug-in's); thread-safe.
  std::shared_ptr<const detail::traverse::reach_table> reach() const;

private:
  /// The node type registered under `type_key`; throws a ctir::Error if there is none.
  static const TypeInfo& type_by_key(std::string_view type_key);
  static std::string_view kind_name(Kind kind) noexcept;
  static bool derives_from_any(const TypeInfo& type,
                               const std::vector<const TypeInfo*>& bases) noexcept;
  static std::string_view requirement(Kind kind) noexcept;

  template <class R>
  static WalkResult to_walk_result(R&& result) {
    return WalkResult(std::forward<R>(result));
  }

  template <class R>
  static MapResult<Object> to_map_result(R&& result) {
    using T = std::remove_cvref_t<R>;
    if constexpr (std::is_same_v<T, unchanged_t>) {
      return unchanged;
    } else if constexpr (requires { result.is_unchanged(); }) {
      if (result.is_unchanged()) {
        return unchanged;
      }
      return MapResult<Object>(ObjectRef(std::forward<R>(result).node()));
    } else {
      return MapResult<Object>(ObjectRef(std::forward<R>(result)));
    }
  }

  template <class R>
  struct walk_result_type : std::false_type {};
  template <class P>
  struct walk_result_type<ctir::WalkResult<P>> : std::true_type {};

  template <class R>
  static constexpr bool is_walkish() {
    return std::is_void_v<R> || walk_result_type<std::remove_cvref_t<R>>::value;
  }
  template <class R>
  struct map_result_type : std::false_type {};
  template <class T>
  struct map_result_type<MapResult<T>> : std::true_type {};

  template <class R>
  static constexpr bool is_nodeish() {
    using T = std::remove_cvref_t<R>;
    return std::is_same_v<T, unchanged_t> || detail::traverse::ref_traits<T>::is_ref ||
           map_result_type<T>::value;
  }

  /// Calls f with the leading arguments, the node, and the kind when f takes it.
  template <class F, class... Lead>
  static decltype(auto) invoke(F& f, const ObjectRef& node, DefRegionKind kind, Lead&... lead) {
    if constexpr (std::is_invocable_v<F&, Lead&..., const ObjectRef&, DefRegionKind>) {
      return f(lead..., node, kind);
    } else {
      return f(lead..., node);
    }
  }

  template <class F, class... Lead>
  static constexpr bool takes() {
    return std::is_invocable_v<F&, Lead&..., const ObjectRef&, DefRegionKind> ||
           std::is_invocable_v<F&, Lead&..., const ObjectRef&>;
  }

  template <class F>
  static constexpr bool takes_mapped() {
    return std::is_invocable_v<F&, const Mapped&, DefRegionKind> ||
           std::is_invocable_v<F&, const Mapped&>;
  }
  template <class F>
  static decltype(auto) invoke_mapped(F& f, const Mapped& view, DefRegionKind kind) {
    if constexpr (std::is_invocable_v<F&, const Mapped&, DefRegionKind>) {
      return f(view, kind);
    } else {
      return f(view);
    }
  }

  template <class F, class... Lead>
  using result_of = decltype(invoke(std::declval<F&>(), std::declval<const ObjectRef&>(),
                                    DefRegionKind::none, std::declval<Lead&>()...));

  template <class Fn>
  void add(const TypeInfo* type, bool def_region, Fn&& fn, std::string description) {
    using F = std::decay_t<Fn>;
    Entry entry;
    entry.type = type;
    entry.def_region = def_region;
    entry.description = std::move(description);
    if constexpr (takes<F, Visitor>()) {
      using R = result_of<F, Visitor>;
      static_assert(is_walkish<R>(),
                    "ctir::runtime::Callbacks: a visit callback (runtime::Visitor&, node) returns "
                    "void or a WalkResult");
      entry.kind = Kind::visit;
      entry.visit = [f = F(std::forward<Fn>(fn))](Visitor& v, const ObjectRef& node,
                                                  DefRegionKind kind) mutable -> WalkResult {
        if constexpr (std::is_void_v<R>) {
          invoke(f, node, kind, v);
          return advance;
        } else {
          return to_walk_result(invoke(f, node, kind, v));
        }
      };
    } else if constexpr (takes<F, Mutator>()) {
      using R = result_of<F, Mutator>;
      static_assert(is_nodeish<R>(),
                    "ctir::runtime::Callbacks: a mutate callback (runtime::Mutator&, node) must "
                    "return a node (return m.default_mutate(node), its input, or "
                    "ctir::unchanged)");
      entry.kind = Kind::mutate;
      entry.mutate = [f = F(std::forward<Fn>(fn))](Mutator& m, const ObjectRef& node,
                                                   DefRegionKind kind) mutable {
        return to_map_result(invoke(f, node, kind, m));
      };
    } else if constexpr (takes<F>()) {
      using R = result_of<F>;
      if constexpr (is_nodeish<R>()) {
        entry.kind = Kind::map;
        entry.map = [f = F(std::forward<Fn>(fn))](const ObjectRef& node,
                                                  DefRegionKind kind) mutable {
          return to_map_result(invoke(f, node, kind));
        };
      } else {
        static_assert(is_walkish<R>(),
                      "ctir::runtime::Callbacks: a callback taking the node returns void or a "
                      "WalkResult (walk), or a node (map)");
        entry.kind = Kind::walk;
        entry.walk = [f = F(std::forward<Fn>(fn))](const ObjectRef& node,
                                                   DefRegionKind kind) mutable -> WalkResult {
          if constexpr (std::is_void_v<R>) {
            invoke(f, node, kind);
            return advance;
          } else {
            return to_walk_result(invoke(f, node, kind));
          }
        };
      }
    } else if constexpr (takes_mapped<F>()) {
      using R = decltype(invoke_mapped(std::declval<F&>(), std::declval<const Mapped&>(),
                                       DefRegionKind::none));
      static_assert(is_nodeish<R>(),
                    "ctir::runtime::Callbacks: a callback taking const runtime::Mapped& is a map "
                    "callback: return a node (view.get(...), view.node()) or ctir::unchanged");
      entry.kind = Kind::map;
      entry.mapped = [f = F(std::forward<Fn>(fn))](const Mapped& view, DefRegionKind kind) mutable {
        return to_map_result(invoke_mapped(f, view, kind));
      };
    } else {
      // An error here means the callback's parameters are not what the runtime layer
      // passes: (const ObjectRef&) or (const runtime::Mapped&), optionally preceded by
      // runtime::Visitor& or runtime::Mutator&, optionally followed by DefRegionKind.
      static_assert(takes<F>(),
                    "ctir::runtime::Callbacks: a runtime callback takes (const ObjectRef& node), "
                    "(const runtime::Mapped&), (runtime::Visitor&, const ObjectRef&), or "
                    "(runtime::Mutator&, const ObjectRef&), optionally followed by "
                    "DefRegionKind");
    }
    entries_.push_back(std::move(entry));
    reach_.reset();
  }

  std::vector<Entry> entries_;
  std::vector<const TypeInfo*> opaque_;
  detail::traverse::reach_cache reach_;
};

} // namespace ctir::runtime

namespace ctir::detail::traverse {

/// The runtime callbacks of one traversal, in the shape the engines call.
template <runtime_op Op>
struct runtime_set {
  /// Its map engine compiles the field-table steps inline: it runs every node through them.
  static constexpr bool inline_dynamic_steps = true;
  using payload_type = ObjectRef;
  /// The key of the tables computed from the callbacks (handled_types_t).
  using match_key = runtime_set;
  const runtime::Callbacks* callbacks;

  template <class C>
  static constexpr std::size_t first_match_v = npos;
  template <class C>
  static constexpr bool handles_v = false;
  struct matcher {
    template <class T>
    static constexpr bool direct_v = true;
    template <class T>
    static constexpr bool opaque_v = false;
  };

  bool matches_dynamic(const Object& node) const noexcept {
    return callbacks->match(node) != nullptr || stops_at(node);
  }

  /// Whether the traversal enters a node of the type with index `index`: not one that
  /// not_into made opaque.
  bool enters_dynamic(std::uint32_t index) const {
    if (callbacks->opaque_types().empty()) {
      return true;
    }
    const TypeInfo* type = TypeRegistry::global().find(index);
    return type == nullptr || !callbacks->is_opaque(*type);
  }

  template <class Handler, class... Lead>
  bool call_dynamic(const Object& node, DefRegionKind region, Handler& handler,
                    Lead&... lead) const {
    const runtime::Callbacks::Entry* entry = callbacks->match(node);
    if (entry == nullptr) {
      if (!stops_at(node)) {
        return false;
      }
      // An opaque node (not_into) ends a visit or mutate there: kept, children unseen. The
      // walks and maps leave it out through the reach table instead.
      if constexpr (Op == runtime_op::visit) {
        handler(WalkResult<ObjectRef>(advance));
      } else {
        handler(MapResult<Object>(unchanged));
      }
      return true;
    }
    borrowed_ref<Object> ref(&node);
    if constexpr (Op == runtime_op::walk) {
      handler(entry->walk(ref.get(), region));
    } else if constexpr (Op == runtime_op::map) {
      if (entry->mapped) {
        // Without the original at hand, the node is shown as both (the map engine calls
        // call_dynamic_from, which has it).
        return call_dynamic_from(node, node, region, handler);
      }
      handler(entry->map(ref.get(), region));
    } else if constexpr (Op == runtime_op::visit) {
      handler(entry->visit(lead..., ref.get(), region));
    } else {
      handler(entry->mutate(lead..., ref.get(), region));
    }
    return true;
  }

  /// call_dynamic for a map, given the node before its children were mapped (`original`)
  /// as well as the node as it stands (`shown`), for a callback that takes a Mapped view.
  template <class Handler>
  bool call_dynamic_from(const Object& shown, const Object& original, DefRegionKind region,
                         Handler& handler) const {
    static_assert(Op == runtime_op::map);
    const runtime::Callbacks::Entry* entry = callbacks->match(shown);
    if (entry == nullptr || !entry->mapped) {
      return call_dynamic(shown, region, handler);
    }
    borrowed_ref<Object> before(&original);
    borrowed_ref<Object> after(&shown);
    built_mapped view(before.get(), after.get());
    handler(entry->mapped(view, region));
    return true;
  }

private:
  bool stops_at(const Object& node) const noexcept {
    if constexpr (Op == runtime_op::visit || Op == runtime_op::mutate) {
      return !callbacks->opaque_types().empty() && callbacks->is_opaque(node.type_info());
    } else {
      static_cast<void>(node);
      return false;
    }
  }
};

} // namespace ctir::detail::traverse

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/callbacks-inl.hpp>
#include <ctir/runtime/detail/reach_table-inl.hpp>
#endif
