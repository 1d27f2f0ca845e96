// Definitions of <ctir/passes/unroll_loop.hpp>.
#pragma once

#include <ctir/passes/unroll_loop.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/detail/tensor_utils.hpp>
#include <ctir/traverse/map.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ctir::passes {

CTIR_INLINE ConfigKey<int> unroll_max_extent_option() {
  static const ConfigKey<int> key = register_pass_config_option<int>(
      unroll_max_extent_key, 0,
      "UnrollLoop also unrolls constant loops of at most this many iterations (0: only loops "
      "marked unroll)");
  return key;
}

CTIR_INLINE ConfigKey<bool> unroll_strict_option() {
  static const ConfigKey<bool> key = register_pass_config_option<bool>(
      unroll_strict_key, false,
      "a loop marked unroll that UnrollLoop cannot unroll (bounds not integer literals, too "
      "many iterations) is an error instead of a loop left as it is");
  return key;
}

namespace detail {

/// The number of iterations of `range(begin, end)`, exact for any int64 bounds (it may
/// exceed INT64_MAX, so it is unsigned).
CTIR_INLINE std::uint64_t trip_count(std::int64_t begin, std::int64_t end) {
  // Modulo 2^64 the difference is exact, and it is below 2^64 when end > begin.
  return end > begin ? static_cast<std::uint64_t>(end) - static_cast<std::uint64_t>(begin) : 0;
}

/// `loop` unrolled when it is marked unroll or has constant bounds and at most
/// `max_extent` iterations; otherwise `loop` itself, or, when `strict` and the loop is
/// marked unroll, a NodeError saying why it cannot be unrolled.
CTIR_INLINE Stmt unroll_one(const For& loop, std::int64_t max_extent, bool strict) {
  const std::optional<std::int64_t> begin = int_literal(loop->begin);
  const std::optional<std::int64_t> end = int_literal(loop->end);
  const bool marked = loop->kind == ForKind::unroll;
  const auto name = [&] { return "loop %" + loop->var->name; }; // only for an error
  if (!begin || !end) {
    if (marked && strict) {
      throw NodeError(loop, "ctir: UnrollLoop cannot unroll " + name() +
                                ": its bounds are not integer literals (give it literal "
                                "bounds, run Simplify first to fold constant ones, or make it "
                                "a serial loop)");
    }
    return loop;
  }
  const std::uint64_t extent = trip_count(*begin, *end);
  if (!marked && (max_extent < 0 || extent > static_cast<std::uint64_t>(max_extent))) {
    return loop;
  }
  const auto per_copy = static_cast<std::uint64_t>(loop->body->seq.size());
  const auto limit = static_cast<std::uint64_t>(unroll_max_statements);
  if (per_copy > 0 && extent > limit / per_copy) {
    if (strict) {
      throw NodeError(loop, "ctir: UnrollLoop cannot unroll " + name() + ": its " +
                                std::to_string(extent) + " iterations would make more than " +
                                std::to_string(limit) +
                                " statements (make it a serial loop, or split it and unroll "
                                "the inner loop)");
    }
    return loop;
  }
  const DataType dtype = dtype_of(loop->var);
  std::vector<Stmt> items;
  items.reserve(static_cast<std::size_t>(extent * per_copy));
  for (std::uint64_t k = 0; k < extent; ++k) {
    // begin + k < end: no overflow; the sum is formed modulo 2^64 and converted back.
    const auto value = static_cast<std::int64_t>(static_cast<std::uint64_t>(*begin) + k);
    const SeqStmt copy =
        fresh_definitions(substitute(loop->body, loop->var, IntImm::make(value, dtype)));
    items.insert(items.end(), copy->seq.begin(), copy->seq.end());
  }
  return SeqStmt::make(std::move(items));
}

} // namespace detail

CTIR_INLINE PrimFunc unroll_loops(const PrimFunc& f, std::int64_t max_extent, bool strict) {
  return map(
      f, [&](const For& loop) -> Stmt { return detail::unroll_one(loop, max_extent, strict); },
      [](const SeqStmt& block) -> SeqStmt { return detail::flatten_block(block); });
}

CTIR_INLINE PrimFunc UnrollLoop::transform_function(PrimFunc f, const IRModule&,
                                                    const PassContext& ctx) const {
  return unroll_loops(f, ctx.config(unroll_max_extent_option()),
                      ctx.config(unroll_strict_option()));
}

} // namespace ctir::passes
