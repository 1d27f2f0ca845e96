// RemoveNoOp: drops statements that do nothing from tensor-level functions.
#pragma once

#include <ctir/ir/builder.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/detail/tensor_utils.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <cstddef>

namespace ctir::passes {

namespace detail {

/// Whether `store` writes back the value it reads from the same place (`B[i] = B[i]`).
inline bool stores_what_it_loads(const TensorStore& store) {
  const auto* load = store->value.as<TensorLoadNode>();
  if (load == nullptr || !load->source.same_as(store->dest) ||
      load->indices.size() != store->indices.size()) {
    return false;
  }
  for (std::size_t i = 0; i < load->indices.size(); ++i) {
    if (!structural_equal(load->indices[i], store->indices[i])) {
      return false;
    }
  }
  return true;
}

/// A conditional without effect disappears; one with only an else branch is inverted.
inline Stmt remove_no_op_branch(const IfThenElse& branch) {
  const bool else_empty = !branch->else_case.defined() || branch->else_case->seq.empty();
  if (branch->then_case->seq.empty()) {
    if (else_empty) {
      return SeqStmt::make({});
    }
    return IfThenElse::make(logical_not(branch->cond), branch->else_case);
  }
  if (branch->else_case.defined() && else_empty) {
    return IfThenElse::make(branch->cond, branch->then_case);
  }
  return branch;
}

} // namespace detail

/// `f` without statements that do nothing (see RemoveNoOp); `f` itself when it has none.
inline PrimFunc remove_no_op(const PrimFunc& f) {
  return map(
      f,
      [](const For& loop) -> Stmt {
        return loop->body->seq.empty() ? Stmt(SeqStmt::make({})) : Stmt(loop);
      },
      [](const IfThenElse& branch) -> Stmt { return detail::remove_no_op_branch(branch); },
      [](const TensorStore& store) -> Stmt {
        return detail::stores_what_it_loads(store) ? Stmt(SeqStmt::make({})) : Stmt(store);
      },
      [](const SeqStmt& block) -> SeqStmt { return detail::flatten_block(block); });
}

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
  PrimFunc transform_function(PrimFunc f, const IRModule&, const PassContext&) const {
    return remove_no_op(f);
  }
};


} // namespace ctir::passes
