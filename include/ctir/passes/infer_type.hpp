// InferType: fills in and checks the types of graph-level functions.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

namespace ctir::passes {

/// `f` with its types inferred and checked (see InferType); global calls resolve in `mod`.
/// Returns `f` itself when it was fully typed already.
Function infer_type(const Function& f, const IRModule& mod = {});

/// Infers and checks the types of graph-level functions, establishing typed IR.
///
/// - Every function parameter must be annotated. A `let` variable without a type gets the
///   type of its value (a new variable, every use repointed); an annotated one is checked
///   against its value. A function without a declared result type gets its body's type;
///   a declared one is checked.
/// - Operator calls take their type from the operator registry's type relation (with
///   the attributes normalized); calls of globals and closures match the arguments against
///   the parameter types, binding the callee's shape variables, and have the callee's
///   result type with those variables substituted. A global whose result type comes only
///   from inference is inferred first (a recursive one must declare its result type).
/// - Tuples, projections (in range), `if` (a `Tensor[(), bool]` condition, branches of one
///   type), closures (a function type) and `call_dps` (arguments and outputs matched
///   against the tensor-level function's parameters; the output type) are checked.
/// - Tensor-level scalar expressions in graph code (`2f`) are rank-0 tensors.
///
/// A node that does not type-check is a NodeError naming it and the types involved. The
/// pass is idempotent: a typed module comes back as the very same module.
struct InferType : pass_interface<InferType> {
  static constexpr PassInfo info() {
    return {.name = "InferType",
            .opt_level = 0,
            .description = "fills in and checks the types of graph-level functions"};
  }
  IRModule transform_module(IRModule mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/infer_type-inl.hpp>
#endif
