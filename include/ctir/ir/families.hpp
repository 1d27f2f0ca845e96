// The families of the IR's abstract node types, for statically dispatched traversals.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>

CTIR_FAMILY(ctir::BinaryExprNode, ctir::AddNode, ctir::SubNode, ctir::MulNode, ctir::DivNode,
            ctir::ModNode, ctir::MinNode, ctir::MaxNode, ctir::EQNode, ctir::NENode, ctir::LTNode,
            ctir::LENode, ctir::GTNode, ctir::GENode, ctir::AndNode, ctir::OrNode);

CTIR_FAMILY(ctir::PrimExprNode, ctir::VarNode, ctir::IntImmNode, ctir::FloatImmNode,
            ctir::family_t<ctir::BinaryExprNode>, ctir::NotNode, ctir::NegNode, ctir::SelectNode,
            ctir::CastNode, ctir::TensorLoadNode);

CTIR_FAMILY(ctir::StmtNode, ctir::SeqStmtNode, ctir::ForNode, ctir::TensorStoreNode, ctir::BindNode,
            ctir::IfThenElseNode, ctir::AllocateNode);

CTIR_FAMILY(ctir::BaseFuncNode, ctir::FunctionNode, ctir::PrimFuncNode);

CTIR_FAMILY(ctir::ExprNode, ctir::family_t<ctir::PrimExprNode>, ctir::GlobalVarNode, ctir::OpNode,
            ctir::ConstantNode, ctir::CallNode, ctir::TupleNode, ctir::TupleGetItemNode,
            ctir::LetNode, ctir::IfNode, ctir::CallDpsNode, ctir::family_t<ctir::BaseFuncNode>);

namespace ctir {
/// Every concrete node type of the IR, in one list (tests run laws over all of them).
using ir_node_types =
    flat_list_t<family_t<TypeNode>, family_t<ExprNode>, family_t<StmtNode>, IRModuleNode>;
} // namespace ctir

CTIR_FAMILY(ctir::Object, ctir::ir_node_types);

namespace ctir {
/// Registers every IR node type in the global TypeRegistry, so that the runtime layer finds
/// them by key before any node of theirs exists. Idempotent and cheap after the first call;
/// the runtime layer calls it where it looks a key up.
void register_ir_types();
} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/families-inl.hpp>
#endif
