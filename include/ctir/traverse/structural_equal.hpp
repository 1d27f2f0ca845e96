// structural_equal and find_structural_mismatch: comparing IR by structure, not identity.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/hooks/value_traits.hpp>
#include <ctir/traverse/access_path.hpp>
#include <ctir/traverse/detail/equal_support.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// Options of structural equality.
struct StructuralEqualOptions {
  /// Pair up free variables (those defined nowhere in the compared values) on first
  /// encounter, consistently, instead of requiring each to be the very same object.
  bool map_free_vars = false;
};

/// The first place where two values differ structurally.
///
/// The two paths name the same position on both sides (`<root>.body.seq[0].value.b.value`).
/// The nodes are what a report underlines: the mismatching node itself, or the node
/// that holds the mismatch when it is a plain value field (the path then ends with the
/// field's name), a missing array element, or a null on that side.
struct StructuralMismatch {
  AccessPath lhs_path;
  AccessPath rhs_path;
  ObjectRef lhs_node;
  ObjectRef rhs_node;
  /// What differs, in words ("field 'value' differs: 1.0 vs 2.0").
  std::string reason;
};

namespace detail::structural {

/// A pair of positions waiting to be compared.
struct EqualEntry {
  const Object* a;
  const Object* b;
  std::uint32_t index; ///< element index in an array field, or no_index
  std::uint16_t field; ///< field index in the parent's type, or no_field for the root
  std::uint16_t flags; ///< entry_flags
};

/// A node whose children are being compared (kept only to name paths).
struct EqualFrame {
  const Object* a;
  const Object* b;
  std::size_t base; ///< the work-stack size below this node's children
  std::uint32_t index;
  std::uint16_t field;
};

enum class Step : std::uint8_t { mismatch, done, descend };

inline std::string variable_label(const Object* var) {
  const TypeInfo& info = var->type_info();
  std::string name = info.variable_name != nullptr ? std::string(info.variable_name(*var)) : "";
  return "'" + (name.empty() ? std::string("<unnamed>") : name) + "'";
}

/// How deep the fast path recurses on the native stack before it hands the rest of a
/// subtree to the explicit stack (a few kilobytes of native stack at most).
inline constexpr unsigned recursion_budget = 160;

/// The comparison driven by the runtime field tables, over an explicit stack: the whole
/// of the runtime layer, the reporting of mismatches (Track), and the continuation of
/// the static fast path below its recursion budget or into a node type it does not know.
/// It does not depend on the static universe, so it is instantiated once per program.
///
/// Order: depth-first; at each pair, nulls and dynamic types, then variables (binding)
/// or sharing (graph-level DAG bijection, memo of shared tree pairs), then plain value
/// fields in order, then the node fields in order. The last pair pushed (the first
/// child) waits in a one-entry cache, so descending costs no stack round trip. With
/// Track, the engine also keeps the chain of open ancestors, so that the first mismatch
/// is reported with its access path.
template <bool Track>
class EqualCore {
public:
  explicit EqualCore(bool map_free_vars) noexcept : map_free_vars_(map_free_vars) {}
  EqualCore(const EqualCore&) = delete;
  EqualCore& operator=(const EqualCore&) = delete;

  /// Compares a subtree pair to the end; the stack is empty on entry and on success.
  [[gnu::noinline]] bool run_iterative(const Object* a, const Object* b, std::uint16_t flags) {
    push(EqualEntry{a, b, no_index, no_field, flags});
    while (true) {
      EqualEntry entry;
      if (has_pending_) {
        entry = pending_;
        has_pending_ = false;
      } else {
        if constexpr (Track) {
          while (!frames_.empty() && frames_.back().base == work_.size()) {
            frames_.pop();
          }
        }
        if (work_.empty()) {
          return true;
        }
        entry = work_.pop();
      }
      if (!step(entry)) {
        return false;
      }
    }
  }

