// The built-in lowerings of reductions: matmul and sum, accumulating as the kernels do.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/legalize_call.hpp>

namespace ctir::passes::detail {

/// A (batched) matrix product; float32 and float16 accumulate in float64.
Stmt lower_matmul(const LegalizeCall& call);

/// A sum over some or all axes (`axis`, `keepdims`); float32 and float16 accumulate in float64.
Stmt lower_sum(const LegalizeCall& call);

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/legalize_reduction-inl.hpp>
#endif
