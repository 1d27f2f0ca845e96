// Tests of ctir/ir/builder.hpp: building IR from C++ operators, literals and helpers.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/tensor/prim_func.hpp>

#include <doctest/doctest.h>
#include <run_in_child.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

using namespace ctir;

namespace {

// Arithmetic on plain C++ numbers stays C++ arithmetic.
static_assert(std::is_same_v<decltype(std::size_t{} + 1), std::size_t>);
static_assert(!std::is_same_v<decltype(std::size_t{} + 1), PrimExpr>);
static_assert(std::is_same_v<decltype(1 + 1), int>);
static_assert(std::is_same_v<decltype(2.0 * 3), double>);
static_assert(std::is_same_v<decltype(-1), int>);
// With an expression on either side, the operators build IR.
static_assert(std::is_same_v<decltype(std::declval<Var>() + 1), PrimExpr>);
static_assert(std::is_same_v<decltype(1 + std::declval<Var>()), PrimExpr>);
static_assert(
    std::is_same_v<decltype(std::declval<PrimExpr>() * std::declval<IntImm>()), PrimExpr>);
static_assert(std::is_same_v<decltype(-std::declval<const Var&>()), PrimExpr>);

template <class A, class B>
concept addable = requires(A a, B b) {
  a + b;
};
template <class A>
concept negatable = requires(A a) {
  -a;
};

// Graph-level expressions, statements and strings are not scalar operands.
static_assert(!addable<Expr, int>, "graph-level Expr has no arithmetic");
static_assert(!addable<Var, Expr>);
static_assert(!addable<Stmt, int>);
static_assert(!addable<Var, std::string>);
static_assert(!addable<Call, Call>);
static_assert(!negatable<Expr>);
static_assert(!negatable<Stmt>);

/// The operands of a binary node, checked to be of node type Node.
template <class Node>
const Node& as_binary(const PrimExpr& e) {
  REQUIRE(e.is<Node>());
  return *e.as<Node>();
}

} // namespace

TEST_CASE("arithmetic operators build the matching binary nodes over their operands") {
  const Var x = Var::make("x", DataType::int32());
  const Var y = Var::make("y", DataType::int32());
  CHECK(as_binary<AddNode>(x + y).a.same_as(x));
  CHECK(as_binary<AddNode>(x + y).b.same_as(y));
  CHECK(as_binary<SubNode>(x - y).a.same_as(x));
  CHECK(as_binary<SubNode>(x - y).b.same_as(y));
  CHECK(as_binary<MulNode>(x * y).a.same_as(x));
  CHECK(as_binary<MulNode>(x * y).b.same_as(y));
  CHECK(as_binary<DivNode>(x / y).a.same_as(x));
  CHECK(as_binary<DivNode>(x / y).b.same_as(y));
  CHECK(as_binary<ModNode>(x % y).a.same_as(x));
  CHECK(as_binary<ModNode>(x % y).b.same_as(y));
}

TEST_CASE("operators nest with C++ precedence") {
  const Var x = Var::make("x", DataType::int32());
  const Var y = Var::make("y", DataType::int32());
  const Var z = Var::make("z", DataType::int32());
  const PrimExpr e = x + y * z; // x + (y * z)
  const auto& add = as_binary<AddNode>(e);
  CHECK(add.a.same_as(x));
  const auto& mul = as_binary<MulNode>(add.b);
  CHECK(mul.a.same_as(y));
  CHECK(mul.b.same_as(z));

  const PrimExpr f = x - y - z; // (x - y) - z
  const auto& outer = as_binary<SubNode>(f);
  CHECK(outer.b.same_as(z));
  CHECK(as_binary<SubNode>(outer.a).a.same_as(x));
}

