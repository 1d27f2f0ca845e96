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

namespace detail {

/// `loop` unrolled when it is marked unroll or has constant bounds and at most
/// `max_extent` iterations; throws NodeError for an unroll loop that cannot be unrolled.
CTIR_INLINE Stmt unroll_one(const For& loop, std::int64_t max_extent) {
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

CTIR_INLINE PrimFunc unroll_loops(const PrimFunc& f, std::int64_t max_extent) {
  return map(
      f, [&](const For& loop) -> Stmt { return detail::unroll_one(loop, max_extent); },
      [](const SeqStmt& block) -> SeqStmt { return detail::flatten_block(block); });
}

CTIR_INLINE PrimFunc UnrollLoop::transform_function(PrimFunc f, const IRModule&,
                                                    const PassContext& ctx) const {
  return unroll_loops(f, ctx.config(unroll_max_extent_option()));
}

} // namespace ctir::passes
