// Tests of include/ctir/hooks/value_traits.hpp: equality, hashing and printing of plain values.
#include <ctir/hooks/value_traits.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

TEST_CASE("floats compare bitwise except that NaN equals NaN") {
  using traits = ctir::value_traits<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(traits::equal(nan, nan));
  CHECK(traits::equal(nan, -nan));
  CHECK(traits::hash(nan) == traits::hash(-nan));
  CHECK_FALSE(traits::equal(0.0, -0.0));
  CHECK(traits::equal(1.5, 1.5));
  CHECK_FALSE(traits::equal(1.5, 1.5000001));
}

TEST_CASE("floats print in the shortest form that reads back") {
  CHECK(ctir::print_value(1.0) == "1.0");
  CHECK(ctir::print_value(0.1) == "0.1");
  CHECK(ctir::print_value(1e-07) == "1e-07");
  CHECK(ctir::shortest_float(8.0f) == "8");
  CHECK(ctir::shortest_float(std::numeric_limits<float>::infinity()) == "inf");
  CHECK(ctir::shortest_float(-std::numeric_limits<float>::infinity()) == "-inf");
  CHECK(ctir::shortest_float(std::nan("")) == "nan");
}

TEST_CASE("integers, strings, vectors and optionals have value traits") {
  CHECK(ctir::print_value(std::int64_t{-3}) == "-3");
  CHECK(ctir::print_value(std::string("a\"b")) == "\"a\\\"b\"");
  CHECK(ctir::print_value(std::vector<std::int64_t>{3, 2}) == "[3, 2]");
  CHECK(ctir::print_value(std::optional<int>{}) == "none");
  using vec = ctir::value_traits<std::vector<int>>;
  CHECK(vec::equal({1, 2}, {1, 2}));
  CHECK_FALSE(vec::equal({1, 2}, {1, 2, 3}));
  CHECK(vec::hash({1, 2}) != vec::hash({2, 1}));
}

TEST_CASE("hashes are deterministic across runs") {
  CHECK(ctir::hash_bytes("ctir") == ctir::hash_bytes("ctir"));
  CHECK(ctir::hash_bytes("") == 14695981039346656037ULL);
  CHECK(ctir::hash_combine(1, 2) != ctir::hash_combine(2, 1));
}