  /// The first mismatch (Track mode, after run_iterative returned false).
  StructuralMismatch take_mismatch() { return std::move(mismatch_); }

protected:
  // Variables: the first encounter of a pair binds them (at a definition site, or a
  // free pair when map_free_vars is on; an unmapped free variable binds to itself), and
  // their own fields (the type) are compared then; every later encounter, definition
  // or use, must name the same partner. `e` is only read to report (Track).
  CTIR_DETAIL_ALWAYS_INLINE Step bind_vars(const Object* a, const Object* b, std::uint16_t flags,
                                           const EqualEntry* e) {
    if (const Object** partner = var_lhs_.find(a)) [[likely]] {
      if (*partner == b) [[likely]] {
        return Step::done;
      }
      const Object* bound = *partner;
      fail_lazy(e, [&] {
        return "variable " + variable_label(a) + " on the lhs is bound to " +
               variable_label(bound) + " on the rhs, not to " + variable_label(b);
      });
      return Step::mismatch;
    }
    return bind_new(a, b, flags, e);
  }

  // Shared nodes: a graph-level node may be matched with one partner only (the DAG must
  // have the same shape); a pair of shared tree nodes already found equal is not compared
  // again, which keeps shared DAGs linear. A pair is recorded when first met: if it
  // turns out unequal the whole comparison stops there anyway. Only nodes referenced
  // more than once can be met again, so unshared nodes skip all of this.
  Step check_shared(const Object* a, const Object* b, bool graph, const EqualEntry* e) {
    if (graph) {
      if (const Object** partner = graph_lhs_.find(a)) {
        if (*partner == b) {
          return Step::done;
        }
        fail_lazy(e, [] {
          return std::string("this lhs node is shared and was already matched with another rhs "
                             "node: the graphs share nodes differently");
        });
        return Step::mismatch;
      }
      if (graph_rhs_.find(b) != nullptr) {
        fail_lazy(e, [] {
          return std::string("this rhs node is shared and was already matched with another lhs "
                             "node: the graphs share nodes differently");
        });
        return Step::mismatch;
      }
      graph_lhs_.insert_new(a, b);
      graph_rhs_.insert_new(b, a);
      return Step::descend;
    }
    if (a->use_count() > 1 && b->use_count() > 1) {
      const NodePair pair{a, b};
      if (proven_.find(pair) != nullptr) {
        return Step::done;
      }
      proven_.insert_new(pair, true);
    }
    return Step::descend;
  }

private:
  Step bind_new(const Object* a, const Object* b, std::uint16_t flags, const EqualEntry* e) {
    if (const Object** partner = var_rhs_.find(b)) {
      const Object* bound = *partner;
      fail_lazy(e, [&] {
        return "variable " + variable_label(b) + " on the rhs is already bound to " +
               variable_label(bound) + " on the lhs";
      });
      return Step::mismatch;
    }
    if (!is_definition(flags) && !map_free_vars_ && a != b) {
      fail_lazy(e, [&] {
        return "free variables " + variable_label(a) + " and " + variable_label(b) +
               " are different objects (map_free_vars is off)";
      });
      return Step::mismatch;
    }
    var_lhs_.insert_new(a, b);
    var_rhs_.insert_new(b, a);
    return Step::descend;
  }

  CTIR_DETAIL_ALWAYS_INLINE void push(const EqualEntry& entry) {
    if (has_pending_) {
      work_.push(pending_);
    }
    pending_ = entry;
    has_pending_ = true;
  }

