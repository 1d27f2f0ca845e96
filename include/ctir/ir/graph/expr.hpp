// Graph-level (functional) IR: operators, constants, calls, tuples, let, if, closures,
// and call_dps into tensor-level functions.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ctir {

/// A reference to an operator of the operator registry (`add`, `nn.relu`, ...).
struct OpNode final : ExprNode {
  CTIR_NODE(OpNode, ExprNode, "ir.Op");
  std::string name;
  CTIR_FIELDS(CTIR_FIELD(name));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<OpNode> make(std::string name);
  };
};
using Op = Ref<OpNode>;

/// A dense tensor literal: `const([[1f, 2f], [3f, 4f]])`.
struct ConstantNode final : ExprNode {
  CTIR_NODE(ConstantNode, ExprNode, "ir.Constant");
  TensorData data;
  CTIR_FIELDS(CTIR_FIELD(data));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<ConstantNode> make(TensorData data);
  };
};
using Constant = Ref<ConstantNode>;

/// A call of an operator, a global function or a closure: `add(%x, %y)`, `@f(%a)`.
struct CallNode final : ExprNode {
  CTIR_NODE(CallNode, ExprNode, "ir.Call");
  Expr op;
  std::vector<Expr> args;
  Attrs attrs;
  CTIR_FIELDS(CTIR_FIELD(op), CTIR_FIELD(args), CTIR_FIELD(attrs).elide_default());

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<CallNode> make(Expr op, std::vector<Expr> args, Attrs attrs = {});
  };
};
using Call = Ref<CallNode>;

/// `(%a, %b)`.
struct TupleNode final : ExprNode {
  CTIR_NODE(TupleNode, ExprNode, "ir.Tuple");
  std::vector<Expr> fields;
  CTIR_FIELDS(CTIR_FIELD(fields));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<TupleNode> make(std::vector<Expr> fields);
  };
};
using Tuple = Ref<TupleNode>;

/// `%t.0`.
struct TupleGetItemNode final : ExprNode {
  CTIR_NODE(TupleGetItemNode, ExprNode, "ir.TupleGetItem");
  Expr tuple;
  std::int64_t index = 0;
  CTIR_FIELDS(CTIR_FIELD(tuple), CTIR_FIELD(index));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<TupleGetItemNode> make(Expr tuple, std::int64_t index);
  };
};
using TupleGetItem = Ref<TupleGetItemNode>;

struct FunctionNode;

/// `let %var = value; body`: defines var for body, and for value too when it is a function
/// (a recursive closure).
struct LetNode final : ExprNode {
  CTIR_NODE(LetNode, ExprNode, "ir.Let");
  Var var;
  Expr value;
  Expr body;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().scope_over("body").recursive_in<FunctionNode>("value"),
              CTIR_FIELD(value), CTIR_FIELD(body));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<LetNode> make(Var var, Expr value, Expr body);
  };
};
using Let = Ref<LetNode>;

/// `if (%c) { then_branch } else { else_branch }`.
struct IfNode final : ExprNode {
  CTIR_NODE(IfNode, ExprNode, "ir.If");
  Expr cond;
  Expr then_branch;
  Expr else_branch;
  CTIR_FIELDS(CTIR_FIELD(cond), CTIR_FIELD(then_branch).block(), CTIR_FIELD(else_branch).block());

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<IfNode> make(Expr cond, Expr then_branch, Expr else_branch);
  };
};
using If = Ref<IfNode>;

/// A graph-level function: a module's `def @f(...)` or a closure `fn (...) { ... }`.
struct FunctionNode final : BaseFuncNode {
  CTIR_NODE(FunctionNode, BaseFuncNode, "ir.Function");
  std::vector<Var> params;
  Expr body;
  /// The declared result type; may be null.
  Type ret_type;
  CTIR_FIELDS(CTIR_FIELD(params).def_pattern(), CTIR_FIELD(body).block(), CTIR_FIELD(ret_type));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<FunctionNode> make(std::vector<Var> params, Expr body, Type ret_type = {},
                                  Attrs attrs = {}, std::string name = {});
  };
};
using Function = Ref<FunctionNode>;

/// A call of a tensor-level function in destination-passing style: the caller allocates
/// an output of `out_type`, passes it after `args`, and the call's value is that output.
struct CallDpsNode final : ExprNode {
  CTIR_NODE(CallDpsNode, ExprNode, "ir.CallDps");
  GlobalVar func;
  std::vector<Expr> args;
  Type out_type;
  CTIR_FIELDS(CTIR_FIELD(func), CTIR_FIELD(args), CTIR_FIELD(out_type));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<CallDpsNode> make(GlobalVar func, std::vector<Expr> args, Type out_type);
  };
};
using CallDps = Ref<CallDpsNode>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/graph/expr-inl.hpp>
#endif