TEST_CASE("unary minus builds a Neg node") {
  const Var x = Var::make("x", DataType::float32());
  const PrimExpr n = -x;
  REQUIRE(n.is<NegNode>());
  CHECK(n.as<NegNode>()->a.same_as(x));
  const PrimExpr nn = -(-x);
  REQUIRE(nn.is<NegNode>());
  CHECK(nn.as<NegNode>()->a.is<NegNode>());
  const PrimExpr sum = x + 1.0f;
  CHECK((-sum).as<NegNode>()->a.same_as(sum));
}

TEST_CASE("C++ literals convert to literals of the matching dtype") {
  const auto int_imm = [](const PrimExpr& e) -> const IntImmNode& {
    REQUIRE(e.is<IntImmNode>());
    return *e.as<IntImmNode>();
  };
  const auto float_imm = [](const PrimExpr& e) -> const FloatImmNode& {
    REQUIRE(e.is<FloatImmNode>());
    return *e.as<FloatImmNode>();
  };
  const PrimExpr i = 1;
  CHECK(int_imm(i).dtype == DataType::int32());
  CHECK(int_imm(i).value == 1);
  const PrimExpr negative = -7;
  CHECK(int_imm(negative).value == -7);
  const PrimExpr f = 1.0f;
  CHECK(float_imm(f).dtype == DataType::float32());
  CHECK(float_imm(f).value == 1.0);
  const PrimExpr d = 0.1;
  CHECK(float_imm(d).dtype == DataType::float64());
  CHECK(float_imm(d).value == 0.1);
  const PrimExpr t = true;
  CHECK(int_imm(t).dtype == DataType::boolean());
  CHECK(int_imm(t).value == 1);
  const PrimExpr no = false;
  CHECK(int_imm(no).dtype == DataType::boolean());
  CHECK(int_imm(no).value == 0);
  const PrimExpr wide = std::int64_t{1} << 40;
  CHECK(int_imm(wide).dtype == DataType::int64());
  CHECK(int_imm(wide).value == std::int64_t{1} << 40);
  const PrimExpr long_long = 5LL;
  CHECK(int_imm(long_long).dtype == DataType::int64());
  const short small = 3;
  const PrimExpr promoted = small;
  CHECK(int_imm(promoted).dtype == DataType::int32());
  CHECK(int_imm(promoted).value == 3);
}

TEST_CASE("literal operands of the operators convert like literals") {
  const Var x = Var::make("x", DataType::float32());
  const PrimExpr x_plus_1 = x + 1;
  const auto& add = as_binary<AddNode>(x_plus_1);
  CHECK(add.a.same_as(x));
  REQUIRE(add.b.is<IntImmNode>());
  CHECK(add.b.as<IntImmNode>()->value == 1);
  CHECK(add.b.as<IntImmNode>()->dtype == DataType::int32());

  const PrimExpr scaled = 2.5f * x;
  const auto& mul = as_binary<MulNode>(scaled);
  REQUIRE(mul.a.is<FloatImmNode>());
  CHECK(mul.a.as<FloatImmNode>()->value == 2.5);
  CHECK(mul.a.as<FloatImmNode>()->dtype == DataType::float32());
  CHECK(mul.b.same_as(x));

  const PrimExpr halved = x / 2.0;
  CHECK(as_binary<DivNode>(halved).b.as<FloatImmNode>()->dtype == DataType::float64());

  const PrimExpr remainder = x % std::int64_t{3};
  const auto& mod = as_binary<ModNode>(remainder);
  CHECK(mod.b.as<IntImmNode>()->dtype == DataType::int64());
  CHECK(mod.b.as<IntImmNode>()->value == 3);

  const PrimExpr minus_minus_one = x - -1;
  CHECK(as_binary<SubNode>(minus_minus_one).b.as<IntImmNode>()->value == -1);

  const PrimExpr is_true = eq(x, true);
  CHECK(as_binary<EQNode>(is_true).b.as<IntImmNode>()->dtype == DataType::boolean());
}

