// Tests of Value: kinds, copy on write, types, equality, printing, nesting limit.
#include <ctir/eval/value.hpp> // first: the header must compile on its own

#include <ctir/ir/builder.hpp>
#include <ctir/ir/type_str.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::eval;

TEST_CASE("a value is a tensor, a tuple, a closure or a scalar, and says which") {
  const Value tensor(TensorData::from_doubles(DataType::float32(), {2}, {1, 2}));
  CHECK(tensor.is_tensor());
  CHECK(Value().is_tuple());
  CHECK(Value().fields().empty());
  CHECK(Value(Scalar::boolean(true)).is_scalar());
  auto a = Var::make("a", tensor_type({}, DataType::float32()));
  const Value closure = Value::closure(Function::make({a}, a), {});
  CHECK(closure.is_closure());
  CHECK_THROWS_WITH_AS((void)tensor.fields(), "ctir: expected a tuple value, but got a tensor",
                       Error);
}

TEST_CASE("a copy shares the tensor until one side writes") {
  Value a(TensorData::from_doubles(DataType::float32(), {2}, {1, 2}));
  const Value b = a;
  CHECK(&a.as_tensor() == &b.as_tensor());
  a.mutable_tensor().set(0, 9);
  CHECK(&a.as_tensor() != &b.as_tensor());
  CHECK(a.as_tensor().get(0) == 9);
  CHECK(b.as_tensor().get(0) == 1);
  Value unique(TensorData(DataType::int32(), {1}));
  const TensorData* before = &unique.as_tensor();
  unique.mutable_tensor().set_int(0, 3);
  CHECK(&unique.as_tensor() == before);
}

TEST_CASE("a value's type has concrete dimensions") {
  const Value t(TensorData(DataType::float32(), {2, 3}));
  CHECK(type_str(t.type()) == "Tensor[(2, 3), float32]");
  CHECK(type_str(Value(Scalar::make_int(DataType::int64(), 1)).type()) == "int64");
  CHECK(type_str(Value::tuple({t, Value()}).type()) == "Tuple[Tensor[(2, 3), float32], Tuple[]]");
}

TEST_CASE("values compare by contents") {
  const Value a(TensorData::from_doubles(DataType::float32(), {2}, {1, 2}));
  const Value b(TensorData::from_doubles(DataType::float32(), {2}, {1, 2}));
  const Value c(TensorData::from_doubles(DataType::float32(), {2}, {1, 3}));
  CHECK(a == b);
  CHECK_FALSE(a == c);
  CHECK(Value::tuple({a, c}) == Value::tuple({b, c}));
  CHECK_FALSE(Value::tuple({a}) == a);
  CHECK(Value(Scalar::make_int(DataType::int32(), 1)) ==
        Value(Scalar::make_int(DataType::int32(), 1)));
  CHECK_FALSE(Value(Scalar::make_int(DataType::int32(), 1)) ==
              Value(Scalar::make_int(DataType::int64(), 1)));
}

TEST_CASE("values print their type and elements") {
  const Value t(TensorData::from_doubles(DataType::float32(), {2, 2}, {1, 2.5, 3, 4}));
  CHECK(to_string(t) == "Tensor[(2, 2), float32] [[1f, 2.5f], [3f, 4f]]");
  CHECK(to_string(Value::tuple({Value(Scalar::make_int(DataType::int32(), 3))})) == "(3,)");
  CHECK(to_string(Value::tuple({Value(Scalar::boolean(true)), Value()})) == "(true, ())");
  CHECK(to_string(Value(TensorData::scalar(DataType::int64(), 7))) == "Tensor[(), int64] 7i64");
}

TEST_CASE("values nest at most max_depth levels") {
  Value v;
  for (std::uint32_t k = 1; k < Value::max_depth; ++k) {
    v = Value::tuple({v});
  }
  CHECK(v.depth() == Value::max_depth);
  CHECK_THROWS_AS(Value::tuple({v}), Error);
}
