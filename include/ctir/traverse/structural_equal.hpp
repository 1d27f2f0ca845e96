// structural_equal and find_structural_mismatch: comparing IR by structure, not identity.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/access_path.hpp>
#include <ctir/traverse/detail/equal_core.hpp>
#include <ctir/traverse/detail/equal_engine.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <optional>

namespace ctir {

namespace detail::structural {

/// The first mismatch, in comparison order, through the runtime field tables (the same
/// order and the same answer as either layer's comparison).
std::optional<StructuralMismatch> first_mismatch(const Object* a, const Object* b,
                                                 const StructuralEqualOptions& options);

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

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/structural_equal-inl.hpp>
#endif