TEST_CASE("every arithmetic literal type the operators accept converts to a PrimExpr") {
  // The operators' constraint admits any arithmetic type; one that PrimExpr cannot be
  // made from fails deep inside the operator's body instead of at the call.
  using Operand = Var;
  CHECK((!addable<Operand, unsigned> || std::is_constructible_v<PrimExpr, unsigned>));
  CHECK((!addable<Operand, std::size_t> || std::is_constructible_v<PrimExpr, std::size_t>));
  CHECK((!addable<Operand, std::uint8_t> || std::is_constructible_v<PrimExpr, std::uint8_t>));
  CHECK((!addable<Operand, long double> || std::is_constructible_v<PrimExpr, long double>));
}

TEST_CASE("plain C++ arithmetic is untouched by the IR operators") {
  const std::size_t k = 3;
  CHECK(k + 1 == 4);
  CHECK(-static_cast<int>(k) == -3);
  const double h = 0.5;
  CHECK(h * 4 == 2.0);
  CHECK(7 % 4 == 3);
}

TEST_CASE("comparison and logical helpers build the matching nodes") {
  const Var x = Var::make("x", DataType::int32());
  const Var y = Var::make("y", DataType::int32());
  const auto check_pair = [&](const auto& node) {
    CHECK(node.a.same_as(x));
    CHECK(node.b.same_as(y));
  };
  check_pair(as_binary<EQNode>(eq(x, y)));
  check_pair(as_binary<NENode>(ne(x, y)));
  check_pair(as_binary<LTNode>(lt(x, y)));
  check_pair(as_binary<LENode>(le(x, y)));
  check_pair(as_binary<GTNode>(gt(x, y)));
  check_pair(as_binary<GENode>(ge(x, y)));
  check_pair(as_binary<MinNode>(ctir::min(x, y)));
  check_pair(as_binary<MaxNode>(ctir::max(x, y)));
  const PrimExpr c = lt(x, y);
  const PrimExpr d = gt(x, 0);
  const PrimExpr both = logical_and(c, d);
  const auto& conj = as_binary<AndNode>(both);
  CHECK(conj.a.same_as(c));
  CHECK(conj.b.same_as(d));
  const PrimExpr either = logical_or(c, d);
  const auto& disj = as_binary<OrNode>(either);
  CHECK(disj.a.same_as(c));
  CHECK(disj.b.same_as(d));
  const PrimExpr negated = logical_not(c);
  REQUIRE(negated.is<NotNode>());
  CHECK(negated.as<NotNode>()->a.same_as(c));
  // Literals on either side.
  CHECK(as_binary<LTNode>(lt(0, x)).b.same_as(x));
  CHECK(as_binary<MaxNode>(ctir::max(x, 0)).b.is<IntImmNode>());
}

TEST_CASE("on Refs, == keeps meaning identity; eq builds IR") {
  const Var x = Var::make("x", DataType::int32());
  const Var y = Var::make("y", DataType::int32());
  CHECK_FALSE(x == y);
  CHECK(x == x);
  static_assert(std::is_same_v<decltype(x == y), bool>);
  static_assert(std::is_same_v<decltype(eq(x, y)), PrimExpr>);
}

