// The built-in lowerings of elementwise operators: binary arithmetic, negative, relu, fills.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/passes/legalize_call.hpp>

namespace ctir::passes::detail {

/// The lowering of binary operator `op`, its operands broadcast as numpy does.
Lowering binary_lowering(BinaryOp op);

/// The lowering of negative, or of relu (`max(x, 0)`) when `relu`.
Lowering unary_lowering(bool relu);

/// The lowering of a fill (zeros, ones): `value` in the output's dtype everywhere.
Lowering fill_lowering(double value);

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/legalize_elementwise-inl.hpp>
#endif
