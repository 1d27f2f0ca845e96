// FlattenBuffer: multi-dimensional tensors of tensor-level functions become 1-D, row-major.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

namespace ctir::passes {

/// `f` with its multi-dimensional tensors flattened (see FlattenBuffer). Parameters are
/// flattened only when `flatten_params`.
PrimFunc flatten_buffers(const PrimFunc& f, bool flatten_params = true);

/// Flattens the tensors of tensor-level functions to 1-D, row-major.
///
/// Every `alloc` of rank 2 or more becomes a 1-D buffer of the product of its dimensions,
/// and its loads and stores index it with the row-major offset (`%A[%i, %j]` of a
/// `Tensor[(4, %m)]` becomes `%A[%i * %m + %j]`, literals folded).
///
/// A flat size or offset never wraps: it is computed in the dimensions' dtype when that
/// holds it (literal dimensions whose product fits, or 64-bit ones), and in int64
/// otherwise, with the dimensions and indices cast (`Tensor[(%n, %m)]` of int32 shape
/// variables becomes `Tensor[(cast<int64>(%n) * cast<int64>(%m))]`). A literal shape whose
/// size int64 cannot hold is an error naming the tensor and its shape.
///
/// Parameters change the function's signature, so callers see it: a flattened parameter
/// takes the same elements in row-major order as a 1-D tensor (an interpreter caller
/// passes the data reshaped to `Tensor[(N)]`, and reads results back the same way). So a
/// parameter is flattened only when
/// - the function is not called through `call_dps` in the module (the graph-level caller
///   allocates and passes tensors of the declared multi-dimensional types), and
/// - the flat size can still be written: every shape variable in its dimensions is defined
///   by another parameter that stays as it is (a 1-D tensor or a scalar).
/// Other parameters keep their shape and their accesses.
struct FlattenBuffer : pass_interface<FlattenBuffer> {
  static constexpr PassInfo info() {
    return {.name = "FlattenBuffer",
            .opt_level = 0,
            .invalidates = {"InferType"},
            .description = "flattens multi-dimensional tensors of tensor-level functions to 1-D"};
  }
  PrimFunc transform_function(PrimFunc f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/flatten_buffer-inl.hpp>
#endif
