// ctir-diff's report of the first place where two modules differ.
#pragma once

#include "load.hpp"

#include <ctir/traverse/structural_equal.hpp>

#include <string>

namespace ctir_diff {

/// The report of `mismatch` between `lhs` and `rhs`:
///
///     a.ctir and b.ctir differ: field 'value' differs: 1.0 vs 2.0
///     a.ctir at @add_one.body.seq[0].body.seq[0].value.b.value
///       (<root>.functions[0].body.seq[0].body.seq[0].value.b.value):
///     prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
///       ...
///         %B[%i] = %A[%i] + 1f;
///                           ^^
///     b.ctir at ...
///
/// Each side shows the whole function that holds the mismatch (or, for a difference in the
/// module's list of functions, the lines around it) with the node that differs underlined.
std::string describe_mismatch(const LoadedModule& lhs, const LoadedModule& rhs,
                              const ctir::StructuralMismatch& mismatch);

} // namespace ctir_diff
