// Scalar values and the arithmetic of the reference interpreter: wrapping integers,
// floor division, IEEE floats, saturating float-to-integer casts.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace ctir::eval {

/// One scalar of a given dtype: what tensor-level expressions evaluate to.
///
/// Integers, uint8 and bool live in `i` (bool as 0 or 1, uint8 as 0 to 255, intN
/// sign-extended), floats in `f`, already rounded to the dtype's precision. Build
/// scalars with make_int / make_float / from_double so that the invariant holds.
struct Scalar {
  DataType dtype = DataType::int32();
  std::int64_t i = 0;
  double f = 0;

  /// `value` wrapped to the dtype like two's complement (bool: nonzero is true); a
  /// float dtype gets the value converted.
  static Scalar make_int(DataType dtype, std::int64_t value) noexcept;
  /// `value` rounded to the dtype's precision; an integer dtype gets it converted
  /// like a cast (truncated toward zero, saturated, NaN gives 0).
  static Scalar make_float(DataType dtype, double value) noexcept;
  static Scalar boolean(bool value) noexcept {
    return make_int(DataType::boolean(), value ? 1 : 0);
  }

  bool is_float() const noexcept { return dtype.is_float(); }
  /// The value as a double (exact for floats and for integers up to 2^53).
  double as_double() const noexcept { return is_float() ? f : static_cast<double>(i); }
  /// The value as an integer; floats convert like a cast to int64.
  std::int64_t as_int() const noexcept;
  /// Nonzero (NaN counts as nonzero, as in C).
  bool truthy() const noexcept { return is_float() ? f != 0 : i != 0; }

  /// Same dtype and same value; floats compare bitwise except that NaN equals NaN.
  friend bool operator==(const Scalar& a, const Scalar& b) noexcept;
};

// The scalar constructors, casts and element access stay inline here: the interpreter and
// the kernels call them for every element they touch.

namespace detail {

/// `value` wrapped to `bits` bits, sign-extended (C++20 conversions are modular).
constexpr std::int64_t wrap_signed(std::uint64_t value, unsigned bits) noexcept {
  switch (bits) {
  case 8:
    return static_cast<std::int8_t>(static_cast<std::uint8_t>(value));
  case 16:
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(value));
  case 32:
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  default:
    return static_cast<std::int64_t>(value);
  }
}

/// `value` in the range of an integer dtype: truncated toward zero, saturated at the
/// ends, NaN to 0 (the conversion C++ leaves undefined, defined as Rust's `as` does).
inline std::int64_t saturating_to_int(DataType dtype, double value) noexcept {
  if (std::isnan(value)) {
    return 0;
  }
  double low = 0;
  double high = 0;
  if (dtype.is_uint()) {
    high = std::ldexp(1.0, dtype.bits) - 1;
  } else {
    high = std::ldexp(1.0, dtype.bits - 1) - 1; // 2^63 - 1 rounds to 2^63 for int64
    low = -std::ldexp(1.0, dtype.bits - 1);
  }
  const double t = std::trunc(value);
  if (t <= low) {
    return dtype.bits == 64 ? std::numeric_limits<std::int64_t>::min()
                            : static_cast<std::int64_t>(low);
  }
  if (t >= high) {
    return dtype.bits == 64 ? std::numeric_limits<std::int64_t>::max()
                            : static_cast<std::int64_t>(high);
  }
  return static_cast<std::int64_t>(t);
}

/// `value` rounded to float32 (to nearest even), with overflow to infinity done by
/// hand: converting an out-of-range double to float is undefined in C++.
inline double round_to_float32(double value) noexcept {
  constexpr double max_float = static_cast<double>(std::numeric_limits<float>::max());
  // Halfway between FLT_MAX and 2^128: from here on, round to nearest gives infinity.
  const double overflow = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
  if (std::isfinite(value) && std::fabs(value) > max_float) {
    if (std::fabs(value) >= overflow) {
      return std::copysign(std::numeric_limits<double>::infinity(), value);
    }
    return std::copysign(max_float, value);
  }
  return static_cast<double>(static_cast<float>(value));
}

/// `value` rounded to the precision of a float dtype.
inline double round_to_dtype(DataType dtype, double value) noexcept {
  if (dtype.bits == 64) {
    return value;
  }
  const double single = round_to_float32(value);
  return dtype.bits == 32 ? single : TensorData::round_to_half(single);
}

} // namespace detail