  bool step(const EqualEntry& e) {
    if constexpr (Track) {
      if ((e.flags & entry_flags::length_mismatch) != 0) {
        return fail_length(e);
      }
    }
    if (e.a == nullptr || e.b == nullptr) [[unlikely]] {
      return e.a == e.b || fail_null(e);
    }
    if (e.a->dynamic_type_index() != e.b->dynamic_type_index()) [[unlikely]] {
      return fail_type(e);
    }
    const Object& a = *e.a;
    const Object& b = *e.b;
    const TypeInfo& info = a.type_info();
    if (info.is_variable) {
      const Step s = bind_vars(&a, &b, e.flags, &e);
      if (s != Step::descend) {
        return s == Step::done;
      }
    } else if (a.use_count() > 1 || b.use_count() > 1) {
      const bool graph =
          is_graph_type(info) && (has_children_runtime(a) || has_children_runtime(b));
      const Step s = check_shared(&a, &b, graph, &e);
      if (s != Step::descend) {
        return s == Step::done;
      }
    }
    const std::span<const FieldInfo> fields = info.fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const FieldInfo& field = fields[i];
      if (field.kind != FieldKind::value || field.ignored()) {
        continue;
      }
      if (field.equal == nullptr) {
        throw Error("ctir: structural_equal: field '" + std::string(field.name) + "' of " +
                    std::string(info.key) +
                    " is a plain value without an equal function; give it one or mark it "
                    "ignore");
      }
      if (!field.equal(a, b, field)) {
        return fail_value(e, i);
      }
    }
    if constexpr (Track) {
      // The node's children go above the current size; the frame closes when the stack
      // is back to it (checked only before popping, when no child waits in the cache).
      frames_.push(EqualFrame{e.a, e.b, work_.size(), e.index, e.field});
    }
    for (std::size_t i = fields.size(); i-- > 0;) {
      const FieldInfo& field = fields[i];
      if (field.ignored() || field.kind == FieldKind::value) {
        continue;
      }
      const std::uint16_t flags = child_flags(e.flags, field.def_kind);
      const auto field_index = static_cast<std::uint16_t>(i);
      if (field.kind == FieldKind::node) {
        push(EqualEntry{field.get(a, field), field.get(b, field), no_index, field_index, flags});
        continue;
      }
      const std::size_t na = field.size(a, field);
      const std::size_t nb = field.size(b, field);
      if (na != nb) {
        if constexpr (!Track) {
          return false;
        } else {
          // The common elements first (a difference among them is reported first), then
          // the length, through an entry reached after them.
          push(EqualEntry{e.a, e.b, static_cast<std::uint32_t>(na < nb ? na : nb), field_index,
                          static_cast<std::uint16_t>(flags | entry_flags::length_mismatch)});
        }
      }
      for (std::size_t k = na < nb ? na : nb; k-- > 0;) {
        push(EqualEntry{field.at(a, field, k), field.at(b, field, k), static_cast<std::uint32_t>(k),
                        field_index, flags});
      }
    }
    return true;
  }

  // --- Reporting (Track mode only; the fast mode just answers false) ---

  static void append_step(AccessPath& path, const Object* parent, std::uint16_t field,
                          std::uint32_t index) {
    if (field == no_field || parent == nullptr) {
      return;
    }
    path.push_field(parent->type_info().fields[field].name);
    if (index != no_index) {
      path.push_index(index);
    }
  }

  AccessPath path_to(std::uint16_t field, std::uint32_t index) const {
    AccessPath path;
    const Object* parent = nullptr;
    for (const EqualFrame& frame : frames_) {
      append_step(path, parent, frame.field, frame.index);
      parent = frame.a;
    }
    append_step(path, parent, field, index);
    return path;
  }

  bool report(const EqualEntry& e, const Object* lhs_node, const Object* rhs_node,
              std::string reason, const FieldInfo* value_field = nullptr) {
    AccessPath path = path_to(e.field, e.index);
    if (value_field != nullptr) {
      path.push_field(value_field->name);
    }
    mismatch_.lhs_path = path;
    mismatch_.rhs_path = std::move(path);
    mismatch_.lhs_node = ObjectRef::borrow(lhs_node);
    mismatch_.rhs_node = ObjectRef::borrow(rhs_node);
    mismatch_.reason = std::move(reason);
    return false;
  }

