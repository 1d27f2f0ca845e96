// UnrollLoop: replaces loops marked unroll (and small constant loops) by copies of their body.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/detail/tensor_utils.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/traverse/map.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ctir::passes {

/// The configuration key of UnrollLoop: loops with constant bounds and at most this many
/// iterations are unrolled too (0: only loops marked `unroll`).
inline constexpr std::string_view unroll_max_extent_key = "tensor.UnrollLoop.max_extent";

/// The typed key of `tensor.UnrollLoop.max_extent`, registered in the PassConfigRegistry on
/// the first call (register_standard_passes calls it too).
inline ConfigKey<int> unroll_max_extent_option() {
  static const ConfigKey<int> key = register_pass_config_option<int>(
      unroll_max_extent_key, 0,
      "UnrollLoop also unrolls constant loops of at most this many iterations (0: only loops "
      "marked unroll)");
  return key;
}

/// At most this many statements come out of unrolling one loop; an unroll loop that would
/// make more is an error (a typo in a bound should not exhaust memory).
inline constexpr std::int64_t unroll_max_statements = std::int64_t{1} << 20;

namespace detail {

/// `loop` unrolled when it is marked unroll or has constant bounds and at most
/// `max_extent` iterations; throws NodeError for an unroll loop that cannot be unrolled.
inline Stmt unroll_one(const For& loop, std::int64_t max_extent) {
  const std::optional<std::int64_t> begin = int_literal(loop->begin);
  const std::optional<std::int64_t> end = int_literal(loop->end);
  const bool marked = loop->kind == ForKind::unroll;
  if (!begin || !end) {
    if (marked) {
      throw NodeError(loop, "ctir: UnrollLoop cannot unroll a loop whose bounds are not "
                            "integer literals (run Simplify first, or make it a serial loop)");
    }
    return loop;
  }
  const std::int64_t extent = *end > *begin ? *end - *begin : 0;
  if (!marked && extent > max_extent) {
    return loop;
  }
  const auto per_copy = static_cast<std::int64_t>(loop->body->seq.size());
  if (extent > 0 && per_copy > 0 && extent > unroll_max_statements / per_copy) {
    throw NodeError(loop, "ctir: UnrollLoop: unrolling this loop (" + std::to_string(extent) +
                              " iterations) would make more than " +
                              std::to_string(unroll_max_statements) + " statements");
  }
  const DataType dtype = dtype_of(loop->var);
  std::vector<Stmt> items;
  items.reserve(static_cast<std::size_t>(extent * per_copy));
  for (std::int64_t k = 0; k < extent; ++k) {
    const SeqStmt copy =
        fresh_definitions(substitute(loop->body, loop->var, IntImm::make(*begin + k, dtype)));
    items.insert(items.end(), copy->seq.begin(), copy->seq.end());
  }
  return SeqStmt::make(std::move(items));
}

} // namespace detail

/// `f` with its loops unrolled (see UnrollLoop); `f` itself when none is.
inline PrimFunc unroll_loops(const PrimFunc& f, std::int64_t max_extent = 0) {
  return map(
      f, [&](const For& loop) -> Stmt { return detail::unroll_one(loop, max_extent); },
      [](const SeqStmt& block) -> SeqStmt { return detail::flatten_block(block); });
}

/// Unrolls loops in tensor-level functions: each loop marked `unroll`, and each loop with
/// literal bounds and at most `tensor.UnrollLoop.max_extent` iterations (config, default
/// 0), becomes one copy of its body per iteration, the loop variable replaced by the
/// iteration's value. Inner loops are unrolled first; each copy gets new variables for
/// what it defines (`let`, loops, `alloc`). The copies are not simplified: run Simplify
/// after it to fold `%A[2 + 1]`.
///
/// Errors (NodeError, naming the loop): a loop marked `unroll` whose bounds are not
/// integer literals, and a loop that would unroll to more than 2^20 statements.
struct UnrollLoop : pass_interface<UnrollLoop> {
  static constexpr PassInfo info() {
    return {.name = "UnrollLoop",
            .opt_level = 2,
            .description = "unrolls loops marked unroll and short constant loops"};
  }
  PrimFunc transform_function(PrimFunc f, const IRModule&, const PassContext& ctx) const {
    return unroll_loops(f, ctx.config(unroll_max_extent_option()));
  }
};

} // namespace ctir::passes
