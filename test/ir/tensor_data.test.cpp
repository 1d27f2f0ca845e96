// Tests of ctir/ir/tensor_data.hpp: elements, equality, hashing and printing of tensors.
#include <ctir/core/error.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <doctest/doctest.h>
#include <run_in_child.hpp>

#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <vector>

namespace {

using ctir::DataType;
using ctir::TensorData;
using traits = ctir::value_traits<TensorData>;

const double nan_value = std::numeric_limits<double>::quiet_NaN();
const double inf_value = std::numeric_limits<double>::infinity();

std::string printed(const TensorData& data) { return ctir::print_value(data); }

/// Values given to a dtype and what reading them back must give.
struct Conversion {
  DataType dtype;
  std::vector<double> given;
  std::vector<double> expected;
  std::size_t element_size;
};

std::vector<Conversion> conversions() {
  return {
      {DataType::boolean(), {0, 1, 2.5, -1, 0.25}, {0, 1, 1, 1, 1}, 1},
      {DataType::int8(), {0, 1, -1, 127, -128, 2.9, -2.9}, {0, 1, -1, 127, -128, 2, -2}, 1},
      {DataType::int16(), {32767, -32768, 1000, -7.5}, {32767, -32768, 1000, -7}, 2},
      {DataType::int32(),
       {2147483647.0, -2147483648.0, 12345, 0.99},
       {2147483647.0, -2147483648.0, 12345, 0},
       4},
      {DataType::int64(),
       {9007199254740992.0, -9007199254740992.0, 42, -1.5},
       {9007199254740992.0, -9007199254740992.0, 42, -1},
       8},
      {DataType::uint8(), {0, 255, 128, 7.9}, {0, 255, 128, 7}, 1},
      {DataType::float16(),
       {0, 1, -2, 0.5, 65504, 1.0 / 3.0, std::ldexp(1.0, -14), std::ldexp(1.0, -24), 1e-7, 70000,
        -70000},
       {0, 1, -2, 0.5, 65504, 0.333251953125, std::ldexp(1.0, -14), std::ldexp(1.0, -24),
        std::ldexp(2.0, -24), inf_value, -inf_value},
       2},
      {DataType::float32(),
       {0.1, 1e38, -1.5, 16777217.0},
       {static_cast<double>(0.1F), static_cast<double>(1e38F), -1.5, 16777216.0},
       4},
      {DataType::float64(), {0.1, 1e300, -1.5, 16777217.0}, {0.1, 1e300, -1.5, 16777217.0}, 8},
  };
}

bool consistent(const TensorData& data) {
  return data.bytes().size() == data.size() * data.element_size();
}

} // namespace

TEST_CASE("from_doubles converts values to every dtype and get reads them back") {
  for (const Conversion& c : conversions()) {
    CAPTURE(c.dtype.str());
    const auto n = static_cast<std::int64_t>(c.given.size());
    const TensorData data = TensorData::from_doubles(c.dtype, {n}, c.given);
    CHECK(data.dtype() == c.dtype);
    CHECK(data.element_size() == c.element_size);
    CHECK(data.bytes().size() == c.given.size() * c.element_size);
    for (std::size_t i = 0; i < c.given.size(); ++i) {
      CAPTURE(i);
      CHECK(data.get(i) == c.expected[i]);
    }
  }
}

TEST_CASE("set overwrites one element with the value converted to the dtype") {
  for (const Conversion& c : conversions()) {
    CAPTURE(c.dtype.str());
    const auto n = static_cast<std::int64_t>(c.given.size());
    TensorData data(c.dtype, {n});
    for (std::size_t i = 0; i < c.given.size(); ++i) {
      CHECK(data.get(i) == 0.0); // a new tensor is zero-filled
    }
    for (std::size_t i = 0; i < c.given.size(); ++i) {
      data.set(i, c.given[i]);
    }
    for (std::size_t i = 0; i < c.given.size(); ++i) {
      CAPTURE(i);
      CHECK(data.get(i) == c.expected[i]);
    }
    // Only the element that is set changes.
    data.set(0, 1.0);
    CHECK(data.get(0) == 1.0);
    for (std::size_t i = 1; i < c.given.size(); ++i) {
      CHECK(data.get(i) == c.expected[i]);
    }
  }
}

