// Tests of the IR node types: factories, fields, hierarchy casts and reference counting.
#include <ctir/core/error.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>

#include <deep_nesting.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <barrier>
#include <cstdint>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace ctir;

namespace {

/// A scalar expression that counts its destructions, to observe when a node is freed.
struct ProbeExprNode final : PrimExprNode {
  CTIR_NODE(ProbeExprNode, PrimExprNode, "test.ir.nodes.ProbeExpr");
  static inline std::atomic<int> destroyed{0};
  ProbeExprNode() = default;
  ProbeExprNode(const ProbeExprNode& other) = default;
  ProbeExprNode& operator=(const ProbeExprNode&) = delete;
  ~ProbeExprNode() { destroyed.fetch_add(1, std::memory_order_relaxed); }
};

PrimExpr make_probe() { return make_object<ProbeExprNode>(); }

/// What a node is, for the hierarchy table.
struct Kinds {
  bool prim_expr;
  bool expr;
  bool base_func;
  bool stmt;
  bool type;
};

template <class U>
bool downcast_throws(const ObjectRef& ref) {
  try {
    (void)downcast<U>(ref);
  } catch (const bad_node_cast&) {
    return true;
  }
  return false;
}

// Upcasts are implicit; downcasts and cross casts are not.
static_assert(std::is_convertible_v<Var, PrimExpr>);
static_assert(std::is_convertible_v<Var, Expr>);
static_assert(std::is_convertible_v<Var, ObjectRef>);
static_assert(std::is_convertible_v<PrimFunc, BaseFunc>);
static_assert(std::is_convertible_v<For, Stmt>);
static_assert(!std::is_convertible_v<Expr, Var>);
static_assert(!std::is_convertible_v<PrimExpr, Var>);
static_assert(!std::is_convertible_v<Var, Stmt>);
static_assert(!std::is_convertible_v<Stmt, Expr>);
static_assert(!std::is_convertible_v<PrimFunc, Function>);
static_assert(!std::is_convertible_v<Type, Expr>);
// Only tensor-level scalars take C++ literals.
static_assert(std::is_convertible_v<int, PrimExpr>);
static_assert(!std::is_convertible_v<int, Expr>);
static_assert(!std::is_convertible_v<int, Var>);
static_assert(!std::is_convertible_v<double, Stmt>);

} // namespace

// ---------------------------------------------------------------------------
// Types and variables
// ---------------------------------------------------------------------------

TEST_CASE("type factories store their fields") {
  const PrimType i32 = PrimType::make(DataType::int32());
  CHECK(i32->dtype == DataType::int32());
  CHECK(i32->dynamic_type_key() == "ir.PrimType");

  const Var n = Var::make("n", DataType::int32());
  const TensorType tensor = TensorType::make({n, IntImm::make(4)}, DataType::float16());
  REQUIRE(tensor->shape.size() == 2);
  CHECK(tensor->ndim() == 2);
  CHECK(tensor->shape[0].same_as(n));
  CHECK(tensor->shape[1].as<IntImmNode>()->value == 4);
  CHECK(tensor->dtype == DataType::float16());

  const TupleType tuple = TupleType::make({i32, tensor});
  REQUIRE(tuple->fields.size() == 2);
  CHECK(tuple->fields[0].same_as(i32));
  CHECK(tuple->fields[1].same_as(tensor));
  CHECK(TupleType::make({})->fields.empty());

  const FuncType func = FuncType::make({i32, tensor}, tuple);
  REQUIRE(func->params.size() == 2);
  CHECK(func->params[1].same_as(tensor));
  CHECK(func->ret.same_as(tuple));
}

TEST_CASE("a PrimType has a one-line representation: its dtype") {
  const PrimType type = PrimType::make(DataType::uint8());
  REQUIRE((type->type_info().repr != nullptr));
  std::string out;
  type->type_info().repr(*type, out);
  CHECK(out == "uint8");
}

