// Definitions of <ctir/passes/detail/legalize_elementwise.hpp>.
#pragma once

#include <ctir/passes/detail/legalize_elementwise.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/detail/legalize_common.hpp>

#include <vector>

namespace ctir::passes::detail {

CTIR_INLINE PrimExpr apply_binary(BinaryOp op, PrimExpr a, PrimExpr b) {
  switch (op) {
  case BinaryOp::add:
    return a + b;
  case BinaryOp::sub:
    return a - b;
  case BinaryOp::mul:
    return a * b;
  case BinaryOp::div:
    return a / b;
  case BinaryOp::min:
    return min(a, b);
  default:
    return max(a, b);
  }
}

CTIR_INLINE Lowering binary_lowering(BinaryOp op) {
  return [op](const LegalizeCall& call) -> Stmt {
    const auto out = call.output_shape();
    const auto a = call.input_shape(0);
    const auto b = call.input_shape(1);
    return call.loop_nest(out, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      return TensorStore::make(
          call.output, idx,
          apply_binary(op, load(call.inputs[0], broadcast_indices(call, a, out, idx)),
                       load(call.inputs[1], broadcast_indices(call, b, out, idx))));
    });
  };
}

CTIR_INLINE Lowering unary_lowering(bool relu) {
  return [relu](const LegalizeCall& call) -> Stmt {
    const DataType dtype = call.output_type->dtype;
    return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      const PrimExpr x = load(call.inputs[0], idx);
      return TensorStore::make(call.output, idx, relu ? max(x, make_const(dtype, 0)) : -x);
    });
  };
}

CTIR_INLINE Lowering fill_lowering(double value) {
  return [value](const LegalizeCall& call) -> Stmt {
    const PrimExpr fill = make_const(call.output_type->dtype, value);
    return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      return TensorStore::make(call.output, idx, fill);
    });
  };
}

} // namespace ctir::passes::detail
