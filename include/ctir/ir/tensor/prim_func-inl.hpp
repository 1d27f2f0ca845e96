// Definitions of <ctir/ir/tensor/prim_func.hpp>.
#pragma once

#include <ctir/ir/tensor/prim_func.hpp>

#include <utility>

namespace ctir {

CTIR_INLINE Ref<PrimFuncNode>
PrimFuncNode::ref_methods::make(std::string name, std::vector<Var> params, Stmt body, Attrs attrs) {
  auto node = make_object<PrimFuncNode>();
  node->name = std::move(name);
  node->attrs = std::move(attrs);
  node->params = std::move(params);
  node->body = as_block(std::move(body));
  return std::move(node).publish();
}

CTIR_INLINE std::vector<Var> PrimFuncNode::shape_vars() const {
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

} // namespace ctir
