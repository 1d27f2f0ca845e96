// UnrollLoop: replaces loops marked unroll (and small constant loops) by copies of their body.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

#include <cstdint>
#include <string_view>

namespace ctir::passes {

/// The configuration key of UnrollLoop: loops with constant bounds and at most this many
/// iterations are unrolled too (0: only loops marked `unroll`).
inline constexpr std::string_view unroll_max_extent_key = "tensor.UnrollLoop.max_extent";

/// The typed key of `tensor.UnrollLoop.max_extent`, registered in the PassConfigRegistry on
/// the first call (register_standard_passes calls it too).
ConfigKey<int> unroll_max_extent_option();

/// The configuration key that makes UnrollLoop strict: a loop marked `unroll` that it cannot
/// unroll is an error instead of a loop left as it is.
inline constexpr std::string_view unroll_strict_key = "tensor.UnrollLoop.strict";

/// The typed key of `tensor.UnrollLoop.strict` (default false), registered like
/// `unroll_max_extent_option`.
ConfigKey<bool> unroll_strict_option();

/// At most this many statements come out of unrolling one loop; a loop that would make more
/// is left as it is (an error when strict): a typo in a bound should not exhaust memory.
inline constexpr std::int64_t unroll_max_statements = std::int64_t{1} << 20;

/// `f` with its loops unrolled (see UnrollLoop); `f` itself when none is. `strict` makes a
/// loop marked `unroll` that cannot be unrolled an error.
PrimFunc unroll_loops(const PrimFunc& f, std::int64_t max_extent = 0, bool strict = false);

/// Unrolls loops in tensor-level functions: each loop marked `unroll`, and each loop with
/// literal bounds and at most `tensor.UnrollLoop.max_extent` iterations (config, default
/// 0), becomes one copy of its body per iteration, the loop variable replaced by the
/// iteration's value. Inner loops are unrolled first; each copy gets new variables for
/// what it defines (`let`, loops, `alloc`). The copies are not simplified: run Simplify
/// after it to fold `%A[2 + 1]`.
///
/// A loop it cannot unroll, one whose bounds are not integer literals or that would unroll
/// to more than 2^20 statements, is left as it is (as TVM's UnrollLoop does), so the pass is
/// safe in DefaultPipeline. With `tensor.UnrollLoop.strict` set, such a loop marked `unroll`
/// is an error (a NodeError naming the loop variable and what would make it unrollable).
struct UnrollLoop : pass_interface<UnrollLoop> {
  static constexpr PassInfo info() {
    return {.name = "UnrollLoop",
            .opt_level = 2,
            .description = "unrolls loops marked unroll and short constant loops"};
  }
  PrimFunc transform_function(PrimFunc f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/unroll_loop-inl.hpp>
#endif
