// What the built-in lowerings of LegalizeOps share: splicing blocks, broadcast indices, axes.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/legalize_call.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

// The built-in lowerings (legalize_elementwise, legalize_reduction, legalize_layout) each
// reproduce the reference kernel of eval/kernels.hpp: the same scalar operations (so integer
// wrapping, floor division and NaN rules follow), and for sums and products the same order
// of accumulation, in float64 for floats (rounded once at the end) and in the element dtype
// for integers and bool (wrapping arithmetic gives the kernel's 64-bit sum truncated; bool
// addition is "any").

namespace ctir::passes::detail {

/// Appends `stmt` to `body`, the statements of a block spliced in (no nested blocks).
void append(std::vector<Stmt>& body, const Stmt& stmt);

/// The indices of an input broadcast to an output (numpy: aligned from the right; a
/// dimension of 1 against a larger one reads index 0).
std::vector<PrimExpr> broadcast_indices(const LegalizeCall& call,
                                        const std::vector<std::int64_t>& in,
                                        const std::vector<std::int64_t>& out,
                                        const std::vector<PrimExpr>& indices);

/// The axes of `call`'s attribute `key` normalized against rank `rank` (the type relation
/// has checked them).
std::vector<std::size_t> axes_attr(const LegalizeCall& call, std::string_view key,
                                   std::size_t rank);

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/legalize_common-inl.hpp>
#endif
