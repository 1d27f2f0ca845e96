// assert_structural_equal: throws an error that names and shows where two programs differ.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/access_path.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <optional>
#include <string>
#include <utility>

namespace ctir {

namespace detail {

/// Renders the program `root` with `node`, which `path` reaches from `root`, underlined at
/// the place the path leads to (a variable at the differing use, not at its definition),
/// for structural-equality reports.
///
/// This layer cannot include the printer (it sits above it), so the text layer installs
/// its renderer here (ctir::install_printer). While it is null, reports fall back to a
/// one-line description of each mismatching node.
inline std::string (*program_printer)(const ObjectRef& root, const Object* node,
                                      const AccessPath& path) = nullptr;

/// A one-line description of a node: its type key and its plain values, or its variable
/// name: `ir.FloatImm(dtype=float32, value=1.0)`, `ir.Var('x')`.
std::string structural_short_repr(const Object* node);

} // namespace detail

/// The report of a structural mismatch as assert_structural_equal words it: the access
/// path on each side and each program with the mismatching node underlined.
std::string format_structural_mismatch(const ObjectRef& lhs, const ObjectRef& rhs,
                                       const StructuralMismatch& mismatch);

/// The error of a failed assert_structural_equal: where the two values differ.
class StructuralEqualError : public Error {
public:
  StructuralEqualError(StructuralMismatch mismatch, const std::string& message);

  const StructuralMismatch& mismatch() const noexcept { return mismatch_; }
  const AccessPath& lhs_path() const noexcept { return mismatch_.lhs_path; }
  const AccessPath& rhs_path() const noexcept { return mismatch_.rhs_path; }
  const ObjectRef& lhs_node() const noexcept { return mismatch_.lhs_node; }
  const ObjectRef& rhs_node() const noexcept { return mismatch_.rhs_node; }

private:
  StructuralMismatch mismatch_;
};

/// Checks two values for structural equality; see `ctir::assert_structural_equal`.
struct assert_structural_equal_fn {
  /// Returns when `a` and `b` are structurally equal (see structural_equal); otherwise
  /// throws StructuralEqualError naming the access path of the first mismatch on both
  /// sides and showing both programs with the mismatching node underlined.
  template <structural_value A, structural_value B>
  void operator()(const A& a, const B& b, StructuralEqualOptions options = {}) const {
    std::optional<StructuralMismatch> mismatch = find_structural_mismatch(a, b, options);
    if (!mismatch) {
      return;
    }
    const ObjectRef lhs = ObjectRef::borrow(detail::structural::root_object(a));
    const ObjectRef rhs = ObjectRef::borrow(detail::structural::root_object(b));
    std::string message = format_structural_mismatch(lhs, rhs, *mismatch);
    throw StructuralEqualError(std::move(*mismatch), message);
  }
};

/// Throws StructuralEqualError unless `a` and `b` are structurally equal.
inline constexpr assert_structural_equal_fn assert_structural_equal{};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/assert_structural_equal-inl.hpp>
#endif