TEST_CASE("float16 rounds to the nearest half, subnormals included") {
  const auto half = [](double value) {
    return TensorData::from_doubles(DataType::float16(), {1}, {value}).get(0);
  };
  const double tiny = std::ldexp(1.0, -24); // the smallest subnormal half
  CHECK(half(tiny) == tiny);
  CHECK(half(0.5 * tiny) == 0.0);      // a tie rounds to even: 0
  CHECK(half(1.5 * tiny) == 2 * tiny); // a tie rounds to even: 2
  CHECK(half(0.75 * tiny) == tiny);    // nearer to the smallest subnormal than to 0
  CHECK(half(0.6 * tiny) == tiny);
  CHECK(half(0.4 * tiny) == 0.0);
  CHECK(half(1.0 + std::ldexp(1.0, -11)) == 1.0); // a tie between 1 and 1 + 2^-10 rounds to even
  CHECK(half(65519.0) == 65504.0);
  CHECK(std::isinf(half(65520.0)));
  CHECK(std::isnan(half(nan_value)));
  CHECK(std::signbit(half(-0.0)));
}

TEST_CASE("get_int and set_int are exact for 64-bit integers") {
  TensorData data(DataType::int64(), {3});
  const std::int64_t big = (std::int64_t{1} << 53) + 1; // not representable as a double
  data.set_int(0, big);
  data.set_int(1, std::numeric_limits<std::int64_t>::min());
  data.set_int(2, std::numeric_limits<std::int64_t>::max());
  CHECK(data.get_int(0) == big);
  CHECK(data.get_int(1) == std::numeric_limits<std::int64_t>::min());
  CHECK(data.get_int(2) == std::numeric_limits<std::int64_t>::max());
}

TEST_CASE("get_int and set_int convert for the other dtypes") {
  TensorData u8(DataType::uint8(), {1});
  u8.set_int(0, 255);
  CHECK(u8.get_int(0) == 255);
  CHECK(u8.get(0) == 255.0);

  TensorData i8(DataType::int8(), {1});
  i8.set_int(0, -5);
  CHECK(i8.get_int(0) == -5);

  TensorData flag(DataType::boolean(), {2});
  flag.set_int(0, 7);
  CHECK(flag.get_int(0) == 1);
  CHECK(flag.get_int(1) == 0);

  TensorData f(DataType::float32(), {1});
  f.set_int(0, 3);
  CHECK(f.get(0) == 3.0);
  f.set(0, -2.75);
  CHECK(f.get_int(0) == -2);
}

TEST_CASE("shape, rank and element count of a tensor") {
  const TensorData matrix(DataType::float32(), {2, 3});
  CHECK(matrix.shape() == std::vector<std::int64_t>{2, 3});
  CHECK(matrix.ndim() == 2);
  CHECK(matrix.size() == 6);
  CHECK(consistent(matrix));

  const TensorData scalar = TensorData::scalar(DataType::int64(), 7);
  CHECK(scalar.ndim() == 0);
  CHECK(scalar.size() == 1);
  CHECK(scalar.get_int(0) == 7);
  CHECK(consistent(scalar));

  const TensorData empty(DataType::int32(), {2, 0, 3});
  CHECK(empty.ndim() == 3);
  CHECK(empty.size() == 0);
  CHECK(empty.bytes().empty());

  const TensorData cube(DataType::float64(), {2, 3, 4});
  CHECK(cube.size() == 24);
  CHECK(cube.bytes().size() == 24 * 8);
}

TEST_CASE("a default TensorData is a well-formed tensor") {
  const TensorData data;
  CHECK(data.dtype() == DataType::float32());
  // Its element count and its storage must agree, or reading, comparing, hashing or
  // printing it (a default ConstantNode holds one) reads past its storage.
  REQUIRE(consistent(data));
  CHECK(data == TensorData());
  CHECK(traits::hash(data) == traits::hash(TensorData()));
}

