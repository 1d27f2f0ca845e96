// PrimFunc: a tensor-level function over tensors and scalars.
#pragma once

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
                                  Attrs attrs = {}) {
      auto node = make_object<PrimFuncNode>();
      node->name = std::move(name);
      node->attrs = std::move(attrs);
      node->params = std::move(params);
      node->body = as_block(std::move(body));
      return std::move(node).publish();
    }
  };

  /// The symbolic shape variables, in order of first mention in the parameter types.
  std::vector<Var> shape_vars() const {
    std::vector<Var> result;
    for (const Var& param : params) {
      const auto* tensor = param->ty.as<TensorTypeNode>();
      if (tensor == nullptr) {
        continue;
      }
      for (const PrimExpr& dim : tensor->shape) {
        if (const auto* var = dim.as<VarNode>()) {
          bool seen = false;
          for (const Var& existing : result) {
            seen = seen || existing.get() == var;
          }
          if (!seen) {
            result.push_back(ref_of(var));
          }
        }
      }
    }
    return result;
  }
};
using PrimFunc = Ref<PrimFuncNode>;

} // namespace ctir