TEST_CASE("select, cast and load build their nodes") {
  const Var c = Var::make("c", DataType::boolean());
  const Var x = Var::make("x", DataType::float32());
  const PrimExpr s = ctir::select(c, x, 0.0f);
  REQUIRE(s.is<SelectNode>());
  CHECK(s.as<SelectNode>()->cond.same_as(c));
  CHECK(s.as<SelectNode>()->true_value.same_as(x));
  CHECK(s.as<SelectNode>()->false_value.as<FloatImmNode>()->value == 0.0);

  const PrimExpr k = ctir::cast(DataType::int8(), x);
  REQUIRE(k.is<CastNode>());
  CHECK(k.as<CastNode>()->dtype == DataType::int8());
  CHECK(k.as<CastNode>()->value.same_as(x));

  const Var a = Var::make("A", tensor_type({4, 4}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  const PrimExpr l = load(a, {i, i + 1});
  REQUIRE(l.is<TensorLoadNode>());
  CHECK(l.as<TensorLoadNode>()->source.same_as(a));
  REQUIRE(l.as<TensorLoadNode>()->indices.size() == 2);
  CHECK(l.as<TensorLoadNode>()->indices[0].same_as(i));
  CHECK(l.as<TensorLoadNode>()->indices[1].is<AddNode>());
}

TEST_CASE("call builds a call of a named operator with attributes") {
  const Var x = Var::make("x", tensor_type({2, 3}, DataType::float32()));
  const Var y = Var::make("y", tensor_type({2, 3}, DataType::float32()));
  const Call c = call("add", {x, y});
  REQUIRE(c->op.is<OpNode>());
  CHECK(c->op.as<OpNode>()->name == "add");
  REQUIRE(c->args.size() == 2);
  CHECK(c->args[0].same_as(x));
  CHECK(c->args[1].same_as(y));
  CHECK(c->attrs.empty());

  const Call r = call("reshape", {x}, Attrs{{"newshape", std::vector<std::int64_t>{3, 2}}});
  CHECK(r->op.as<OpNode>()->name == "reshape");
  CHECK(r->attrs.get<std::vector<std::int64_t>>("newshape") == std::vector<std::int64_t>{3, 2});
  // Calls nest: the result is an Expr.
  const Call nested = call("nn.relu", {c});
  CHECK(nested->args[0].same_as(c));
}

TEST_CASE("tensor_type makes constant int32 dimensions") {
  const TensorType t = tensor_type({2, 3}, DataType::float16());
  CHECK(t->dtype == DataType::float16());
  REQUIRE(t->shape.size() == 2);
  for (std::size_t d = 0; d < 2; ++d) {
    REQUIRE(t->shape[d].is<IntImmNode>());
    CHECK(t->shape[d].as<IntImmNode>()->dtype == DataType::int32());
  }
  CHECK(t->shape[0].as<IntImmNode>()->value == 2);
  CHECK(t->shape[1].as<IntImmNode>()->value == 3);
  CHECK(tensor_type({}, DataType::int32())->shape.empty());
}

TEST_CASE("make_const makes a literal of the given dtype") {
  for (DataType dtype : {DataType::float16(), DataType::float32(), DataType::float64()}) {
    CAPTURE(dtype.str());
    const PrimExpr c = make_const(dtype, 2.5);
    REQUIRE(c.is<FloatImmNode>());
    CHECK(c.as<FloatImmNode>()->dtype == dtype);
    CHECK(c.as<FloatImmNode>()->value == 2.5);
  }
  for (DataType dtype : {DataType::int8(), DataType::int16(), DataType::int32(), DataType::int64(),
                         DataType::uint8()}) {
    CAPTURE(dtype.str());
    const PrimExpr c = make_const(dtype, 3);
    REQUIRE(c.is<IntImmNode>());
    CHECK(c.as<IntImmNode>()->dtype == dtype);
    CHECK(c.as<IntImmNode>()->value == 3);
  }
  const PrimExpr zero = make_const(DataType::boolean(), 0);
  REQUIRE(zero.is<IntImmNode>());
  CHECK(zero.as<IntImmNode>()->dtype == DataType::boolean());
  CHECK(zero.as<IntImmNode>()->value == 0);
  CHECK(make_const(DataType::int64(), -4)->dynamic_type_key() == "ir.IntImm");
  CHECK(make_const(DataType::int64(), -4).as<IntImmNode>()->value == -4);
}

TEST_CASE("a boolean literal made by make_const is 0 or 1") {
  // Like `true`, and like a bool tensor element: any nonzero value is true.
  const PrimExpr t = make_const(DataType::boolean(), 2);
  REQUIRE(t.is<IntImmNode>());
  CHECK(t.as<IntImmNode>()->value == 1);
  CHECK(make_const(DataType::boolean(), 0.5).as<IntImmNode>()->value == 1);
}

TEST_CASE("dtype_of gives the scalar dtype of every kind of tensor-level expression") {
  const Var i = Var::make("i", DataType::int64());
  const Var x = Var::make("x", DataType::float32());
  const Var h = Var::make("h", DataType::float16());
  const Var a = Var::make("A", tensor_type({4}, DataType::uint8()));
  const Var c = Var::make("c", DataType::boolean());

  CHECK(dtype_of(IntImm::make(1, DataType::int8())) == DataType::int8());
  CHECK(dtype_of(FloatImm::make(1, DataType::float16())) == DataType::float16());
  CHECK(dtype_of(1) == DataType::int32());
  CHECK(dtype_of(1.0) == DataType::float64());
  CHECK(dtype_of(true) == DataType::boolean());
  CHECK(dtype_of(i) == DataType::int64());
  CHECK(dtype_of(x) == DataType::float32());
  CHECK(dtype_of(a) == DataType::uint8()); // a tensor variable: its element dtype
  CHECK(dtype_of(load(a, {i})) == DataType::uint8());
  CHECK(dtype_of(ctir::cast(DataType::int16(), x)) == DataType::int16());
  CHECK(dtype_of(-x) == DataType::float32());
  CHECK(dtype_of(-h) == DataType::float16());
  CHECK(dtype_of(ctir::select(c, h, h)) == DataType::float16());
  // Arithmetic: the dtype of the operands.
  CHECK(dtype_of(x + x) == DataType::float32());
  CHECK(dtype_of(x - x) == DataType::float32());
  CHECK(dtype_of(i * i) == DataType::int64());
  CHECK(dtype_of(i / i) == DataType::int64());
  CHECK(dtype_of(i % i) == DataType::int64());
  CHECK(dtype_of(ctir::min(h, h)) == DataType::float16());
  CHECK(dtype_of(ctir::max(i, i)) == DataType::int64());
  CHECK(dtype_of((x + x) * x) == DataType::float32());
  // Comparisons and logic: bool.
  for (const PrimExpr& e : {eq(x, x), ne(x, x), lt(i, i), le(i, i), gt(h, h), ge(h, h),
                            logical_and(c, c), logical_or(c, c), logical_not(c)}) {
    CAPTURE(e->dynamic_type_key());
    CHECK(dtype_of(e) == DataType::boolean());
  }
}

TEST_CASE("dtype_of a null expression is an error, not a crash") {
  const auto outcome = ctir_test::run_in_child([] { (void)dtype_of(PrimExpr()); });
  CHECK_MESSAGE(outcome.threw_error(), outcome.describe());
}

// ---------------------------------------------------------------------------
// Blocks and shape variables
// ---------------------------------------------------------------------------

TEST_CASE("seed 003's add_one builds in C++ with the tree the seed shows") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto B = Var::make("B", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  PrimFunc add_one = PrimFunc::make(
      "add_one", {A, B},
      For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f)));

  REQUIRE(add_one->body->seq.size() == 1);
  const auto* loop = add_one->body->seq[0].as<ForNode>();
  REQUIRE(loop != nullptr);
  CHECK(loop->var.same_as(i));
  CHECK(loop->begin.as<IntImmNode>()->value == 0);
  CHECK(loop->end.same_as(n));
  REQUIRE(loop->body->seq.size() == 1);
  const auto* store = loop->body->seq[0].as<TensorStoreNode>();
  REQUIRE(store != nullptr);
  CHECK(store->dest.same_as(B));
  const auto& add = as_binary<AddNode>(store->value);
  REQUIRE(add.a.is<TensorLoadNode>());
  CHECK(add.a.as<TensorLoadNode>()->source.same_as(A));
  CHECK(add.b.as<FloatImmNode>()->dtype == DataType::float32());
  CHECK(dtype_of(store->value) == DataType::float32());
  const std::vector<Var> shape = add_one->shape_vars();
  REQUIRE(shape.size() == 1);
  CHECK(shape[0].same_as(n));
}