TEST_CASE("from_doubles with the wrong number of values is an error that gives both counts") {
  CHECK_THROWS_AS(TensorData::from_doubles(DataType::float32(), {2, 3}, {1, 2, 3, 4, 5}),
                  ctir::Error);
  std::string message;
  try {
    (void)TensorData::from_doubles(DataType::float32(), {2, 3}, {1, 2, 3, 4, 5});
  } catch (const std::exception& error) {
    message = error.what();
  }
  CHECK(message.find('6') != std::string::npos);
  CHECK(message.find('5') != std::string::npos);
  CHECK_THROWS(TensorData::from_doubles(DataType::int32(), {}, {})); // a scalar needs one value
}

TEST_CASE("a negative dimension is an error") {
  CHECK_THROWS_AS(TensorData(DataType::int32(), {2, -1}), ctir::Error);
  CHECK_THROWS_AS(TensorData::from_doubles(DataType::int32(), {-3}, {}), ctir::Error);
}

TEST_CASE("tensors are equal when dtype, shape and elements are equal") {
  const auto a = TensorData::from_doubles(DataType::int32(), {2, 2}, {1, 2, 3, 4});
  CHECK(a == TensorData::from_doubles(DataType::int32(), {2, 2}, {1, 2, 3, 4}));
  CHECK_FALSE(a == TensorData::from_doubles(DataType::int32(), {2, 2}, {1, 2, 3, 5}));
  CHECK_FALSE(a == TensorData::from_doubles(DataType::int32(), {4}, {1, 2, 3, 4}));
  CHECK_FALSE(a == TensorData::from_doubles(DataType::int64(), {2, 2}, {1, 2, 3, 4}));
  CHECK_FALSE(a == TensorData::from_doubles(DataType::float32(), {2, 2}, {1, 2, 3, 4}));
  CHECK(TensorData(DataType::int8(), {0}) == TensorData(DataType::int8(), {0}));
  CHECK_FALSE(TensorData(DataType::int8(), {0}) == TensorData(DataType::int8(), {0, 0}));
}

TEST_CASE("float tensors: NaN equals NaN and -0.0 differs from 0.0") {
  for (DataType dtype : {DataType::float16(), DataType::float32(), DataType::float64()}) {
    CAPTURE(dtype.str());
    const auto with_nan = TensorData::from_doubles(dtype, {2}, {1.0, nan_value});
    CHECK(with_nan == with_nan);
    CHECK(with_nan == TensorData::from_doubles(dtype, {2}, {1.0, -nan_value}));
    CHECK_FALSE(with_nan == TensorData::from_doubles(dtype, {2}, {1.0, 0.0}));
    CHECK_FALSE(with_nan == TensorData::from_doubles(dtype, {2}, {nan_value, nan_value}));

    const auto zero = TensorData::from_doubles(dtype, {1}, {0.0});
    const auto negative_zero = TensorData::from_doubles(dtype, {1}, {-0.0});
    CHECK(zero.get(0) == negative_zero.get(0)); // numerically equal ...
    CHECK_FALSE(zero == negative_zero);         // ... but different values
    CHECK(traits::equal(with_nan, with_nan));
    CHECK_FALSE(traits::equal(zero, negative_zero));
  }
}

TEST_CASE("value_traits of TensorData: equal tensors hash equal") {
  std::vector<TensorData> samples;
  for (DataType dtype : {DataType::boolean(), DataType::int8(), DataType::int16(),
                         DataType::int32(), DataType::int64(), DataType::uint8(),
                         DataType::float16(), DataType::float32(), DataType::float64()}) {
    samples.push_back(TensorData::from_doubles(dtype, {2, 2}, {0, 1, 2, 3}));
    samples.push_back(TensorData::from_doubles(dtype, {4}, {0, 1, 2, 3}));
    samples.push_back(TensorData::from_doubles(dtype, {4}, {0, 1, 2, 4}));
    samples.push_back(TensorData::scalar(dtype, 0));
    samples.push_back(TensorData(dtype, {0}));
    if (dtype.is_float()) {
      samples.push_back(TensorData::from_doubles(dtype, {2}, {nan_value, -0.0}));
      samples.push_back(TensorData::from_doubles(dtype, {2}, {-nan_value, -0.0}));
      samples.push_back(TensorData::from_doubles(dtype, {2}, {std::nan("7"), 0.0}));
      samples.push_back(TensorData::scalar(dtype, -0.0));
    }
  }
  std::size_t equal_pairs = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    CHECK(traits::equal(samples[i], samples[i]));
    for (std::size_t j = 0; j < samples.size(); ++j) {
      if (traits::equal(samples[i], samples[j])) {
        CAPTURE(i);
        CAPTURE(j);
        CHECK(traits::hash(samples[i]) == traits::hash(samples[j]));
        equal_pairs += i != j ? 1 : 0;
      }
    }
  }
  CHECK(equal_pairs > 0); // the NaN variants are equal to each other
  // A different shape or dtype over the same element values hashes differently.
  CHECK(traits::hash(samples[0]) != traits::hash(samples[1]));
  CHECK(traits::hash(TensorData::scalar(DataType::int32(), 1)) !=
        traits::hash(TensorData::scalar(DataType::int64(), 1)));
}

