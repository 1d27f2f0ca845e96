// ToANormalForm: binds every intermediate value of a graph-level function to a let variable.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/infer_type.hpp>

namespace ctir::passes {

/// `f` in A-normal form (see ToANormalForm); global calls resolve in `mod`. Returns `f`
/// itself when it is in A-normal form and typed already.
Function to_a_normal_form(const Function& f, const IRModule& mod = {});

/// Binds every intermediate value of a graph-level function to a `let` variable, so that
/// every operand is an atom (a variable, constant, literal, global or operator).
///
/// - Every computation (a call of an operator, a global or a closure; a tuple; a
///   projection; a `call_dps`; an `if`; a closure) is bound to a new variable, typed as
///   inference types it, after its operands, left to right: `add(exp(%x), %y)` becomes
///   `let %x0 = exp(%x); let %x1 = add(%x0, %y); %x1`. New variables are named `%x0`,
///   `%x1`, ... skipping the function's names.
/// - As in TVM, a scope's result is bound too: the body of the function, of each `if`
///   branch and of each closure ends in an atom.
/// - Each `if` branch and each closure body is a scope of its own: what only a branch
///   uses is bound inside it. A node shared in the dataflow graph is bound once, in the
///   innermost scope containing all its uses (before the `if` when both branches use it).
/// - Existing lets stay, with their value normalized: a computation that is a let's value
///   keeps the let's variable. A let nested in a let's value is flattened into the scope.
///
/// Every graph-level computation is pure in ctir, so binding a shared node once changes
/// no result. The pass is idempotent (A-normal input comes back as the same object),
/// keeps the module typed, and works iteratively on chains of any depth.
struct ToANormalForm : pass_interface<ToANormalForm> {
  using required_passes = pass_list<InferType>;
  static constexpr PassInfo info() {
    return {.name = "ToANormalForm",
            .opt_level = 1,
            .required = {"InferType"},
            .description = "binds every intermediate value to a let variable"};
  }
  Function transform_function(Function f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/to_a_normal_form-inl.hpp>
#endif