TEST_CASE("For, PrimFunc and IfThenElse wrap a body that is not a SeqStmt in one") {
  const Var i = Var::make("i", DataType::int32());
  const Var t = Var::make("t", DataType::int32());
  const Stmt single = Bind::make(t, i * 2);

  const For loop = For::make(i, 0, 8, single);
  REQUIRE(loop->body->seq.size() == 1);
  CHECK(loop->body->seq[0].same_as(single));

  const PrimFunc f = PrimFunc::make("f", {}, single);
  REQUIRE(f->body->seq.size() == 1);
  CHECK(f->body->seq[0].same_as(single));

  const IfThenElse branch = IfThenElse::make(lt(i, 4), single, single);
  REQUIRE(branch->then_case->seq.size() == 1);
  CHECK(branch->then_case->seq[0].same_as(single));
  REQUIRE(branch->else_case.defined());
  REQUIRE(branch->else_case->seq.size() == 1);
  CHECK(branch->else_case->seq[0].same_as(single));
  CHECK_FALSE(IfThenElse::make(lt(i, 4), single)->else_case.defined());
}

TEST_CASE("For, PrimFunc and IfThenElse keep a SeqStmt body as it is") {
  const Var i = Var::make("i", DataType::int32());
  const Var t = Var::make("t", DataType::int32());
  const SeqStmt block = SeqStmt::make({Bind::make(t, i), Bind::make(t, i + 1)});
  CHECK(For::make(i, 0, 8, block)->body.same_as(block));
  CHECK(PrimFunc::make("f", {}, block)->body.same_as(block));
  const IfThenElse branch = IfThenElse::make(lt(i, 4), block, block);
  CHECK(branch->then_case.same_as(block));
  CHECK(branch->else_case.same_as(block));
  // A SeqStmt passed as a plain Stmt is still recognised.
  const Stmt as_stmt = block;
  CHECK(For::make(i, 0, 8, as_stmt)->body.same_as(block));
}