  const Object* parent_a() const { return frames_.empty() ? nullptr : frames_.back().a; }
  const Object* parent_b() const { return frames_.empty() ? nullptr : frames_.back().b; }

  bool fail_null(const EqualEntry& e) {
    if constexpr (Track) {
      const std::string lhs = e.a == nullptr ? "null" : "a " + std::string(e.a->dynamic_type_key());
      const std::string rhs = e.b == nullptr ? "null" : "a " + std::string(e.b->dynamic_type_key());
      return report(e, e.a != nullptr ? e.a : parent_a(), e.b != nullptr ? e.b : parent_b(),
                    "lhs is " + lhs + ", rhs is " + rhs);
    }
    return false;
  }

  bool fail_type(const EqualEntry& e) {
    if constexpr (Track) {
      return report(e, e.a, e.b,
                    "lhs is a " + std::string(e.a->dynamic_type_key()) + ", rhs is a " +
                        std::string(e.b->dynamic_type_key()));
    }
    return false;
  }

  bool fail_value(const EqualEntry& e, std::size_t field_index) {
    if constexpr (Track) {
      const FieldInfo& field = e.a->type_info().fields[field_index];
      std::string lhs;
      std::string rhs;
      if (field.print != nullptr) {
        field.print(*e.a, field, lhs);
        field.print(*e.b, field, rhs);
      }
      return report(e, e.a, e.b,
                    "field '" + std::string(field.name) + "' differs: " + lhs + " vs " + rhs,
                    &field);
    }
    (void)e;
    (void)field_index;
    return false;
  }

  template <class Reason>
  void fail_lazy(const EqualEntry* e, Reason&& reason) {
    if constexpr (Track) {
      report(*e, e->a, e->b, reason());
    }
    (void)e;
    (void)reason;
  }

  bool fail_length(const EqualEntry& e) {
    // e.a / e.b are the owners; the frame on top is theirs.
    const FieldInfo& field = e.a->type_info().fields[e.field];
    const std::size_t na = field.size(*e.a, field);
    const std::size_t nb = field.size(*e.b, field);
    const Object* lhs = na > e.index ? field.at(*e.a, field, e.index) : e.a;
    const Object* rhs = nb > e.index ? field.at(*e.b, field, e.index) : e.b;
    return report(e, lhs != nullptr ? lhs : e.a, rhs != nullptr ? rhs : e.b,
                  "array '" + std::string(field.name) + "' has " + std::to_string(na) +
                      (na == 1 ? " element" : " elements") + " on the lhs and " +
                      std::to_string(nb) + " on the rhs");
  }

  bool map_free_vars_;
  bool has_pending_ = false;
  EqualEntry pending_{};
  WorkStack<EqualEntry> work_;
  WorkStack<EqualFrame, Track ? 64 : 1> frames_;
  FlatMap<const Object*, const Object*> var_lhs_;
  FlatMap<const Object*, const Object*> var_rhs_;
  FlatMap<const Object*, const Object*> graph_lhs_;
  FlatMap<const Object*, const Object*> graph_rhs_;
  FlatMap<NodePair, bool> proven_;
  StructuralMismatch mismatch_;
};

/// The static layer's fast path: the same comparison, recursing through the
/// compile-time hooks of the node types in Universe, as a hand-written comparator
/// would. A tiny frameless `compare` (null and type checks, a jump table on the type)
/// tail-calls one small function per node type, which compares the plain values and
/// calls `compare` for the children (the last one again as a tail call). Past
/// `recursion_budget` levels, or at a node type outside Universe, the subtree goes to
/// the iterative core, synchronously, so the order (and so the binding of variables)
/// is unchanged and the native stack stays bounded.
template <class Universe>
class EqualEngine : public EqualCore<false> {
public:
  using EqualCore<false>::EqualCore;

