// Tests of ctir/ir/dtype.hpp: names, parsing, predicates and value traits of DataType.
#include <ctir/ir/dtype.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using ctir::DataType;

/// One row per dtype of the text format, with what each predicate must say.
struct DtypeRow {
  DataType dtype;
  std::string_view name;
  DataType::Code code;
  std::uint8_t bits;
  bool is_int;
  bool is_uint;
  bool is_float;
  bool is_bool;
};

constexpr std::array<DtypeRow, 9> dtype_table{{
    {DataType::boolean(), "bool", DataType::Code::bool_, 1, false, false, false, true},
    {DataType::int8(), "int8", DataType::Code::int_, 8, true, false, false, false},
    {DataType::int16(), "int16", DataType::Code::int_, 16, true, false, false, false},
    {DataType::int32(), "int32", DataType::Code::int_, 32, true, false, false, false},
    {DataType::int64(), "int64", DataType::Code::int_, 64, true, false, false, false},
    {DataType::uint8(), "uint8", DataType::Code::uint, 8, false, true, false, false},
    {DataType::float16(), "float16", DataType::Code::float_, 16, false, false, true, false},
    {DataType::float32(), "float32", DataType::Code::float_, 32, false, false, true, false},
    {DataType::float64(), "float64", DataType::Code::float_, 64, false, false, true, false},
}};

// The factories and predicates are usable in constant expressions.
static_assert(DataType::float32().is_float() && DataType::float32().bits == 32);
static_assert(DataType::uint8().is_integer() && !DataType::uint8().is_int());
static_assert(DataType::boolean() != DataType::uint8());
static_assert(DataType{} == DataType::int32(), "a default DataType is int32");

} // namespace

TEST_CASE("every dtype of the text format prints its name") {
  for (const DtypeRow& row : dtype_table) {
    CAPTURE(row.name);
    CHECK(row.dtype.str() == row.name);
  }
}

TEST_CASE("every dtype reads back from its name") {
  for (const DtypeRow& row : dtype_table) {
    CAPTURE(row.name);
    const auto parsed = DataType::from_string(row.dtype.str());
    REQUIRE(parsed.has_value());
    CHECK(*parsed == row.dtype);
    CHECK(parsed->code == row.code);
    CHECK(parsed->bits == row.bits);
  }
}

TEST_CASE("from_string rejects names that are not dtypes") {
  for (std::string_view name : {"", "int", "float", "Int32", "int32 ", " int32", "int33", "uint16",
                                "bfloat16", "float32x4", "boolean", "f32", "i32"}) {
    CAPTURE(name);
    CHECK_FALSE(DataType::from_string(name).has_value());
  }
}

TEST_CASE("dtype predicates say what kind of scalar a dtype is") {
  for (const DtypeRow& row : dtype_table) {
    CAPTURE(row.name);
    CHECK(row.dtype.code == row.code);
    CHECK(row.dtype.bits == row.bits);
    CHECK(row.dtype.is_int() == row.is_int);
    CHECK(row.dtype.is_uint() == row.is_uint);
    CHECK(row.dtype.is_integer() == (row.is_int || row.is_uint));
    CHECK(row.dtype.is_float() == row.is_float);
    CHECK(row.dtype.is_bool() == row.is_bool);
    // Exactly one kind.
    CHECK(int(row.dtype.is_integer()) + int(row.dtype.is_float()) + int(row.dtype.is_bool()) == 1);
  }
}

TEST_CASE("dtypes are equal exactly when code and bits are equal") {
  for (const DtypeRow& a : dtype_table) {
    for (const DtypeRow& b : dtype_table) {
      CAPTURE(a.name);
      CAPTURE(b.name);
      CHECK((a.dtype == b.dtype) == (a.name == b.name));
      CHECK((a.dtype != b.dtype) == (a.name != b.name));
    }
  }
  CHECK(DataType{DataType::Code::int_, 32} == DataType::int32());
  CHECK(DataType{DataType::Code::int_, 16} != DataType::int32());
  CHECK(DataType{DataType::Code::uint, 32} != DataType::int32());
}

TEST_CASE("value_traits of DataType compare, hash and print like the dtype") {
  using traits = ctir::value_traits<DataType>;
  for (const DtypeRow& a : dtype_table) {
    CAPTURE(a.name);
    CHECK(traits::equal(a.dtype, a.dtype));
    CHECK(traits::hash(a.dtype) == traits::hash(DataType{a.code, a.bits}));
    CHECK(ctir::print_value(a.dtype) == a.name);
    for (const DtypeRow& b : dtype_table) {
      if (a.name != b.name) {
        CAPTURE(b.name);
        CHECK_FALSE(traits::equal(a.dtype, b.dtype));
        // Not required by the laws, but nine fixed dtypes should never collide.
        CHECK(traits::hash(a.dtype) != traits::hash(b.dtype));
      }
    }
  }
  static_assert(ctir::field_value<DataType>, "DataType must be usable as a plain node field");
}

TEST_CASE("dtypes outside the text format still print a readable name") {
  CHECK(DataType{DataType::Code::uint, 32}.str() == "uint32");
  CHECK(DataType{DataType::Code::float_, 8}.str() == "float8");
  CHECK(DataType{DataType::Code::int_, 4}.str() == "int4");
}
