// Definitions of <ctir/passes/detail/legalize_layout.hpp>.
#pragma once

#include <ctir/passes/detail/legalize_layout.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/passes/detail/legalize_common.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ctir::passes::detail {

CTIR_INLINE Stmt lower_transpose(const LegalizeCall& call) {
  const std::size_t rank = call.input_types[0]->ndim();
  std::vector<std::size_t> axes = axes_attr(call, "axes", rank);
  if (!call.attrs.contains("axes")) {
    for (std::size_t d = 0; d < rank; ++d) {
      axes.push_back(rank - 1 - d);
    }
  }
  return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
    std::vector<PrimExpr> at(rank);
    for (std::size_t d = 0; d < rank; ++d) {
      at[axes[d]] = idx[d];
    }
    return TensorStore::make(call.output, idx, load(call.inputs[0], at));
  });
}

CTIR_INLINE Stmt lower_reshape(const LegalizeCall& call) {
  const auto in = call.input_shape(0);
  const auto out = call.output_shape();
  return call.loop_nest(out, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
    if (in == out) {
      return TensorStore::make(call.output, idx, load(call.inputs[0], idx));
    }
    // The row-major position of the output element (dimensions of 1 add nothing), then
    // the input index at that position.
    PrimExpr flat;
    for (std::size_t d = 0; d < out.size(); ++d) {
      if (out[d] != 1) {
        flat = flat.defined() ? flat * call.index(out[d]) + idx[d] : idx[d];
      }
    }
    if (!flat.defined()) {
      flat = call.index(0);
    }
    std::vector<Stmt> seq;
    PrimExpr position = flat;
    if (!flat.is<VarNode>() && !flat.is<IntImmNode>()) {
      const Var k = Var::make("k", call.index_dtype);
      seq.push_back(Bind::make(k, flat));
      position = k;
    }
    std::vector<PrimExpr> at;
    std::int64_t stride = 1;
    std::vector<std::int64_t> strides(in.size());
    for (std::size_t d = in.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= in[d];
    }
    bool outermost = true; // no larger dimension before: no modulo needed
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (in[d] == 1) {
        at.push_back(call.index(0));
        continue;
      }
      PrimExpr e = strides[d] == 1 ? position : position / call.index(strides[d]);
      if (!outermost) {
        e = e % call.index(in[d]);
      }
      outermost = false;
      at.push_back(e);
    }
    seq.push_back(TensorStore::make(call.output, idx, load(call.inputs[0], at)));
    return SeqStmt::make(std::move(seq));
  });
}

CTIR_INLINE Stmt lower_concatenate(const LegalizeCall& call) {
  const std::size_t rank = call.output_type->ndim();
  const std::int64_t given = call.attrs.get<std::int64_t>("axis").value_or(0);
  const auto axis =
      static_cast<std::size_t>(given < 0 ? given + static_cast<std::int64_t>(rank) : given);
  std::vector<Stmt> body;
  std::int64_t offset = 0;
  for (std::size_t p = 0; p < call.inputs.size(); ++p) {
    const auto shape = call.input_shape(p);
    append(body, call.loop_nest(shape, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      std::vector<PrimExpr> at = idx;
      if (offset != 0) {
        at[axis] = idx[axis] + call.index(offset);
      }
      return TensorStore::make(call.output, at, load(call.inputs[p], idx));
    }));
    offset += shape[axis];
  }
  return SeqStmt::make(std::move(body));
}

} // namespace ctir::passes::detail