  bool run(const Object* a, const Object* b) { return compare(a, b, 0); }

private:
  struct OnStatic {
    EqualEngine& engine;
    const Object* b;
    unsigned position;
    template <class T>
    CTIR_DETAIL_ALWAYS_INLINE bool operator()(const T& a) const {
      return engine.template compare_static<T>(&a, b, position);
    }
  };
  struct OnRuntime {
    EqualEngine& engine;
    const Object* b;
    unsigned position;
    CTIR_DETAIL_ALWAYS_INLINE bool operator()(const Object& a) const {
      return engine.run_iterative(&a, b, flags_of(position));
    }
  };

  static std::uint16_t flags_of(unsigned position) noexcept {
    return static_cast<std::uint16_t>(position & position_flags_mask);
  }

  // `position`: the entry flags and the recursion depth (see child_position).
  bool compare(const Object* a, const Object* b, unsigned position) {
    if (a == nullptr || b == nullptr) [[unlikely]] {
      return a == b;
    }
    if (a->dynamic_type_index() != b->dynamic_type_index()) [[unlikely]] {
      return false;
    }
    if (position_depth(position) >= recursion_budget) [[unlikely]] {
      return run_iterative(a, b, flags_of(position));
    }
    OnStatic on_static{*this, b, position};
    OnRuntime on_runtime{*this, b, position};
    return dispatch_in(Universe{}, *a, on_static, on_runtime);
  }

  template <class T>
  [[gnu::noinline]] bool compare_static(const Object* a_object, const Object* b_object,
                                        unsigned position) {
    const T& a = static_cast<const T&>(*a_object);
    const T& b = static_cast<const T&>(*b_object);
    if constexpr (is_variable_node_v<T>) {
      const Step s = bind_vars(&a, &b, flags_of(position), nullptr);
      if (s != Step::descend) {
        return s == Step::done;
      }
    } else if constexpr (has_node_fields_v<T>) {
      if (a.use_count() > 1 || b.use_count() > 1) [[unlikely]] {
        const bool graph = is_graph_type_v<T> && (has_children_static(a) || has_children_static(b));
        const Step s = check_shared(&a, &b, graph, nullptr);
        if (s != Step::descend) {
          return s == Step::done;
        }
      }
    }
    const bool values_equal = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (value_field_equal<T, I>(a, b) && ...);
    }
    (std::make_index_sequence<field_count_v<T>>{});
    if constexpr (!has_node_fields_v<T>) {
      return values_equal;
    } else {
      return values_equal&& [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (compare_field_static<T, I>(a, b, position) && ...);
      }
      (std::make_index_sequence<field_count_v<T>>{});
    }
  }

  template <class T, std::size_t I>
  CTIR_DETAIL_ALWAYS_INLINE static bool value_field_equal(const T& a, const T& b) {
    using F = std::remove_cvref_t<decltype(field_at_v<T, I>)>;
    if constexpr (F::kind != FieldKind::value || F::ignored) {
      return true;
    } else {
      return value_traits<typename F::value_type>::equal(F::get(a), F::get(b));
    }
  }

  template <class T, std::size_t J>
  CTIR_DETAIL_ALWAYS_INLINE bool compare_field_static(const T& a, const T& b, unsigned position) {
    using F = std::remove_cvref_t<decltype(field_at_v<T, J>)>;
    if constexpr (F::ignored || F::kind == FieldKind::value) {
      return true;
    } else {
      const unsigned child = child_position(position, F::def_kind);
      if constexpr (F::kind == FieldKind::node) {
        return compare(F::get(a).get(), F::get(b).get(), child);
      } else {
        const auto& xs = F::get(a);
        const auto& ys = F::get(b);
        if (xs.size() != ys.size()) {
          return false;
        }
        for (std::size_t k = 0; k < xs.size(); ++k) {
          if (!compare(xs[k].get(), ys[k].get(), child)) {
            return false;
          }
        }
        return true;
      }
    }
  }
};