inline Scalar Scalar::make_int(DataType dtype, std::int64_t value) noexcept {
  Scalar s;
  s.dtype = dtype;
  if (dtype.is_float()) {
    s.f = detail::round_to_dtype(dtype, static_cast<double>(value));
  } else if (dtype.is_bool()) {
    s.i = value != 0 ? 1 : 0;
  } else if (dtype.is_uint()) {
    const std::uint64_t mask =
        dtype.bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << dtype.bits) - 1;
    s.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) & mask);
  } else {
    s.i = detail::wrap_signed(static_cast<std::uint64_t>(value), dtype.bits);
  }
  return s;
}

inline Scalar Scalar::make_float(DataType dtype, double value) noexcept {
  Scalar s;
  s.dtype = dtype;
  if (dtype.is_float()) {
    s.f = detail::round_to_dtype(dtype, value);
  } else if (dtype.is_bool()) {
    s.i = value != 0 ? 1 : 0;
  } else {
    s.i = detail::saturating_to_int(dtype, value);
  }
  return s;
}

inline std::int64_t Scalar::as_int() const noexcept {
  return is_float() ? detail::saturating_to_int(DataType::int64(), f) : i;
}

/// `value` converted to `dtype` (the semantics of `cast<dtype>(value)`).
///
/// Integer to integer wraps like two's complement; float to integer truncates toward
/// zero and saturates (NaN gives 0); anything to bool is "nonzero"; to a float rounds
/// to nearest even, overflowing to infinity.
inline Scalar cast(DataType dtype, const Scalar& value) noexcept {
  return value.is_float() ? Scalar::make_float(dtype, value.f) : Scalar::make_int(dtype, value.i);
}

/// Element `index` of a tensor as a scalar of the tensor's dtype.
inline Scalar read_element(const TensorData& tensor, std::size_t index) {
  return tensor.dtype().is_float() ? Scalar::make_float(tensor.dtype(), tensor.get(index))
                                   : Scalar::make_int(tensor.dtype(), tensor.get_int(index));
}

/// Stores `value`, converted to the tensor's dtype, as element `index`.
inline void write_element(TensorData& tensor, std::size_t index, const Scalar& value) {
  const Scalar converted = cast(tensor.dtype(), value);
  if (converted.is_float()) {
    tensor.set(index, converted.f);
  } else {
    tensor.set_int(index, converted.i);
  }
}

/// A rank-0 tensor holding `value`.
TensorData to_tensor(const Scalar& value);

/// The text of a scalar as a literal of the text format: `3`, `3i64`, `2.5f`, `true`.
std::string to_string(const Scalar& value);

/// The binary operator's symbol as messages write it: `+`, `min`, `&&`.
constexpr std::string_view symbol_of(BinaryOp op) noexcept {
  switch (op) {
  case BinaryOp::add:
    return "+";
  case BinaryOp::sub:
    return "-";
  case BinaryOp::mul:
    return "*";
  case BinaryOp::div:
    return "/";
  case BinaryOp::mod:
    return "%";
  case BinaryOp::min:
    return "min";
  case BinaryOp::max:
    return "max";
  case BinaryOp::eq:
    return "==";
  case BinaryOp::ne:
    return "!=";
  case BinaryOp::lt:
    return "<";
  case BinaryOp::le:
    return "<=";
  case BinaryOp::gt:
    return ">";
  case BinaryOp::ge:
    return ">=";
  case BinaryOp::logical_and:
    return "&&";
  case BinaryOp::logical_or:
    return "||";
  }
  return "?";
}

/// `a op b` with the interpreter's semantics; throws ctir::Error for integer division
/// or modulo by zero and for arithmetic or comparison operands of which one is a float
/// and the other not.
///
/// - The result of arithmetic (`+ - * / % min max`) has the left operand's dtype (as
///   dtype_of says); the right operand is converted to it.
/// - Integers wrap like two's complement of their width (computed on unsigned 64-bit
///   values, so overflow is defined); `/` and `%` floor (`-7 / 2 == -4`,
///   `-7 % 2 == 1`); the one overflowing division, `min / -1`, wraps to `min`.
///   Results of dtype bool are "nonzero".
/// - Floats follow IEEE 754 in float64, rounded once to the dtype: `x / 0` is an
///   infinity or NaN, `%` is `a - floor(a / b) * b` (NaN for `b == 0`), `min` and
///   `max` return NaN when either operand is NaN.
/// - Comparisons give bool and compare the exact values (IEEE for floats, so NaN is
///   unordered). `&&` and `||` take truthiness (the interpreter short-circuits them).
Scalar binary(BinaryOp op, const Scalar& a, const Scalar& b);

/// `-a`: integers wrap (`-min == min`), floats flip the sign.
Scalar negate(const Scalar& a) noexcept;

/// `!a`: bool.
Scalar logical_not(const Scalar& a) noexcept;

} // namespace ctir::eval

#ifdef CTIR_HEADER_ONLY
#include <ctir/eval/scalar-inl.hpp>
#endif
