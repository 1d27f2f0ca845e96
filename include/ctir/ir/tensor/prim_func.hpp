// PrimFunc: a tensor-level function over tensors and scalars.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/var.hpp>

#include <string>
#include <vector>

namespace ctir {

/// A tensor-level function. Its parameters are patterns: `%A: Tensor[(%n), float32]`
/// defines both A and the symbolic size n; a later mention of n is a check at call time.
/// Outputs are written into parameters (destination-passing style).
struct PrimFuncNode final : BaseFuncNode {
  CTIR_NODE(PrimFuncNode, BaseFuncNode, "ir.PrimFunc");
  std::vector<Var> params;
  SeqStmt body;
  CTIR_FIELDS(CTIR_FIELD(params).def_pattern(), CTIR_FIELD(body));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<PrimFuncNode> make(std::string name, std::vector<Var> params, Stmt body,
                                  Attrs attrs = {});
  };

  /// The symbolic shape variables, in order of first mention in the parameter types.
  std::vector<Var> shape_vars() const;
};
using PrimFunc = Ref<PrimFuncNode>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/tensor/prim_func-inl.hpp>
#endif
