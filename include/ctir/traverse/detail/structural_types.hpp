// The vocabulary of structural equality and hashing (options, the first mismatch), apart from
// their engines so that both engines and the runtime layer's declarations can name it.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/traverse/access_path.hpp>

#include <string>

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

/// Options of structural hashing; use the same ones as the equality the hash serves.
struct StructuralHashOptions {
  /// Hash free variables by the order in which they are first met (as structural_equal
  /// with map_free_vars pairs them) instead of by their name.
  bool map_free_vars = false;
};

} // namespace ctir