TEST_CASE("Var::make takes a type or a dtype, and the name is only a hint") {
  const Var x = Var::make("x", DataType::float32());
  CHECK(x->name == "x");
  REQUIRE(x->ty.is<PrimTypeNode>());
  CHECK(x->ty.as<PrimTypeNode>()->dtype == DataType::float32());

  const TensorType t = TensorType::make({IntImm::make(3)}, DataType::int8());
  const Var a = Var::make("A", t);
  CHECK(a->ty.same_as(t));

  const Var untyped = Var::make("u");
  CHECK_FALSE(untyped->ty.defined());

  // Two variables with the same name are two variables.
  const Var x2 = Var::make("x", DataType::float32());
  CHECK_FALSE(x.same_as(x2));
  CHECK_FALSE(x == x2);
  CHECK(x == x);
  const std::unordered_set<Var> set{x, x2, x};
  CHECK(set.size() == 2);
}

TEST_CASE("only Var is a variable type; its descriptor reads its name") {
  static_assert(is_variable_node_v<VarNode>);
  static_assert(!is_variable_node_v<GlobalVarNode>);
  static_assert(!is_variable_node_v<IntImmNode>);
  const Var v = Var::make("hint", DataType::int32());
  CHECK(v->type_info().is_variable);
  REQUIRE((v->type_info().variable_name != nullptr));
  CHECK(v->type_info().variable_name(*v) == "hint");
  CHECK_FALSE(GlobalVar::make("g")->type_info().is_variable);
}

TEST_CASE("GlobalVar::make stores the function name") {
  const GlobalVar g = GlobalVar::make("main");
  CHECK(g->name == "main");
  CHECK(g->dynamic_type_key() == "ir.GlobalVar");
}

// ---------------------------------------------------------------------------
// Tensor-level expressions
// ---------------------------------------------------------------------------

TEST_CASE("IntImm and FloatImm default to int32 and float32") {
  const IntImm i = IntImm::make(-7);
  CHECK(i->value == -7);
  CHECK(i->dtype == DataType::int32());
  const IntImm wide = IntImm::make(std::int64_t{1} << 40, DataType::int64());
  CHECK(wide->value == std::int64_t{1} << 40);
  CHECK(wide->dtype == DataType::int64());

  const FloatImm f = FloatImm::make(0.25);
  CHECK(f->value == 0.25);
  CHECK(f->dtype == DataType::float32());
  CHECK(FloatImm::make(1.5, DataType::float64())->dtype == DataType::float64());
}

namespace {
template <class Node>
void check_binary(std::string_view key, std::string_view symbol, bool comparison, bool logical) {
  CAPTURE(key);
  const Var a = Var::make("a", DataType::int32());
  const IntImm b = IntImm::make(2);
  const Ref<Node> node = Ref<Node>::make(a, b);
  CHECK(node->dynamic_type_key() == key);
  CHECK(Node::type_key == key);
  CHECK(node->a.same_as(a));
  CHECK(node->b.same_as(b));
  CHECK(Node::symbol == symbol);
  CHECK(Node::is_comparison == comparison);
  CHECK(Node::is_logical == logical);
  CHECK(node.template is<PrimExprNode>());
}
} // namespace

TEST_CASE("every binary node type stores its operands and knows its operator") {
  check_binary<AddNode>("ir.Add", "+", false, false);
  check_binary<SubNode>("ir.Sub", "-", false, false);
  check_binary<MulNode>("ir.Mul", "*", false, false);
  check_binary<DivNode>("ir.Div", "/", false, false);
  check_binary<ModNode>("ir.Mod", "%", false, false);
  check_binary<MinNode>("ir.Min", "min", false, false);
  check_binary<MaxNode>("ir.Max", "max", false, false);
  check_binary<EQNode>("ir.EQ", "==", true, false);
  check_binary<NENode>("ir.NE", "!=", true, false);
  check_binary<LTNode>("ir.LT", "<", true, false);
  check_binary<LENode>("ir.LE", "<=", true, false);
  check_binary<GTNode>("ir.GT", ">", true, false);
  check_binary<GENode>("ir.GE", ">=", true, false);
  check_binary<AndNode>("ir.And", "&&", false, true);
  check_binary<OrNode>("ir.Or", "||", false, true);
}

TEST_CASE("binary precedence follows C: multiplicative over additive over comparisons") {
  static_assert(MulNode::precedence == DivNode::precedence &&
                DivNode::precedence == ModNode::precedence);
  static_assert(AddNode::precedence == SubNode::precedence);
  static_assert(MulNode::precedence > AddNode::precedence);
  static_assert(AddNode::precedence > LTNode::precedence);
  static_assert(LTNode::precedence > EQNode::precedence);
  static_assert(EQNode::precedence > AndNode::precedence);
  static_assert(AndNode::precedence > OrNode::precedence);
  static_assert(MinNode::precedence == 0 && MaxNode::precedence == 0);
  static_assert(AddNode::op == BinaryOp::add && OrNode::op == BinaryOp::logical_or);
  CHECK(true);
}