TEST_CASE("shape_vars lists the symbolic dimensions in order of first mention, once each") {
  const Var n = Var::make("n", DataType::int32());
  const Var m = Var::make("m", DataType::int32());
  const Var k = Var::make("k", DataType::int32());
  const Var a = Var::make("A", TensorType::make({n, m}, DataType::float32()));
  const Var b = Var::make("B", TensorType::make({m, 4, n}, DataType::float32()));
  const Var scalar = Var::make("s", DataType::int32());
  const Var untyped = Var::make("u");
  const Var c = Var::make("C", TensorType::make({n + 1, k}, DataType::float32()));
  const PrimFunc f = PrimFunc::make("f", {a, b, scalar, untyped, c}, SeqStmt::make({}));
  const std::vector<Var> shape = f->shape_vars();
  REQUIRE(shape.size() == 3);
  CHECK(shape[0].same_as(n));
  CHECK(shape[1].same_as(m));
  CHECK(shape[2].same_as(k));

  CHECK(PrimFunc::make("g", {}, SeqStmt::make({}))->shape_vars().empty());
  CHECK(PrimFunc::make("g", {scalar}, SeqStmt::make({}))->shape_vars().empty());
  // Two variables that share a name are still two shape variables.
  const Var n2 = Var::make("n", DataType::int32());
  const Var d = Var::make("D", TensorType::make({n2}, DataType::float32()));
  const std::vector<Var> two = PrimFunc::make("h", {a, d}, SeqStmt::make({}))->shape_vars();
  REQUIRE(two.size() == 3);
  CHECK(two[2].same_as(n2));
}
