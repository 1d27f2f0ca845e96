// The roots of the expression hierarchy, shared by graph-level and tensor-level IR.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/span.hpp>

#include <string>

namespace ctir {

/// The root of all expressions, graph-level and tensor-level alike.
struct ExprNode : Object {
  CTIR_ABSTRACT_NODE(ExprNode, Object, "ir.Expr");
  /// Where the expression was parsed from; ignored by every structural utility.
  Span span;
  CTIR_FIELDS(CTIR_FIELD(span).ignore());
};
using Expr = Ref<ExprNode>;

/// Scalar expressions of tensor-level IR (and the scalar literals of graph-level IR).
struct PrimExprNode : ExprNode {
  CTIR_ABSTRACT_NODE(PrimExprNode, ExprNode, "ir.PrimExpr");

  /// C++ literals convert to PrimExpr: `1` is an int32 IntImm, `1.0f` a float32 FloatImm,
  /// `1.0` a float64 FloatImm, `true` a bool IntImm (defined in ir/tensor/expr.hpp).
  struct ref_methods {
    static Ref<PrimExprNode> from_literal(int value);
    static Ref<PrimExprNode> from_literal(long value);
    static Ref<PrimExprNode> from_literal(long long value);
    static Ref<PrimExprNode> from_literal(float value);
    static Ref<PrimExprNode> from_literal(double value);
    static Ref<PrimExprNode> from_literal(bool value);
  };
};
using PrimExpr = Ref<PrimExprNode>;

/// The root of statements (tensor-level IR).
struct StmtNode : Object {
  CTIR_ABSTRACT_NODE(StmtNode, Object, "ir.Stmt");
  Span span;
  CTIR_FIELDS(CTIR_FIELD(span).ignore());
};
using Stmt = Ref<StmtNode>;

/// The root of the functions an IRModule holds: graph-level Function, tensor-level PrimFunc.
struct BaseFuncNode : ExprNode {
  CTIR_ABSTRACT_NODE(BaseFuncNode, ExprNode, "ir.BaseFunc");
  /// A name hint (the module's GlobalVar is the real name); ignored structurally.
  std::string name;
  /// Function attributes such as SkipOptimization.
  Attrs attrs;
  CTIR_FIELDS(CTIR_FIELD(name).ignore(), CTIR_FIELD(attrs).elide_default());

  /// Whether the attribute SkipOptimization is true.
  bool skip_optimization() const;
};
using BaseFunc = Ref<BaseFuncNode>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/expr_base-inl.hpp>
#endif
