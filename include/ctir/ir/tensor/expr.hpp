// Tensor-level scalar expressions: literals, arithmetic, comparisons, loads, casts.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace ctir {

/// An integer (or boolean) literal.
struct IntImmNode final : PrimExprNode {
  CTIR_NODE(IntImmNode, PrimExprNode, "ir.IntImm");
  DataType dtype = DataType::int32();
  std::int64_t value = 0;
  CTIR_FIELDS(CTIR_FIELD(dtype).elide_default(), CTIR_FIELD(value));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<IntImmNode> make(std::int64_t value, DataType dtype = DataType::int32());
  };
};
using IntImm = Ref<IntImmNode>;

/// A floating-point literal.
struct FloatImmNode final : PrimExprNode {
  CTIR_NODE(FloatImmNode, PrimExprNode, "ir.FloatImm");
  DataType dtype = DataType::float32();
  double value = 0;
  CTIR_FIELDS(CTIR_FIELD(dtype).elide_default(), CTIR_FIELD(value));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<FloatImmNode> make(double value, DataType dtype = DataType::float32());
  };
};
using FloatImm = Ref<FloatImmNode>;

/// The binary operators, one node type each.
enum class BinaryOp : std::uint8_t {
  add,
  sub,
  mul,
  div,
  mod,
  min,
  max,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  logical_and,
  logical_or
};

namespace detail {
template <BinaryOp Op>
struct binary_op_traits;
#define CTIR_DETAIL_BINARY(op, key_name, sym, prec)                                                \
  template <>                                                                                      \
  struct binary_op_traits<BinaryOp::op> {                                                          \
    static constexpr std::string_view key = "ir." key_name;                                        \
    static constexpr std::string_view symbol = sym;                                                \
    static constexpr int precedence = prec;                                                        \
  }
CTIR_DETAIL_BINARY(add, "Add", "+", 10);
CTIR_DETAIL_BINARY(sub, "Sub", "-", 10);
CTIR_DETAIL_BINARY(mul, "Mul", "*", 11);
CTIR_DETAIL_BINARY(div, "Div", "/", 11);
CTIR_DETAIL_BINARY(mod, "Mod", "%", 11);
CTIR_DETAIL_BINARY(min, "Min", "min", 0);
CTIR_DETAIL_BINARY(max, "Max", "max", 0);
CTIR_DETAIL_BINARY(eq, "EQ", "==", 7);
CTIR_DETAIL_BINARY(ne, "NE", "!=", 7);
CTIR_DETAIL_BINARY(lt, "LT", "<", 8);
CTIR_DETAIL_BINARY(le, "LE", "<=", 8);
CTIR_DETAIL_BINARY(gt, "GT", ">", 8);
CTIR_DETAIL_BINARY(ge, "GE", ">=", 8);
CTIR_DETAIL_BINARY(logical_and, "And", "&&", 4);
CTIR_DETAIL_BINARY(logical_or, "Or", "||", 3);
#undef CTIR_DETAIL_BINARY
} // namespace detail

/// What every binary operator node holds: its operands. The operators are the subclasses
/// (`AddNode`, ...); a callback on BinaryExprNode sees all of them, and the traversals
/// compile one copy of their code for the operators a callback does not match.
struct BinaryExprNode : PrimExprNode {
  CTIR_ABSTRACT_NODE(BinaryExprNode, PrimExprNode, "ir.BinaryExpr");
  PrimExpr a;
  PrimExpr b;
  CTIR_FIELDS(CTIR_FIELD(a), CTIR_FIELD(b));
};

/// `a op b` for one of the binary operators.
template <BinaryOp Op>
struct BinaryNode final : BinaryExprNode {
  CTIR_NODE(BinaryNode, BinaryExprNode, detail::binary_op_traits<Op>::key);
  static constexpr BinaryOp op = Op;
  /// The infix symbol ("+") or, for min and max, the function name.
  static constexpr std::string_view symbol = detail::binary_op_traits<Op>::symbol;
  /// C-like precedence; 0 for operators printed as calls.
  static constexpr int precedence = detail::binary_op_traits<Op>::precedence;
  static constexpr bool is_comparison = Op == BinaryOp::eq || Op == BinaryOp::ne ||
                                        Op == BinaryOp::lt || Op == BinaryOp::le ||
                                        Op == BinaryOp::gt || Op == BinaryOp::ge;
  static constexpr bool is_logical = Op == BinaryOp::logical_and || Op == BinaryOp::logical_or;

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<BinaryNode> make(PrimExpr a, PrimExpr b);
  };
};

