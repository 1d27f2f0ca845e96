// Tests of the interpreter's scalar semantics: wrapping, floor division, casts, IEEE floats.
#include <ctir/eval/scalar.hpp> // first: the header must compile on its own

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using namespace ctir;
using namespace ctir::eval;

namespace {

Scalar i32(std::int64_t v) { return Scalar::make_int(DataType::int32(), v); }
Scalar i64(std::int64_t v) { return Scalar::make_int(DataType::int64(), v); }
Scalar f32(double v) { return Scalar::make_float(DataType::float32(), v); }
Scalar f64(double v) { return Scalar::make_float(DataType::float64(), v); }

} // namespace

TEST_CASE("make_int wraps to the width of the dtype like two's complement") {
  CHECK(i32(2147483648LL).i == -2147483648LL);
  CHECK(Scalar::make_int(DataType::int8(), 200).i == -56);
  CHECK(Scalar::make_int(DataType::int16(), 65535).i == -1);
  CHECK(Scalar::make_int(DataType::uint8(), -1).i == 255);
  CHECK(Scalar::make_int(DataType::boolean(), 7).i == 1);
  CHECK(Scalar::make_int(DataType::float32(), 16777217).f == 16777216.0);
}

TEST_CASE("integer arithmetic wraps on overflow") {
  CHECK(binary(BinaryOp::add, i32(2147483647), i32(1)).i == -2147483648LL);
  CHECK(binary(BinaryOp::mul, i32(65536), i32(65536)).i == 0);
  const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  CHECK(binary(BinaryOp::sub, i64(min64), i64(1)).i == std::numeric_limits<std::int64_t>::max());
  CHECK(negate(i64(min64)).i == min64);
  CHECK(binary(BinaryOp::div, i64(min64), i64(-1)).i == min64);
  CHECK(binary(BinaryOp::mod, i64(min64), i64(-1)).i == 0);
}

TEST_CASE("integer arithmetic at the extremes of every width wraps to that width") {
  const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  const std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
  CHECK(binary(BinaryOp::add, i64(max64), i64(1)).i == min64);
  CHECK(binary(BinaryOp::add, i64(min64), i64(min64)).i == 0);
  CHECK(binary(BinaryOp::mul, i64(min64), i64(-1)).i == min64);
  CHECK(binary(BinaryOp::mul, i64(max64), i64(max64)).i == 1);
  CHECK(binary(BinaryOp::sub, i64(0), i64(min64)).i == min64);
  CHECK(binary(BinaryOp::div, i64(min64), i64(2)).i == min64 / 2);
  CHECK(binary(BinaryOp::div, i64(max64), i64(min64)).i == -1);
  CHECK(binary(BinaryOp::mod, i64(max64), i64(min64)).i == -1);
  CHECK(binary(BinaryOp::min, i64(min64), i64(max64)).i == min64);
  const auto i8 = [](std::int64_t v) { return Scalar::make_int(DataType::int8(), v); };
  const auto i16 = [](std::int64_t v) { return Scalar::make_int(DataType::int16(), v); };
  const auto u8 = [](std::int64_t v) { return Scalar::make_int(DataType::uint8(), v); };
  CHECK(binary(BinaryOp::add, i8(127), i8(1)).i == -128);
  CHECK(binary(BinaryOp::div, i8(-128), i8(-1)).i == -128);
  CHECK(negate(i8(-128)).i == -128);
  CHECK(binary(BinaryOp::mul, i16(32767), i16(2)).i == -2);
  CHECK(binary(BinaryOp::sub, u8(0), u8(1)).i == 255);
  CHECK(binary(BinaryOp::mul, u8(255), u8(255)).i == 1);
  CHECK(binary(BinaryOp::div, i32(-2147483647 - 1), i32(-1)).i == -2147483648LL);
  CHECK(negate(i32(-2147483647 - 1)).i == -2147483648LL);
  // The right operand wraps to the left's width first: 256 is 0 in uint8.
  CHECK_THROWS_WITH_AS(binary(BinaryOp::div, u8(1), i32(256)),
                       "integer division by zero (1u8 / 256)", Error);
}

TEST_CASE("integer division and modulo floor") {
  CHECK(binary(BinaryOp::div, i32(-7), i32(2)).i == -4);
  CHECK(binary(BinaryOp::mod, i32(-7), i32(2)).i == 1);
  CHECK(binary(BinaryOp::div, i32(7), i32(-2)).i == -4);
  CHECK(binary(BinaryOp::mod, i32(7), i32(-2)).i == -1);
  CHECK(binary(BinaryOp::div, i32(-8), i32(2)).i == -4);
  CHECK(binary(BinaryOp::mod, i32(6), i32(3)).i == 0);
}

