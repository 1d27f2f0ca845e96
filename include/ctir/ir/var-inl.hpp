// Definitions of <ctir/ir/var.hpp>.
#pragma once

#include <ctir/ir/var.hpp>

#include <utility>

namespace ctir {

CTIR_INLINE Ref<VarNode> VarNode::ref_methods::make(std::string name, Type ty) {
  auto node = make_object<VarNode>();
  node->name = std::move(name);
  node->ty = std::move(ty);
  return std::move(node).publish();
}

CTIR_INLINE Ref<VarNode> VarNode::ref_methods::make(std::string name, DataType dtype) {
  return make(std::move(name), Ref<PrimTypeNode>::make(dtype));
}

CTIR_INLINE Ref<GlobalVarNode> GlobalVarNode::ref_methods::make(std::string name) {
  auto node = make_object<GlobalVarNode>();
  node->name = std::move(name);
  return std::move(node).publish();
}

} // namespace ctir