using AddNode = BinaryNode<BinaryOp::add>;
using SubNode = BinaryNode<BinaryOp::sub>;
using MulNode = BinaryNode<BinaryOp::mul>;
using DivNode = BinaryNode<BinaryOp::div>;
using ModNode = BinaryNode<BinaryOp::mod>;
using MinNode = BinaryNode<BinaryOp::min>;
using MaxNode = BinaryNode<BinaryOp::max>;
using EQNode = BinaryNode<BinaryOp::eq>;
using NENode = BinaryNode<BinaryOp::ne>;
using LTNode = BinaryNode<BinaryOp::lt>;
using LENode = BinaryNode<BinaryOp::le>;
using GTNode = BinaryNode<BinaryOp::gt>;
using GENode = BinaryNode<BinaryOp::ge>;
using AndNode = BinaryNode<BinaryOp::logical_and>;
using OrNode = BinaryNode<BinaryOp::logical_or>;
using Add = Ref<AddNode>;
using Sub = Ref<SubNode>;
using Mul = Ref<MulNode>;
using Div = Ref<DivNode>;
using Mod = Ref<ModNode>;
using Min = Ref<MinNode>;
using Max = Ref<MaxNode>;
using EQ = Ref<EQNode>;
using NE = Ref<NENode>;
using LT = Ref<LTNode>;
using LE = Ref<LENode>;
using GT = Ref<GTNode>;
using GE = Ref<GENode>;
using And = Ref<AndNode>;
using Or = Ref<OrNode>;

// The factories of the binary nodes are compiled once, in the library.
#ifndef CTIR_HEADER_ONLY
extern template Ref<AddNode> BinaryNode<BinaryOp::add>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<SubNode> BinaryNode<BinaryOp::sub>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<MulNode> BinaryNode<BinaryOp::mul>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<DivNode> BinaryNode<BinaryOp::div>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<ModNode> BinaryNode<BinaryOp::mod>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<MinNode> BinaryNode<BinaryOp::min>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<MaxNode> BinaryNode<BinaryOp::max>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<EQNode> BinaryNode<BinaryOp::eq>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<NENode> BinaryNode<BinaryOp::ne>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<LTNode> BinaryNode<BinaryOp::lt>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<LENode> BinaryNode<BinaryOp::le>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<GTNode> BinaryNode<BinaryOp::gt>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<GENode> BinaryNode<BinaryOp::ge>::ref_methods::make(PrimExpr, PrimExpr);
extern template Ref<AndNode> BinaryNode<BinaryOp::logical_and>::ref_methods::make(PrimExpr,
                                                                                  PrimExpr);
extern template Ref<OrNode> BinaryNode<BinaryOp::logical_or>::ref_methods::make(PrimExpr, PrimExpr);
#endif

/// Logical negation `!a`.
struct NotNode final : PrimExprNode {
  CTIR_NODE(NotNode, PrimExprNode, "ir.Not");
  PrimExpr a;
  CTIR_FIELDS(CTIR_FIELD(a));
  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<NotNode> make(PrimExpr a);
  };
};
using Not = Ref<NotNode>;

/// Arithmetic negation `-a`.
struct NegNode final : PrimExprNode {
  CTIR_NODE(NegNode, PrimExprNode, "ir.Neg");
  PrimExpr a;
  CTIR_FIELDS(CTIR_FIELD(a));
  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<NegNode> make(PrimExpr a);
  };
};
using Neg = Ref<NegNode>;

/// `select(cond, true_value, false_value)`: both branches are evaluated.
struct SelectNode final : PrimExprNode {
  CTIR_NODE(SelectNode, PrimExprNode, "ir.Select");
  PrimExpr cond;
  PrimExpr true_value;
  PrimExpr false_value;
  CTIR_FIELDS(CTIR_FIELD(cond), CTIR_FIELD(true_value), CTIR_FIELD(false_value));
  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<SelectNode> make(PrimExpr cond, PrimExpr true_value, PrimExpr false_value);
  };
};
using Select = Ref<SelectNode>;

/// `cast<dtype>(value)`.
struct CastNode final : PrimExprNode {
  CTIR_NODE(CastNode, PrimExprNode, "ir.Cast");
  DataType dtype;
  PrimExpr value;
  CTIR_FIELDS(CTIR_FIELD(dtype), CTIR_FIELD(value));
  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<CastNode> make(DataType dtype, PrimExpr value);
  };
};
using Cast = Ref<CastNode>;

/// A read of one element of a tensor: `%A[%i, %j]`.
struct TensorLoadNode final : PrimExprNode {
  CTIR_NODE(TensorLoadNode, PrimExprNode, "ir.TensorLoad");
  Var source;
  std::vector<PrimExpr> indices;
  CTIR_FIELDS(CTIR_FIELD(source), CTIR_FIELD(indices));
  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<TensorLoadNode> make(Var source, std::vector<PrimExpr> indices);
  };
};
using TensorLoad = Ref<TensorLoadNode>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/tensor/expr-inl.hpp>
#endif
