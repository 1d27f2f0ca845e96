// Definitions of <ctir/passes/remove_no_op.hpp>.
#pragma once

#include <ctir/passes/remove_no_op.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/detail/tensor_utils.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <cstddef>

namespace ctir::passes {

namespace detail {

/// Whether `store` writes back the value it reads from the same place (`B[i] = B[i]`).
CTIR_INLINE bool stores_what_it_loads(const TensorStore& store) {
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
CTIR_INLINE Stmt remove_no_op_branch(const IfThenElse& branch) {
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

CTIR_INLINE PrimFunc remove_no_op(const PrimFunc& f) {
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

CTIR_INLINE PrimFunc RemoveNoOp::transform_function(PrimFunc f, const IRModule&,
                                                    const PassContext&) const {
  return remove_no_op(f);
}

} // namespace ctir::passes
