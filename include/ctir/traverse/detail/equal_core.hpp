// The iterative core of structural equality: the runtime layer's comparison, the reports of
// mismatches, and the continuation of the static fast path (equal_engine.hpp).
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/traverse/access_path.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/field_plan.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace ctir::detail::structural {

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

/// A variable as a report names it: its name in quotes, or '<unnamed>'.
std::string variable_label(const Object* var);

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
  bool run_iterative(const Object* a, const Object* b, std::uint16_t flags);

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

  /// The rhs variable an lhs variable is bound to, or nullptr before its first encounter.
  CTIR_DETAIL_ALWAYS_INLINE const Object** bound_partner(const Object* a) noexcept {
    return var_lhs_.find(a);
  }

  // The first encounter of `a` on the lhs (bind_vars found no partner for it).
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

private:
  CTIR_DETAIL_ALWAYS_INLINE void push(const EqualEntry& entry);

  bool step(const EqualEntry& e);

  // --- Reporting (Track mode only; the fast mode just answers false) ---

  static void append_step(AccessPath& path, const Object* parent, std::uint16_t field,
                          std::uint32_t index);

  AccessPath path_to(std::uint16_t field, std::uint32_t index) const;

  bool report(const EqualEntry& e, const Object* lhs_node, const Object* rhs_node,
              std::string reason, const FieldInfo* value_field = nullptr);

  const Object* parent_a() const { return frames_.empty() ? nullptr : frames_.back().a; }
  const Object* parent_b() const { return frames_.empty() ? nullptr : frames_.back().b; }

  bool fail_null(const EqualEntry& e);

  bool fail_type(const EqualEntry& e);

  bool fail_value(const EqualEntry& e, std::size_t field_index);

  template <class Reason>
  void fail_lazy(const EqualEntry* e, Reason&& reason) {
    if constexpr (Track) {
      report(*e, e->a, e->b, reason());
    }
    (void)e;
    (void)reason;
  }

  bool fail_length(const EqualEntry& e);

  bool map_free_vars_;
  bool has_pending_ = false;
  FieldPlanCache plans_{PlanPurpose::equal};
  EqualEntry pending_{};
  WorkStack<EqualEntry> work_;
  WorkStack<EqualFrame, Track ? 64 : 1> frames_;
  FlatMap<const Object*, const Object*> var_lhs_;
  FlatMap<const Object*, const Object*> var_rhs_;
  FlatMap<const Object*, const Object*, SlotOrder::by_address> graph_lhs_;
  FlatMap<const Object*, const Object*, SlotOrder::by_address> graph_rhs_;
  FlatMap<NodePair, bool> proven_;
  StructuralMismatch mismatch_;
};

#ifndef CTIR_HEADER_ONLY
// Compiled once, in the library: the runtime layer and the reports use both; the static fast
// path inlines EqualCore<false>'s variable and sharing checks and calls its run_iterative.
extern template class EqualCore<false>;
extern template class EqualCore<true>;
#endif

} // namespace ctir::detail::structural

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/detail/equal_core-inl.hpp>
#endif