/// Compares with the compile-time hooks of the types in Universe (an empty list: every
/// node through its runtime field table).
template <class Universe>
bool equal_objects(const Object* a, const Object* b, const StructuralEqualOptions& options) {
  if constexpr (Universe::size == 0) {
    EqualCore<false> engine(options.map_free_vars);
    return engine.run_iterative(a, b, 0);
  } else {
    EqualEngine<Universe> engine(options.map_free_vars);
    return engine.run(a, b);
  }
}

/// The first mismatch, in comparison order, through the runtime field tables (the same
/// order and the same answer as either layer's comparison).
inline std::optional<StructuralMismatch> first_mismatch(const Object* a, const Object* b,
                                                        const StructuralEqualOptions& options) {
  EqualCore<true> engine(options.map_free_vars);
  if (engine.run_iterative(a, b, 0)) {
    return std::nullopt;
  }
  return engine.take_mismatch();
}

template <class A, class B>
using equal_universe_t = static_universe_t<root_node_t<A>, root_node_t<B>>;

} // namespace detail::structural

/// Compares two values by structure; see `ctir::structural_equal`.
struct structural_equal_fn {
  /// Whether `a` and `b` are the same program up to the renaming of the variables they
  /// define (as in TVM's structural utilities).
  ///
  /// Fields are compared in order through the node types' hooks; ignored fields are
  /// skipped and plain values compare through value_traits (floats bitwise, NaN equal to
  /// NaN). Variables defined in definition regions are paired with their counterparts;
  /// free variables equal only themselves unless `map_free_vars`. Graph-level dataflow
  /// nodes (calls, tuples, ...) compare as a DAG: their sharing must match. Tensor-level
  /// scalar expressions, statements and types compare as trees.
  ///
  /// Any depth works: the fast path recurses through the statically dispatched hooks for
  /// a bounded number of levels, deeper levels continue on a heap stack. Shared DAGs are
  /// compared in time linear in their distinct nodes.
  template <structural_value A, structural_value B>
  bool operator()(const A& a, const B& b, StructuralEqualOptions options = {}) const {
    return detail::structural::equal_objects<detail::structural::equal_universe_t<A, B>>(
        detail::structural::root_object(a), detail::structural::root_object(b), options);
  }

  template <class A, class B>
  bool operator()(const A&, const B&, StructuralEqualOptions = {}) const
      requires(!(structural_value<A> && structural_value<B>)) {
    // An error here means an argument is neither a ctir::Ref<Node> nor a value with
    // node() (such as IRModule); pass the node handles themselves.
    static_assert(detail::structural::dependent_false<A>::value,
                  "ctir::structural_equal(a, b): a and b must be ctir::Ref<Node> handles or values "
                  "that expose their node through node(), like IRModule");
    return false;
  }
};

/// Compares two values by structure: `structural_equal(a, b, {.map_free_vars = true})`.
inline constexpr structural_equal_fn structural_equal{};

/// Finds the first structural mismatch; see `ctir::find_structural_mismatch`.
struct find_structural_mismatch_fn {
  /// The first position, in comparison order, where `a` and `b` differ, or nullopt when
  /// they are structurally equal (exactly when structural_equal is false). Comparison
  /// order is depth-first: at each node its plain value fields first, then its node
  /// fields in declaration order; the elements two arrays have in common come before a
  /// difference in length. Driven by the runtime field tables (any node type).
  template <structural_value A, structural_value B>
  std::optional<StructuralMismatch> operator()(const A& a, const B& b,
                                               StructuralEqualOptions options = {}) const {
    return detail::structural::first_mismatch(detail::structural::root_object(a),
                                              detail::structural::root_object(b), options);
  }
};

/// The first structural mismatch between two values, with its access path on both sides.
inline constexpr find_structural_mismatch_fn find_structural_mismatch{};

} // namespace ctir