TEST_CASE("tensors print as nested brackets of literals") {
  CHECK(printed(TensorData::from_doubles(DataType::float32(), {2, 2}, {1, 2, 3, 4})) ==
        "[[1f, 2f], [3f, 4f]]");
  CHECK(printed(TensorData::from_doubles(DataType::float32(), {3}, {0.5, -2, 8})) ==
        "[0.5f, -2f, 8f]");
  CHECK(printed(TensorData::from_doubles(DataType::int32(), {2, 1, 2}, {1, 2, 3, 4})) ==
        "[[[1, 2]], [[3, 4]]]");
  CHECK(printed(TensorData::from_doubles(DataType::int64(), {2}, {1, -2})) == "[1i64, -2i64]");
  CHECK(printed(TensorData::from_doubles(DataType::int8(), {1}, {-5})) == "[-5i8]");
  CHECK(printed(TensorData::from_doubles(DataType::int16(), {1}, {300})) == "[300i16]");
  CHECK(printed(TensorData::from_doubles(DataType::uint8(), {1}, {200})) == "[200u8]");
  CHECK(printed(TensorData::from_doubles(DataType::boolean(), {2}, {1, 0})) == "[true, false]");
  CHECK(printed(TensorData::from_doubles(DataType::float64(), {1}, {2.5})) == "[2.5f64]");
  CHECK(printed(TensorData::from_doubles(DataType::float16(), {1}, {0.5})) == "[0.5f16]");
  CHECK(printed(TensorData::scalar(DataType::float32(), 3)) == "3f");
  CHECK(printed(TensorData::scalar(DataType::int32(), -3)) == "-3");
  CHECK(printed(TensorData(DataType::float32(), {0})) == "[]");
  CHECK(printed(TensorData(DataType::float32(), {2, 0})) == "[[], []]");
}

TEST_CASE("non-finite and huge float elements print without undefined behaviour") {
  // Run apart: converting NaN or 1e300 to an integer is undefined behaviour, which a
  // sanitizer turns into an abort.
  const auto outcome = ctir_test::run_in_child([] {
    return printed(TensorData::from_doubles(DataType::float32(), {3},
                                            {nan_value, inf_value, -inf_value})) +
           " " + printed(TensorData::scalar(DataType::float64(), 1e300));
  });
  CHECK_MESSAGE(outcome.kind == ctir_test::ChildOutcome::Kind::returned, outcome.describe());
  CHECK(outcome.message == "[nanf, inff, -inff] 1e+300f64");
}

TEST_CASE("float32 elements print in the shortest form that reads back as that float32") {
  // The text format's contract: `0.5f`, `1e-07f`; a float32 element must not print the
  // digits of its widened double (0.10000000149011612f).
  CHECK(printed(TensorData::from_doubles(DataType::float32(), {2}, {0.1, 1e-7})) ==
        "[0.1f, 1e-07f]");
  CHECK(printed(TensorData::scalar(DataType::float32(), 3.14159)) == "3.14159f");
}

TEST_CASE("float16 elements print in the shortest form that reads back as that float16") {
  // 1/3 is 0.333251953125 in float16; 0.3333 is the shortest decimal that rounds to it.
  CHECK(printed(TensorData::scalar(DataType::float16(), 1.0 / 3.0)) == "0.3333f16");
}
