// RemoveNoOp: drops statements that do nothing from tensor-level functions.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

namespace ctir::passes {

/// `f` without statements that do nothing (see RemoveNoOp); `f` itself when it has none.
PrimFunc remove_no_op(const PrimFunc& f);

/// Removes statements without effect from tensor-level functions.
///
/// - A loop whose body is empty (after its own no-ops went) disappears. Loop bounds are
///   pure expressions, so nothing observable goes with it.
/// - A conditional with empty branches disappears; an empty else branch is dropped; an
///   empty then branch with a non-empty else becomes `if (!c) { else }`.
/// - A store of the value just loaded from the same element (`%B[%i] = %B[%i];`).
/// - Blocks nested in blocks are spliced into them.
struct RemoveNoOp : pass_interface<RemoveNoOp> {
  static constexpr PassInfo info() {
    return {.name = "RemoveNoOp",
            .opt_level = 0,
            .description = "removes empty loops, empty ifs and stores of a loaded value"};
  }
  PrimFunc transform_function(PrimFunc f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/remove_no_op-inl.hpp>
#endif
