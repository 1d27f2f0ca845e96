// IR types: scalars, tensors with symbolic dimensions, tuples and functions.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/expr_base.hpp>

#include <vector>

namespace ctir {

/// The root of all types.
struct TypeNode : Object {
  CTIR_ABSTRACT_NODE(TypeNode, Object, "ir.Type");
};
using Type = Ref<TypeNode>;

/// A scalar type: `int32`, `float32`, `bool` ...
struct PrimTypeNode final : TypeNode {
  CTIR_NODE(PrimTypeNode, TypeNode, "ir.PrimType");
  DataType dtype;
  CTIR_FIELDS(CTIR_FIELD(dtype));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<PrimTypeNode> make(DataType dtype);
  };
  static void ctir_repr(const PrimTypeNode& node, std::string& out) { out += node.dtype.str(); }
};
using PrimType = Ref<PrimTypeNode>;

/// A dense tensor type `Tensor[(2, %n), float32]`; dimensions are scalar expressions.
struct TensorTypeNode final : TypeNode {
  CTIR_NODE(TensorTypeNode, TypeNode, "ir.TensorType");
  std::vector<PrimExpr> shape;
  DataType dtype;
  CTIR_FIELDS(CTIR_FIELD(shape), CTIR_FIELD(dtype));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<TensorTypeNode> make(std::vector<PrimExpr> shape, DataType dtype);
  };
  std::size_t ndim() const noexcept { return shape.size(); }
};
using TensorType = Ref<TensorTypeNode>;

/// `Tuple[T1, T2]`.
struct TupleTypeNode final : TypeNode {
  CTIR_NODE(TupleTypeNode, TypeNode, "ir.TupleType");
  std::vector<Type> fields;
  CTIR_FIELDS(CTIR_FIELD(fields));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<TupleTypeNode> make(std::vector<Type> fields);
  };
};
using TupleType = Ref<TupleTypeNode>;

/// The type of a function: `fn (T1, T2) -> R`.
struct FuncTypeNode final : TypeNode {
  CTIR_NODE(FuncTypeNode, TypeNode, "ir.FuncType");
  std::vector<Type> params;
  Type ret;
  CTIR_FIELDS(CTIR_FIELD(params), CTIR_FIELD(ret));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<FuncTypeNode> make(std::vector<Type> params, Type ret);
  };
};
using FuncType = Ref<FuncTypeNode>;

} // namespace ctir

CTIR_FAMILY(ctir::TypeNode, ctir::PrimTypeNode, ctir::TensorTypeNode, ctir::TupleTypeNode,
            ctir::FuncTypeNode);

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/type-inl.hpp>
#endif
