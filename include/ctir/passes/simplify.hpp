// Simplify: constant folding and arithmetic identities in tensor-level functions.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

namespace ctir::passes {

/// `e` with constants folded and arithmetic identities applied (see Simplify).
PrimExpr simplify(const PrimExpr& e);

/// `f` simplified (see Simplify); `f` itself when nothing changes.
PrimFunc simplify(const PrimFunc& f);

/// Simplifies tensor-level functions: folds constants and applies arithmetic identities.
///
/// - Operators on literals fold with the interpreter's scalar semantics (eval/scalar.hpp:
///   integers wrap, `/` and `%` floor, floats are IEEE rounded to the dtype). A division or
///   modulo of integers by zero is never folded: it stays an error at run time.
/// - Identities: for integers `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x / 1` give
///   `x`; `x * 0`, `0 * x`, `x - x`, `x % 1` give 0. For floats only the exact ones:
///   `x - 0`, `x * 1`, `1 * x`, `x / 1` (`x + 0` is not `x` when x is -0). `min(x, x)`,
///   `max(x, x)`, `-(-x)`, `!!b` (b a bool), `cast<T>(x)` with x of type T, `select` with a
///   literal condition or equal branches. An identity that would change the result's
///   dtype (the left operand's) is not applied.
/// - Loops: no iteration (a literal end at most the begin) disappears; one iteration
///   becomes its body with the loop variable replaced by the begin.
/// - `if` with a literal condition becomes the branch it takes.
///
/// Expressions are pure, so dropping one (`x * 0`) can only remove a run-time error
/// (a load out of bounds), never add one.
struct Simplify : pass_interface<Simplify> {
  static constexpr PassInfo info() {
    return {.name = "Simplify",
            .opt_level = 0,
            .description = "folds constants and arithmetic identities in tensor-level code"};
  }
  PrimFunc transform_function(PrimFunc f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/simplify-inl.hpp>
#endif
