// Tests of type_str, shape_str and prim_expr_str: types as the text format writes them.
#include <ctir/ir/type_str.hpp>

#include <ctir/ir/builder.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ctir;

namespace {
TensorType tensor(std::vector<PrimExpr> shape, DataType dtype = DataType::float32()) {
  return TensorType::make(std::move(shape), dtype);
}
} // namespace

TEST_CASE("type_str writes a static tensor type as the text format does") {
  CHECK(type_str(tensor({2, 3})) == "Tensor[(2, 3), float32]");
  CHECK(type_str(tensor({10}, DataType::int64())) == "Tensor[(10), int64]");
  CHECK(type_str(tensor({})) == "Tensor[(), float32]");
  CHECK(type_str(tensor_type({4, 5, 6}, DataType::boolean())) == "Tensor[(4, 5, 6), bool]");
}

TEST_CASE("type_str writes variable dimensions as percent and the name hint") {
  auto n = Var::make("n", DataType::int32());
  CHECK(type_str(tensor({n, 4})) == "Tensor[(%n, 4), float32]");
  CHECK(type_str(tensor({n, n})) == "Tensor[(%n, %n), float32]");
  CHECK(type_str(tensor({Var::make("", DataType::int32())})) == "Tensor[(%_), float32]");
}

TEST_CASE("type_str writes dimension expressions in infix with only the needed parentheses") {
  auto n = Var::make("n", DataType::int32());
  auto m = Var::make("m", DataType::int32());
  auto k = Var::make("k", DataType::int32());
  CHECK(type_str(tensor({n * 2 + 1})) == "Tensor[(%n * 2 + 1), float32]");
  CHECK(type_str(tensor({(n + 1) * 2})) == "Tensor[((%n + 1) * 2), float32]");
  CHECK(prim_expr_str(n - m - k) == "%n - %m - %k");
  CHECK(prim_expr_str(n - (m - k)) == "%n - (%m - %k)");
  CHECK(prim_expr_str(n / (m * k)) == "%n / (%m * %k)");
  CHECK(prim_expr_str(n * m / k) == "%n * %m / %k");
  CHECK(prim_expr_str(n % 16) == "%n % 16");
  CHECK(prim_expr_str(min(n, 4) + max(m, k)) == "min(%n, 4) + max(%m, %k)");
  CHECK(prim_expr_str(-n) == "-%n");
  CHECK(prim_expr_str(-(n + 1)) == "-(%n + 1)");
  CHECK(prim_expr_str(-PrimExpr(-3)) == "-(-3)");
  CHECK(prim_expr_str(n - -3) == "%n - -3");
  CHECK(prim_expr_str(logical_and(lt(n, m), logical_not(eq(k, 0)))) == "%n < %m && !(%k == 0)");
  CHECK(prim_expr_str(logical_or(logical_and(lt(n, 1), lt(m, 1)), lt(k, 1))) ==
        "%n < 1 && %m < 1 || %k < 1");
  CHECK(prim_expr_str(logical_and(logical_or(lt(n, 1), lt(m, 1)), lt(k, 1))) ==
        "(%n < 1 || %m < 1) && %k < 1");
}

TEST_CASE("prim_expr_str writes literals, selects, casts and loads") {
  auto n = Var::make("n", DataType::int32());
  auto a = Var::make("A", tensor({n}));
  CHECK(prim_expr_str(IntImm::make(7, DataType::int64())) == "7");
  CHECK(prim_expr_str(PrimExpr(true)) == "true");
  CHECK(prim_expr_str(PrimExpr(2.5f)) == "2.5f");
  CHECK(prim_expr_str(PrimExpr(0.5)) == "0.5f64");
  CHECK(prim_expr_str(select(lt(n, 4), n, 4)) == "select(%n < 4, %n, 4)");
  CHECK(prim_expr_str(cast(DataType::float32(), n) * 2.0f) == "cast<float32>(%n) * 2f");
  CHECK(prim_expr_str(load(a, {n - 1})) == "%A[%n - 1]");
  CHECK(prim_expr_str(PrimExpr()) == "?");
}

TEST_CASE("shape_str writes parentheses without a trailing comma") {
  auto n = Var::make("n", DataType::int32());
  CHECK(shape_str({}) == "()");
  CHECK(shape_str({10}) == "(10)");
  CHECK(shape_str({n, 4}) == "(%n, 4)");
  CHECK(shape_str({PrimExpr(), 1}) == "(?, 1)");
}

TEST_CASE("type_str writes scalars, tuples and function types") {
  CHECK(type_str(PrimType::make(DataType::int32())) == "int32");
  CHECK(type_str(PrimType::make(DataType::uint8())) == "uint8");
  const Type t1 = tensor({2});
  const Type t2 = PrimType::make(DataType::boolean());
  CHECK(type_str(TupleType::make({t1, t2})) == "Tuple[Tensor[(2), float32], bool]");
  CHECK(type_str(TupleType::make({})) == "Tuple[]");
  CHECK(type_str(TupleType::make({TupleType::make({t2}), t1})) ==
        "Tuple[Tuple[bool], Tensor[(2), float32]]");
  CHECK(type_str(FuncType::make({t1, t2}, t1)) ==
        "fn (Tensor[(2), float32], bool) -> Tensor[(2), float32]");
  CHECK(type_str(FuncType::make({}, TupleType::make({}))) == "fn () -> Tuple[]");
}

TEST_CASE("type_str writes a missing type as a question mark") {
  CHECK(type_str(Type()) == "?");
  CHECK(type_str(TupleType::make({Type(), PrimType::make(DataType::int32())})) ==
        "Tuple[?, int32]");
  CHECK(type_str(FuncType::make({Type()}, Type())) == "fn (?) -> ?");
}

TEST_CASE("type_str cuts very deep types and expressions short instead of overflowing") {
  auto n = Var::make("n", DataType::int32());
  PrimExpr deep = n;
  for (int i = 0; i < 100000; ++i) {
    deep = deep + 1;
  }
  const std::string text = prim_expr_str(deep);
  CHECK(text.find("...") != std::string::npos);
  CHECK(text.size() < 10000);

  Type nested = PrimType::make(DataType::int32());
  for (int i = 0; i < 100000; ++i) {
    nested = TupleType::make({nested});
  }
  const std::string type_text = type_str(nested);
  CHECK(type_text.rfind("Tuple[Tuple[", 0) == 0);
  CHECK(type_text.find("...") != std::string::npos);
}