TEST_CASE("unary, select, cast and load nodes store their fields") {
  const Var c = Var::make("c", DataType::boolean());
  const Var x = Var::make("x", DataType::float32());
  const FloatImm one = FloatImm::make(1.0);

  const Not not_c = Not::make(c);
  CHECK(not_c->a.same_as(c));
  CHECK(not_c->dynamic_type_key() == "ir.Not");

  const Neg neg = Neg::make(x);
  CHECK(neg->a.same_as(x));
  CHECK(neg->dynamic_type_key() == "ir.Neg");

  const Select sel = Select::make(c, x, one);
  CHECK(sel->cond.same_as(c));
  CHECK(sel->true_value.same_as(x));
  CHECK(sel->false_value.same_as(one));

  const Cast cast_node = Cast::make(DataType::int64(), x);
  CHECK(cast_node->dtype == DataType::int64());
  CHECK(cast_node->value.same_as(x));

  const Var a =
      Var::make("A", TensorType::make({IntImm::make(4), IntImm::make(4)}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  const TensorLoad load_node = TensorLoad::make(a, {i, IntImm::make(0)});
  CHECK(load_node->source.same_as(a));
  REQUIRE(load_node->indices.size() == 2);
  CHECK(load_node->indices[0].same_as(i));
  CHECK(load_node->indices[1].as<IntImmNode>()->value == 0);
}

// ---------------------------------------------------------------------------
// Statements and PrimFunc
// ---------------------------------------------------------------------------

TEST_CASE("statement factories store their fields") {
  const Var n = Var::make("n", DataType::int32());
  const Var b = Var::make("B", TensorType::make({n}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());

  const TensorStore store = TensorStore::make(b, {i}, FloatImm::make(2.0));
  CHECK(store->dest.same_as(b));
  REQUIRE(store->indices.size() == 1);
  CHECK(store->indices[0].same_as(i));
  CHECK(store->value.as<FloatImmNode>()->value == 2.0);

  const SeqStmt seq = SeqStmt::make({store, store});
  REQUIRE(seq->seq.size() == 2);
  CHECK(seq->seq[0].same_as(store));
  CHECK(seq->seq[1].same_as(store));
  CHECK(SeqStmt::make({})->seq.empty());

  const For loop = For::make(i, IntImm::make(0), n, seq, ForKind::parallel);
  CHECK(loop->var.same_as(i));
  CHECK(loop->begin.as<IntImmNode>()->value == 0);
  CHECK(loop->end.same_as(n));
  CHECK(loop->body.same_as(seq));
  CHECK(loop->kind == ForKind::parallel);
  CHECK(For::make(i, IntImm::make(0), n, seq)->kind == ForKind::serial);

  const Var t = Var::make("t", DataType::int32());
  const Bind bind = Bind::make(t, IntImm::make(3));
  CHECK(bind->var.same_as(t));
  CHECK(bind->value.as<IntImmNode>()->value == 3);

  const Var c = Var::make("c", DataType::boolean());
  const IfThenElse branch = IfThenElse::make(c, seq, seq);
  CHECK(branch->cond.same_as(c));
  CHECK(branch->then_case.same_as(seq));
  CHECK(branch->else_case.same_as(seq));
  CHECK_FALSE(IfThenElse::make(c, seq)->else_case.defined());

  const Var tmp = Var::make("T", TensorType::make({IntImm::make(16)}, DataType::float32()));
  const Allocate alloc = Allocate::make(tmp);
  CHECK(alloc->buffer.same_as(tmp));
}

TEST_CASE("loop kinds print as the text format's keywords") {
  CHECK(to_string(ForKind::serial) == "range");
  CHECK(to_string(ForKind::parallel) == "parallel");
  CHECK(to_string(ForKind::vectorized) == "vectorized");
  CHECK(to_string(ForKind::unroll) == "unroll");
  CHECK(print_value(ForKind::unroll) == "unroll");
}

TEST_CASE("a body that is not a block is wrapped in one; a missing body is an empty block") {
  const Var i = Var::make("i", DataType::int32());
  const Var t = Var::make("t", DataType::int32());
  const Bind bind = Bind::make(t, i);
  const For loop = For::make(i, 0, 4, bind);
  REQUIRE(loop->body.defined());
  REQUIRE(loop->body->seq.size() == 1);
  CHECK(loop->body->seq[0].same_as(bind));

  const For empty = For::make(i, 0, 4, Stmt());
  REQUIRE(empty->body.defined());
  CHECK(empty->body->seq.empty());

  CHECK(as_block(bind)->seq[0].same_as(bind));
  const SeqStmt block = SeqStmt::make({bind});
  CHECK(as_block(block).same_as(block));
}

TEST_CASE("PrimFunc::make stores name, attributes, parameters and body") {
  const Var n = Var::make("n", DataType::int32());
  const Var a = Var::make("A", TensorType::make({n}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  const Stmt body = TensorStore::make(a, {i}, FloatImm::make(0.0));
  const PrimFunc f = PrimFunc::make("zero", {a}, body, Attrs{{"SkipOptimization", true}});
  CHECK(f->name == "zero");
  REQUIRE(f->params.size() == 1);
  CHECK(f->params[0].same_as(a));
  REQUIRE(f->body->seq.size() == 1);
  CHECK(f->body->seq[0].same_as(body));
  CHECK(f->skip_optimization());
  CHECK_FALSE(PrimFunc::make("g", {}, body)->skip_optimization());
  CHECK(PrimFunc::make("g", {}, body, Attrs{{"SkipOptimization", false}})->skip_optimization() ==
        false);
  CHECK(PrimFunc::make("g", {}, body)->attrs.empty());
}

// ---------------------------------------------------------------------------
// Graph-level expressions
// ---------------------------------------------------------------------------

TEST_CASE("graph-level factories store their fields") {
  const Var x = Var::make("x", TensorType::make({IntImm::make(2)}, DataType::float32()));
  const Var y = Var::make("y", TensorType::make({IntImm::make(2)}, DataType::float32()));

  const Op add = Op::make("add");
  CHECK(add->name == "add");

  const Constant k = Constant::make(TensorData::from_doubles(DataType::float32(), {2}, {1.0, 2.0}));
  CHECK(k->data.size() == 2);
  CHECK(k->data.get(1) == 2.0);

  const Call call_node = Call::make(add, {x, y}, Attrs{{"axis", std::int64_t{0}}});
  CHECK(call_node->op.same_as(add));
  REQUIRE(call_node->args.size() == 2);
  CHECK(call_node->args[0].same_as(x));
  CHECK(call_node->args[1].same_as(y));
  CHECK(call_node->attrs.get<std::int64_t>("axis") == 0);
  CHECK(Call::make(add, {x})->attrs.empty());

  const Tuple tuple = Tuple::make({x, call_node});
  REQUIRE(tuple->fields.size() == 2);
  CHECK(tuple->fields[1].same_as(call_node));

  const TupleGetItem item = TupleGetItem::make(tuple, 1);
  CHECK(item->tuple.same_as(tuple));
  CHECK(item->index == 1);

  const Var z = Var::make("z");
  const Let let = Let::make(z, call_node, Tuple::make({z, z}));
  CHECK(let->var.same_as(z));
  CHECK(let->value.same_as(call_node));
  CHECK(let->body.is<TupleNode>());

  const Var c = Var::make("c", DataType::boolean());
  const If branch = If::make(c, x, y);
  CHECK(branch->cond.same_as(c));
  CHECK(branch->then_branch.same_as(x));
  CHECK(branch->else_branch.same_as(y));

  const Type ret = TensorType::make({IntImm::make(2)}, DataType::float32());
  const Function fn = Function::make({x, y}, call_node, ret, Attrs{{"Primitive", true}}, "f");
  REQUIRE(fn->params.size() == 2);
  CHECK(fn->params[0].same_as(x));
  CHECK(fn->body.same_as(call_node));
  CHECK(fn->ret_type.same_as(ret));
  CHECK(fn->attrs.get<bool>("Primitive") == true);
  CHECK(fn->name == "f");
  const Function closure = Function::make({x}, x);
  CHECK(closure->name.empty());
  CHECK_FALSE(closure->ret_type.defined());
  CHECK(closure->attrs.empty());

  const GlobalVar callee = GlobalVar::make("add_one");
  const CallDps dps = CallDps::make(callee, {x}, ret);
  CHECK(dps->func.same_as(callee));
  REQUIRE(dps->args.size() == 1);
  CHECK(dps->args[0].same_as(x));
  CHECK(dps->out_type.same_as(ret));
}

TEST_CASE("every factory makes a node of its own dynamic type with one use") {
  const Var v = Var::make("v", DataType::int32());
  const Var t = Var::make("T", TensorType::make({IntImm::make(1)}, DataType::float32()));
  const std::vector<std::pair<ObjectRef, std::string_view>> nodes{
      {PrimType::make(DataType::int32()), PrimTypeNode::type_key},
      {TensorType::make({}, DataType::int32()), TensorTypeNode::type_key},
      {TupleType::make({}), TupleTypeNode::type_key},
      {FuncType::make({}, {}), FuncTypeNode::type_key},
      {Var::make("w"), VarNode::type_key},
      {GlobalVar::make("g"), GlobalVarNode::type_key},
      {IntImm::make(1), IntImmNode::type_key},
      {FloatImm::make(1), FloatImmNode::type_key},
      {Add::make(v, v), AddNode::type_key},
      {Or::make(v, v), OrNode::type_key},
      {Not::make(v), NotNode::type_key},
      {Neg::make(v), NegNode::type_key},
      {Select::make(v, v, v), SelectNode::type_key},
      {Cast::make(DataType::int8(), v), CastNode::type_key},
      {TensorLoad::make(t, {v}), TensorLoadNode::type_key},
      {Op::make("add"), OpNode::type_key},
      {Constant::make(TensorData::scalar(DataType::int32(), 0)), ConstantNode::type_key},
      {Call::make(Op::make("add"), {}), CallNode::type_key},
      {Tuple::make({}), TupleNode::type_key},
      {TupleGetItem::make(Tuple::make({v}), 0), TupleGetItemNode::type_key},
      {Let::make(v, v, v), LetNode::type_key},
      {If::make(v, v, v), IfNode::type_key},
      {Function::make({}, v), FunctionNode::type_key},
      {CallDps::make(GlobalVar::make("g"), {}, {}), CallDpsNode::type_key},
      {SeqStmt::make({}), SeqStmtNode::type_key},
      {For::make(v, 0, 1, {}), ForNode::type_key},
      {TensorStore::make(t, {v}, v), TensorStoreNode::type_key},
      {Bind::make(v, 1), BindNode::type_key},
      {IfThenElse::make(v, {}), IfThenElseNode::type_key},
      {Allocate::make(t), AllocateNode::type_key},
      {PrimFunc::make("p", {}, {}), PrimFuncNode::type_key},
      {IRModule().node(), IRModuleNode::type_key},
  };
  for (const auto& entry : nodes) {
    const ObjectRef& node = entry.first;
    const std::string_view key = entry.second;
    CAPTURE(key);
    REQUIRE(node.defined());
    CHECK(node->dynamic_type_key() == key);
    CHECK(node->type_info().key == key);
    CHECK(node->dynamic_type_index() == type_index_of_key(key));
    CHECK_FALSE(node->type_info().is_abstract);
    CHECK(node->use_count() == 1);
  }
}

// ---------------------------------------------------------------------------
// The hierarchy: is / as / downcast
// ---------------------------------------------------------------------------

TEST_CASE("is and as follow the node hierarchy across PrimExpr, Expr, BaseFunc, Stmt and Type") {
  const Var v = Var::make("v", DataType::int32());
  const Var buffer = Var::make("B", TensorType::make({IntImm::make(1)}, DataType::float32()));
  const std::vector<std::pair<ObjectRef, Kinds>> table{
      {v, {true, true, false, false, false}},
      {IntImm::make(1), {true, true, false, false, false}},
      {Add::make(v, 1), {true, true, false, false, false}},
      {TensorLoad::make(buffer, {v}), {true, true, false, false, false}},
      {GlobalVar::make("g"), {false, true, false, false, false}},
      {Op::make("add"), {false, true, false, false, false}},
      {Call::make(Op::make("add"), {v}), {false, true, false, false, false}},
      {CallDps::make(GlobalVar::make("g"), {}, {}), {false, true, false, false, false}},
      {Function::make({}, v), {false, true, true, false, false}},
      {PrimFunc::make("p", {}, {}), {false, true, true, false, false}},
      {For::make(v, 0, 1, {}), {false, false, false, true, false}},
      {SeqStmt::make({}), {false, false, false, true, false}},
      {Allocate::make(buffer), {false, false, false, true, false}},
      {PrimType::make(DataType::int32()), {false, false, false, false, true}},
      {TensorType::make({}, DataType::int32()), {false, false, false, false, true}},
      {IRModule().node(), {false, false, false, false, false}},
  };
  for (const auto& entry : table) {
    const ObjectRef& node = entry.first;
    const Kinds& kinds = entry.second;
    const std::string_view key = node->dynamic_type_key();
    CAPTURE(key);
    CHECK(node.is<Object>());
    CHECK(node.is<PrimExprNode>() == kinds.prim_expr);
    CHECK(node.is<ExprNode>() == kinds.expr);
    CHECK(node.is<BaseFuncNode>() == kinds.base_func);
    CHECK(node.is<StmtNode>() == kinds.stmt);
    CHECK(node.is<TypeNode>() == kinds.type);
    // Ref types work as well as node types.
    CHECK(node.is<PrimExpr>() == kinds.prim_expr);
    CHECK(node.is<Stmt>() == kinds.stmt);
    // as gives the same object, or null.
    CHECK((node.as<ExprNode>() != nullptr) == kinds.expr);
    if (kinds.expr) {
      CHECK(static_cast<const Object*>(node.as<ExprNode>()) == node.get());
    }
    CHECK((node.as<StmtNode>() != nullptr) == kinds.stmt);
    // downcast succeeds exactly where is says yes.
    CHECK(downcast_throws<ExprNode>(node) == !kinds.expr);
    CHECK(downcast_throws<Stmt>(node) == !kinds.stmt);
    CHECK(downcast_throws<BaseFunc>(node) == !kinds.base_func);
    CHECK(downcast_throws<Type>(node) == !kinds.type);
    CHECK(try_downcast<PrimExpr>(node).defined() == kinds.prim_expr);
  }
}

TEST_CASE("a Var is a PrimExpr and an Expr but not a Stmt") {
  const Var v = Var::make("v", DataType::int32());
  const Expr e = v;
  CHECK(e.is<VarNode>());
  CHECK(e.is<PrimExprNode>());
  CHECK(e.as<VarNode>() == v.get());
  CHECK_FALSE(e.is<StmtNode>());
  CHECK_FALSE(e.is<IntImmNode>());
  CHECK_FALSE(e.is<GlobalVarNode>());
  CHECK(e.as<StmtNode>() == nullptr);
  CHECK(e.as<IntImmNode>() == nullptr);
}

TEST_CASE("exact node types are told apart, including the binary operators") {
  const Var v = Var::make("v", DataType::int32());
  const PrimExpr add = Add::make(v, v);
  CHECK(add.is<AddNode>());
  CHECK_FALSE(add.is<SubNode>());
  CHECK_FALSE(add.is<MulNode>());
  CHECK_FALSE(add.is<VarNode>());
  const BaseFunc prim = PrimFunc::make("p", {}, {});
  CHECK(prim.is<PrimFuncNode>());
  CHECK_FALSE(prim.is<FunctionNode>());
}

TEST_CASE("downcast to the right type shares the node") {
  const Var v = Var::make("v", DataType::int32());
  const Expr e = v;
  const Var back = downcast<Var>(e);
  CHECK(back.same_as(v));
  const PrimExpr p = downcast<PrimExprNode>(e);
  CHECK(p.same_as(v));
  CHECK(v->use_count() == 4);
  CHECK_FALSE(downcast<Var>(Expr()).defined());
  CHECK_FALSE(try_downcast<Var>(Expr()).defined());
}

TEST_CASE("downcast to a wrong type throws bad_node_cast naming both types") {
  const Expr e = Var::make("v", DataType::int32());
  CHECK_THROWS_AS(downcast<Stmt>(e), bad_node_cast);
  std::string message;
  try {
    (void)downcast<Stmt>(e);
  } catch (const bad_node_cast& error) {
    message = error.what();
  }
  CHECK(message.find("ir.Var") != std::string::npos);
  CHECK(message.find("ir.Stmt") != std::string::npos);

  try {
    (void)downcast<IntImm>(e);
    FAIL("downcast to IntImm did not throw");
  } catch (const bad_node_cast& error) {
    message = error.what();
  }
  CHECK(message.find("ir.Var") != std::string::npos);
  CHECK(message.find("ir.IntImm") != std::string::npos);
  CHECK_FALSE(try_downcast<IntImm>(e).defined());
}

TEST_CASE("a failed downcast is a ctir::Error like every other error ctir reports") {
  const Expr e = Var::make("v", DataType::int32());
  CHECK_THROWS_AS(downcast<Stmt>(e), Error);
}

TEST_CASE("ref_of and borrow add a reference to a node reached by pointer") {
  const Var v = Var::make("v", DataType::int32());
  const VarNode* raw = v.get();
  {
    const Var again = ref_of(raw);
    CHECK(again.same_as(v));
    CHECK(raw->use_count() == 2);
    const Ref<VarNode> borrowed = Ref<VarNode>::borrow(raw);
    CHECK(raw->use_count() == 3);
  }
  CHECK(raw->use_count() == 1);
}

TEST_CASE("the descriptor of a node knows its ancestors") {
  const Add add = Add::make(1, 2);
  const TypeInfo& info = add->type_info();
  CHECK(info.key == "ir.Add");
  REQUIRE(info.parent != nullptr);
  CHECK(info.parent->key == "ir.BinaryExpr");
  REQUIRE(info.parent->parent != nullptr);
  CHECK(info.parent->parent->key == "ir.PrimExpr");
  REQUIRE(info.parent->parent->parent != nullptr);
  CHECK(info.parent->parent->parent->key == "ir.Expr");
  REQUIRE(info.parent->parent->parent->parent != nullptr);
  CHECK(info.parent->parent->parent->parent->key == "Object");
  CHECK(info.parent->parent->parent->parent->parent == nullptr);
  CHECK(info.depth == 4);
  CHECK(info.derives_from(type_info_v<BinaryExprNode>));
  CHECK(info.derives_from(type_info_v<ExprNode>));
  CHECK_FALSE(info.derives_from(type_info_v<StmtNode>));
  CHECK_FALSE(info.derives_from(type_info_v<SubNode>));
}

// ---------------------------------------------------------------------------
// Reference counting
// ---------------------------------------------------------------------------

TEST_CASE("copying a Ref adds a use and destroying the copy removes it") {
  const Var v = Var::make("v", DataType::int32());
  CHECK(v->use_count() == 1);
  {
    const Var copy = v; // NOLINT(performance-unnecessary-copy-initialization)
    CHECK(v->use_count() == 2);
    CHECK(copy.same_as(v));
    {
      const PrimExpr up = copy;
      const Expr further = up;
      const ObjectRef root = further;
      CHECK(v->use_count() == 5);
    }
    CHECK(v->use_count() == 2);
  }
  CHECK(v->use_count() == 1);
}

TEST_CASE("moving a Ref hands its use over without touching the count") {
  Var v = Var::make("v", DataType::int32());
  const VarNode* raw = v.get();
  Var moved = std::move(v);
  CHECK(raw->use_count() == 1);
  CHECK_FALSE(v.defined()); // NOLINT(bugprone-use-after-move): a moved-from Ref is null
  PrimExpr up = std::move(moved);
  CHECK(raw->use_count() == 1);
  CHECK_FALSE(moved.defined()); // NOLINT(bugprone-use-after-move)
  Expr further;
  further = std::move(up);
  CHECK(raw->use_count() == 1);
  CHECK(further.get() == raw);
}

TEST_CASE("assignment releases the old node and retains the new one") {
  const Var a = Var::make("a", DataType::int32());
  const Var b = Var::make("b", DataType::int32());
  PrimExpr slot = a;
  CHECK(a->use_count() == 2);
  slot = b;
  CHECK(a->use_count() == 1);
  CHECK(b->use_count() == 2);
  const PrimExpr& alias = slot;
  slot = alias; // self-assignment keeps the node alive
  CHECK(b->use_count() == 2);
  CHECK(slot.same_as(b));
  slot = nullptr;
  CHECK(b->use_count() == 1);
  CHECK_FALSE(slot.defined());
  CHECK(slot == nullptr);
  slot = a;
  slot.reset();
  CHECK(a->use_count() == 1);
}

TEST_CASE("a node shared by two parents is freed only when both are gone") {
  ProbeExprNode::destroyed = 0;
  PrimExpr child = make_probe();
  const Object* probe = child.get();
  const Var v = Var::make("v", DataType::int32());
  PrimExpr first = Add::make(child, v);
  PrimExpr second = Mul::make(v, child);
  CHECK(probe->use_count() == 3);
  child.reset();
  CHECK(probe->use_count() == 2);
  first.reset();
  CHECK(probe->use_count() == 1);
  CHECK(ProbeExprNode::destroyed == 0);
  CHECK(second.as<MulNode>()->b.get() == probe); // still alive and reachable
  second.reset();
  CHECK(ProbeExprNode::destroyed == 1);
  CHECK(v->use_count() == 1);
}

TEST_CASE("a parent keeps its children alive after the caller's Refs are gone") {
  ProbeExprNode::destroyed = 0;
  Stmt body;
  {
    const Var i = Var::make("i", DataType::int32());
    const Var t = Var::make("t", DataType::int32());
    body = For::make(i, 0, 10, Bind::make(t, make_probe()));
  }
  CHECK(ProbeExprNode::destroyed == 0);
  const auto* loop = body.as<ForNode>();
  REQUIRE(loop != nullptr);
  CHECK(loop->var->name == "i");
  CHECK(loop->body->seq[0].as<BindNode>()->var->name == "t");
  body.reset();
  CHECK(ProbeExprNode::destroyed == 1);
}

TEST_CASE("a chain far deeper than native recursion could go is destroyed without overflowing "
          "the stack") {
  constexpr int depth = testing::deep_nesting;
  ProbeExprNode::destroyed = 0;
  const IntImm one = IntImm::make(1);
  PrimExpr chain = make_probe();
  for (int k = 0; k < depth; ++k) {
    chain = Add::make(std::move(chain), one);
  }
  CHECK(one->use_count() == depth + 1);
  CHECK(chain->use_count() == 1);
  chain.reset();
  CHECK(one->use_count() == 1);         // every Add was freed ...
  CHECK(ProbeExprNode::destroyed == 1); // ... down to the innermost leaf
}

TEST_CASE("a deep nest of loops is destroyed without overflowing the stack") {
  constexpr int depth = 200'000;
  ProbeExprNode::destroyed = 0;
  const Var i = Var::make("i", DataType::int32());
  Stmt nest = Bind::make(i, make_probe());
  for (int k = 0; k < depth; ++k) {
    nest = For::make(i, 0, 2, std::move(nest));
  }
  CHECK(i->use_count() == depth + 2);
  nest.reset();
  CHECK(i->use_count() == 1);
  CHECK(ProbeExprNode::destroyed == 1);
}

TEST_CASE("copies of one Ref made concurrently from four threads keep the count exact") {
  constexpr int threads = 4;
  constexpr int copies = 50'000;
  const Var shared = Var::make("shared", DataType::int32());
  std::vector<std::vector<Var>> held(threads);
  std::barrier start(threads);
  {
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        auto& mine = held[static_cast<std::size_t>(t)];
        mine.reserve(copies);
        start.arrive_and_wait();
        for (int k = 0; k < copies; ++k) {
          mine.push_back(shared);
          const Var transient = shared; // copied and dropped at once
          const PrimExpr up = transient;
        }
      });
    }
  }
  CHECK(shared->use_count() == 1 + threads * copies);
  {
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        start.arrive_and_wait();
        held[static_cast<std::size_t>(t)].clear();
      });
    }
  }
  CHECK(shared->use_count() == 1);
}

TEST_CASE("the last references dropped on several threads at once free the node exactly once") {
  constexpr int threads = 4;
  constexpr int rounds = 500;
  ProbeExprNode::destroyed = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<PrimExpr> refs(threads, make_probe());
    std::barrier start(threads);
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        start.arrive_and_wait();
        refs[static_cast<std::size_t>(t)].reset();
      });
    }
  }
  CHECK(ProbeExprNode::destroyed == rounds);
}
