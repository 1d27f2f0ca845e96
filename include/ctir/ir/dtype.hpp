// Scalar data types: bool, signed and unsigned integers, floats.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/value_traits.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ctir {

/// A scalar element type such as int32 or float32.
struct DataType {
  enum class Code : std::uint8_t { int_, uint, float_, bool_ };

  Code code = Code::int_;
  std::uint8_t bits = 32;

  static constexpr DataType int8() noexcept { return {Code::int_, 8}; }
  static constexpr DataType int16() noexcept { return {Code::int_, 16}; }
  static constexpr DataType int32() noexcept { return {Code::int_, 32}; }
  static constexpr DataType int64() noexcept { return {Code::int_, 64}; }
  static constexpr DataType uint8() noexcept { return {Code::uint, 8}; }
  static constexpr DataType float16() noexcept { return {Code::float_, 16}; }
  static constexpr DataType float32() noexcept { return {Code::float_, 32}; }
  static constexpr DataType float64() noexcept { return {Code::float_, 64}; }
  static constexpr DataType boolean() noexcept { return {Code::bool_, 1}; }

  constexpr bool is_int() const noexcept { return code == Code::int_; }
  constexpr bool is_uint() const noexcept { return code == Code::uint; }
  constexpr bool is_integer() const noexcept { return is_int() || is_uint(); }
  constexpr bool is_float() const noexcept { return code == Code::float_; }
  constexpr bool is_bool() const noexcept { return code == Code::bool_; }

  friend constexpr bool operator==(DataType, DataType) noexcept = default;

  /// "int32", "float16", "bool", ...
  std::string str() const;

  /// Parses one of the dtype names of the text format.
  static std::optional<DataType> from_string(std::string_view name);
};

template <>
struct value_traits<DataType> {
  static constexpr bool equal(DataType a, DataType b) noexcept { return a == b; }
  static constexpr std::uint64_t hash(DataType a) noexcept {
    return hash_combine(0xD7, (static_cast<std::uint64_t>(a.code) << 8U) | a.bits);
  }
  static void print(DataType a, std::string& out) { out += a.str(); }
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/dtype-inl.hpp>
#endif
