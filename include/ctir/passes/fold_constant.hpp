// FoldConstant: evaluates graph-level computations on constants at compile time.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/infer_type.hpp>

namespace ctir::passes {

/// `f` with its constant computations folded (see FoldConstant); global calls resolve in
/// `mod`. Returns `f` itself when nothing folds.
Function fold_constant(const Function& f, const IRModule& mod = {});

/// Evaluates graph-level computations whose inputs are known at compile time.
///
/// - A call of an operator that has a kernel, whose arguments are all tensor constants or
///   scalar literals (`2f`), is evaluated with the reference kernels and replaced by a
///   constant of the result. Calls of operators without a kernel, calls of globals and
///   closures, and calls without arguments (`zeros`, `ones`: folding them would only
///   store large constants) are kept. So is a call that is ill-typed or fails when
///   evaluated (an integer division by zero, an out-of-range axis): the error stays a
///   run-time error.
/// - `let %v = <constant>; body` becomes `body` with the constant for `%v`, so folding
///   goes on through the uses.
/// - `if` on a constant condition (`true`, `false`, a rank-0 bool constant) becomes the
///   branch it takes.
/// - A projection of a tuple expression (`(a, b).1`) becomes the field; a projection of a
///   variable bound to a tuple expression becomes the field when the field is a variable,
///   global or constant.
///
/// Folding works bottom-up in one run, so chains fold completely and the pass is
/// idempotent. Types are kept (a folded constant has the type of the call), so InferType's
/// result stays valid; the pass requires it so that ill-typed programs are reported
/// before anything is evaluated.
struct FoldConstant : pass_interface<FoldConstant> {
  using required_passes = pass_list<InferType>;
  static constexpr PassInfo info() {
    return {.name = "FoldConstant",
            .opt_level = 2,
            .required = {"InferType"},
            .description = "evaluates computations on constants at compile time"};
  }
  Function transform_function(Function f, const IRModule& mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/fold_constant-inl.hpp>
#endif
