// The parts of a map that do not depend on its callbacks (rebuilding a node of the IR from
// its mapped children, storing a changed child), compiled once in the library in compiled
// mode: a map call site over the IR then compiles its own traversal and calls these, rather
// than instantiating and optimizing them again for every node type it may rebuild. Node types
// of your own are compiled where they are used, as before.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/traverse/detail/map_result.hpp>
#include <ctir/traverse/detail/map_slots.hpp>

#include <cstddef>
#include <vector>

/// Declares (`extern`) or defines (empty) the rebuilding of the concrete node type `Node`.
#define CTIR_DETAIL_MAP_REBUILD_INSTANCE(prefix, Node)                                             \
  prefix template ctir::Ref<Node> ctir::detail::traverse::materialize<Node>(                       \
      const Node&, ctir::detail::traverse::slots_of<Node>&)

/// Declares (`extern`) or defines (empty) the storing of a changed child into a field whose
/// element type is `Node`, alone or in an array.
#define CTIR_DETAIL_MAP_STORE_INSTANCES(prefix, Node)                                              \
  prefix template void ctir::detail::traverse::store<Node>(                                        \
      ctir::detail::traverse::node_slot<Node>&, ctir::detail::traverse::mapped_ref&&,              \
      const ctir::Object&);                                                                        \
  prefix template void ctir::detail::traverse::add_array_item<Node>(                               \
      ctir::detail::traverse::array_slot<Node>&, const std::vector<ctir::Ref<Node>>&, std::size_t, \
      ctir::detail::traverse::node_slot<Node>&&)

/// Applies `apply(prefix, Node)` to every concrete node type of the IR.
#define CTIR_DETAIL_FOR_EACH_CONCRETE_IR_NODE(apply, prefix)                                       \
  apply(prefix, ctir::PrimTypeNode);                                                               \
  apply(prefix, ctir::TensorTypeNode);                                                             \
  apply(prefix, ctir::TupleTypeNode);                                                              \
  apply(prefix, ctir::FuncTypeNode);                                                               \
  apply(prefix, ctir::VarNode);                                                                    \
  apply(prefix, ctir::IntImmNode);                                                                 \
  apply(prefix, ctir::FloatImmNode);                                                               \
  apply(prefix, ctir::AddNode);                                                                    \
  apply(prefix, ctir::SubNode);                                                                    \
  apply(prefix, ctir::MulNode);                                                                    \
  apply(prefix, ctir::DivNode);                                                                    \
  apply(prefix, ctir::ModNode);                                                                    \
  apply(prefix, ctir::MinNode);                                                                    \
  apply(prefix, ctir::MaxNode);                                                                    \
  apply(prefix, ctir::EQNode);                                                                     \
  apply(prefix, ctir::NENode);                                                                     \
  apply(prefix, ctir::LTNode);                                                                     \
  apply(prefix, ctir::LENode);                                                                     \
  apply(prefix, ctir::GTNode);                                                                     \
  apply(prefix, ctir::GENode);                                                                     \
  apply(prefix, ctir::AndNode);                                                                    \
  apply(prefix, ctir::OrNode);                                                                     \
  apply(prefix, ctir::NotNode);                                                                    \
  apply(prefix, ctir::NegNode);                                                                    \
  apply(prefix, ctir::SelectNode);                                                                 \
  apply(prefix, ctir::CastNode);                                                                   \
  apply(prefix, ctir::TensorLoadNode);                                                             \
  apply(prefix, ctir::GlobalVarNode);                                                              \
  apply(prefix, ctir::OpNode);                                                                     \
  apply(prefix, ctir::ConstantNode);                                                               \
  apply(prefix, ctir::CallNode);                                                                   \
  apply(prefix, ctir::TupleNode);                                                                  \
  apply(prefix, ctir::TupleGetItemNode);                                                           \
  apply(prefix, ctir::LetNode);                                                                    \
  apply(prefix, ctir::IfNode);                                                                     \
  apply(prefix, ctir::CallDpsNode);                                                                \
  apply(prefix, ctir::FunctionNode);                                                               \
  apply(prefix, ctir::PrimFuncNode);                                                               \
  apply(prefix, ctir::SeqStmtNode);                                                                \
  apply(prefix, ctir::ForNode);                                                                    \
  apply(prefix, ctir::TensorStoreNode);                                                            \
  apply(prefix, ctir::BindNode);                                                                   \
  apply(prefix, ctir::IfThenElseNode);                                                             \
  apply(prefix, ctir::AllocateNode);                                                               \
  apply(prefix, ctir::IRModuleNode)

/// Applies `apply(prefix, Node)` to every abstract node type of the IR.
#define CTIR_DETAIL_FOR_EACH_ABSTRACT_IR_NODE(apply, prefix)                                       \
  apply(prefix, ctir::TypeNode);                                                                   \
  apply(prefix, ctir::ExprNode);                                                                   \
  apply(prefix, ctir::PrimExprNode);                                                               \
  apply(prefix, ctir::BinaryExprNode);                                                             \
  apply(prefix, ctir::StmtNode);                                                                   \
  apply(prefix, ctir::BaseFuncNode)

#ifndef CTIR_HEADER_ONLY
CTIR_DETAIL_FOR_EACH_CONCRETE_IR_NODE(CTIR_DETAIL_MAP_REBUILD_INSTANCE, extern);
CTIR_DETAIL_FOR_EACH_CONCRETE_IR_NODE(CTIR_DETAIL_MAP_STORE_INSTANCES, extern);
CTIR_DETAIL_FOR_EACH_ABSTRACT_IR_NODE(CTIR_DETAIL_MAP_STORE_INSTANCES, extern);
#endif
