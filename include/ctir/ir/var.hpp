// Variables and global variables.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/type.hpp>

#include <string>

namespace ctir {

/// A local variable, of graph-level or tensor-level IR. Its identity is the object;
/// the name is only a hint, ignored by equality and hashing.
struct VarNode final : PrimExprNode {
  CTIR_NODE(VarNode, PrimExprNode, "ir.Var");
  static constexpr bool is_variable_type = true;
  std::string name;
  /// The type: a PrimType for scalars, a TensorType for tensors; may be null (not yet inferred).
  Type ty;
  CTIR_FIELDS(CTIR_FIELD(name).ignore(), CTIR_FIELD(ty));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<VarNode> make(std::string name, Type ty = {});
    /// A scalar variable of the given dtype.
    static Ref<VarNode> make(std::string name, DataType dtype);
  };
};
using Var = Ref<VarNode>;

/// The name of a function in an IRModule. Global variables compare by name.
struct GlobalVarNode final : ExprNode {
  CTIR_NODE(GlobalVarNode, ExprNode, "ir.GlobalVar");
  std::string name;
  CTIR_FIELDS(CTIR_FIELD(name));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<GlobalVarNode> make(std::string name);
  };
};
using GlobalVar = Ref<GlobalVarNode>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/var-inl.hpp>
#endif