TEST_CASE("integer division or modulo by zero throws; float division by zero is IEEE") {
  CHECK_THROWS_WITH_AS(binary(BinaryOp::div, i32(1), i32(0)), "integer division by zero (1 / 0)",
                       Error);
  CHECK_THROWS_AS(binary(BinaryOp::mod, i32(1), i32(0)), Error);
  CHECK(std::isinf(binary(BinaryOp::div, f32(1), f32(0)).f));
  CHECK(std::isnan(binary(BinaryOp::div, f32(0), f32(0)).f));
  CHECK(std::isnan(binary(BinaryOp::mod, f32(1), f32(0)).f));
}

TEST_CASE("float modulo floors and min and max propagate NaN") {
  CHECK(binary(BinaryOp::mod, f32(-1), f32(4)).f == 3);
  CHECK(binary(BinaryOp::mod, f32(5.5), f32(-2)).f == -0.5);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(binary(BinaryOp::min, f32(nan), f32(1)).f));
  CHECK(std::isnan(binary(BinaryOp::max, f32(1), f32(nan)).f));
  CHECK(binary(BinaryOp::max, f32(1), f32(2)).f == 2);
}

TEST_CASE("float32 results are rounded once, and overflow to infinity") {
  CHECK(binary(BinaryOp::add, f32(1), f32(1e-8)).f == 1.0);
  CHECK(f32(0.1).f == static_cast<double>(0.1F));
  CHECK(std::isinf(binary(BinaryOp::mul, f32(3e38), f32(10)).f));
  CHECK(f32(1e300).f == std::numeric_limits<double>::infinity());
  CHECK(Scalar::make_float(DataType::float16(), 1.0 / 3).f == 0.333251953125);
}

TEST_CASE("comparisons give bool and NaN is unordered") {
  CHECK(binary(BinaryOp::lt, i32(-1), i32(0)) == Scalar::boolean(true));
  CHECK(binary(BinaryOp::ge, i32(-1), i32(0)) == Scalar::boolean(false));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(binary(BinaryOp::eq, f32(nan), f32(nan)) == Scalar::boolean(false));
  CHECK(binary(BinaryOp::ne, f32(nan), f32(nan)) == Scalar::boolean(true));
  CHECK(binary(BinaryOp::logical_and, i32(2), Scalar::boolean(true)) == Scalar::boolean(true));
  CHECK(binary(BinaryOp::logical_or, i32(0), f32(0)).dtype == DataType::boolean());
  CHECK(logical_not(i32(0)) == Scalar::boolean(true));
}

TEST_CASE("mixing a float and an integer operand is an error; integer widths follow the left") {
  CHECK_THROWS_WITH_AS(binary(BinaryOp::add, i32(1), f32(1)),
                       "operands of '+' have dtypes int32 and float32; one is a float and the "
                       "other not (insert a cast)",
                       Error);
  const Scalar mixed = binary(BinaryOp::add, Scalar::make_int(DataType::int8(), 100), i32(100));
  CHECK(mixed.dtype == DataType::int8());
  CHECK(mixed.i == -56);
  CHECK(binary(BinaryOp::add, f32(1), f64(0.5)).dtype == DataType::float32());
}

TEST_CASE("casts truncate toward zero and saturate float-to-integer conversions") {
  CHECK(cast(DataType::int32(), f32(-2.75)).i == -2);
  CHECK(cast(DataType::int8(), f32(300)).i == 127);
  CHECK(cast(DataType::int8(), f32(-300)).i == -128);
  CHECK(cast(DataType::uint8(), f32(-5)).i == 0);
  CHECK(cast(DataType::int32(), f32(std::nan(""))).i == 0);
  CHECK(cast(DataType::int64(), f64(1e300)).i == std::numeric_limits<std::int64_t>::max());
  CHECK(cast(DataType::int8(), i32(300)).i == 44);
  CHECK(cast(DataType::boolean(), f32(0.5)).i == 1);
  CHECK(cast(DataType::float32(), i64(16777217)).f == 16777216.0);
}

TEST_CASE("elements read and write through their dtype") {
  TensorData tensor(DataType::int8(), {2});
  write_element(tensor, 0, i32(300));
  CHECK(read_element(tensor, 0) == Scalar::make_int(DataType::int8(), 44));
  const TensorData scalar = to_tensor(f32(1.5));
  CHECK(scalar.ndim() == 0);
  CHECK(scalar.get(0) == 1.5);
}

TEST_CASE("scalars print as literals of the text format") {
  CHECK(to_string(i32(3)) == "3");
  CHECK(to_string(i64(-3)) == "-3i64");
  CHECK(to_string(f32(2.5)) == "2.5f");
  CHECK(to_string(Scalar::boolean(true)) == "true");
  CHECK(symbol_of(BinaryOp::logical_or) == "||");
}
