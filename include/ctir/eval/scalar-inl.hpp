// Definitions of <ctir/eval/scalar.hpp>.
#pragma once

#include <ctir/eval/scalar.hpp>

#include <ctir/core/error.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace ctir::eval {

CTIR_INLINE bool operator==(const Scalar& a, const Scalar& b) noexcept {
  if (a.dtype != b.dtype) {
    return false;
  }
  if (!a.is_float()) {
    return a.i == b.i;
  }
  return (std::isnan(a.f) && std::isnan(b.f)) ||
         (a.f == b.f && std::signbit(a.f) == std::signbit(b.f));
}

namespace detail {

/// `value` in the range of an integer dtype: truncated toward zero, saturated at the
/// ends, NaN to 0 (the conversion C++ leaves undefined, defined as Rust's `as` does).
CTIR_INLINE std::int64_t saturating_to_int(DataType dtype, double value) noexcept {
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
CTIR_INLINE double round_to_float32(double value) noexcept {
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
CTIR_INLINE double round_to_dtype(DataType dtype, double value) noexcept {
  if (dtype.bits == 64) {
    return value;
  }
  const double single = round_to_float32(value);
  return dtype.bits == 32 ? single : TensorData::round_to_half(single);
}

} // namespace detail

CTIR_INLINE Scalar Scalar::make_int(DataType dtype, std::int64_t value) noexcept {
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

CTIR_INLINE Scalar Scalar::make_float(DataType dtype, double value) noexcept {
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

CTIR_INLINE std::int64_t Scalar::as_int() const noexcept {
  return is_float() ? detail::saturating_to_int(DataType::int64(), f) : i;
}

CTIR_INLINE Scalar cast(DataType dtype, const Scalar& value) noexcept {
  return value.is_float() ? Scalar::make_float(dtype, value.f) : Scalar::make_int(dtype, value.i);
}

CTIR_INLINE Scalar read_element(const TensorData& tensor, std::size_t index) {
  return tensor.dtype().is_float() ? Scalar::make_float(tensor.dtype(), tensor.get(index))
                                   : Scalar::make_int(tensor.dtype(), tensor.get_int(index));
}

CTIR_INLINE void write_element(TensorData& tensor, std::size_t index, const Scalar& value) {
  const Scalar converted = cast(tensor.dtype(), value);
  if (converted.is_float()) {
    tensor.set(index, converted.f);
  } else {
    tensor.set_int(index, converted.i);
  }
}

CTIR_INLINE TensorData to_tensor(const Scalar& value) {
  TensorData tensor(value.dtype, {});
  write_element(tensor, 0, value);
  return tensor;
}

CTIR_INLINE std::string to_string(const Scalar& value) {
  std::string out;
  ctir::detail::print_scalar_literal(value.dtype, value.as_double(), value.i, out);
  return out;
}

CTIR_INLINE Scalar binary(BinaryOp op, const Scalar& a, const Scalar& b) {
  if (op == BinaryOp::logical_and) {
    return Scalar::boolean(a.truthy() && b.truthy());
  }
  if (op == BinaryOp::logical_or) {
    return Scalar::boolean(a.truthy() || b.truthy());
  }
  if (a.is_float() != b.is_float()) {
    throw Error("operands of '" + std::string(symbol_of(op)) + "' have dtypes " + a.dtype.str() +
                " and " + b.dtype.str() + "; one is a float and the other not (insert a cast)");
  }
  const bool floating = a.is_float();
  switch (op) {
  case BinaryOp::eq:
    return Scalar::boolean(floating ? a.f == b.f : a.i == b.i);
  case BinaryOp::ne:
    return Scalar::boolean(floating ? a.f != b.f : a.i != b.i);
  case BinaryOp::lt:
    return Scalar::boolean(floating ? a.f < b.f : a.i < b.i);
  case BinaryOp::le:
    return Scalar::boolean(floating ? a.f <= b.f : a.i <= b.i);
  case BinaryOp::gt:
    return Scalar::boolean(floating ? a.f > b.f : a.i > b.i);
  case BinaryOp::ge:
    return Scalar::boolean(floating ? a.f >= b.f : a.i >= b.i);
  default:
    break;
  }
  const DataType dtype = a.dtype;
  if (floating) {
    const double x = a.f;
    const double y = b.f;
    double r = 0;
    switch (op) {
    case BinaryOp::add:
      r = x + y;
      break;
    case BinaryOp::sub:
      r = x - y;
      break;
    case BinaryOp::mul:
      r = x * y;
      break;
    case BinaryOp::div:
      r = x / y;
      break;
    case BinaryOp::mod:
      r = std::fmod(x, y);
      if (r != 0 && ((r < 0) != (y < 0))) {
        r += y;
      }
      break;
    case BinaryOp::min:
      r = std::isnan(x) || std::isnan(y) ? std::numeric_limits<double>::quiet_NaN()
                                         : (y < x ? y : x);
      break;
    case BinaryOp::max:
      r = std::isnan(x) || std::isnan(y) ? std::numeric_limits<double>::quiet_NaN()
                                         : (y > x ? y : x);
      break;
    default:
      break;
    }
    return Scalar::make_float(dtype, r);
  }
  // Integers: the right operand in the left's dtype first, so that mixed widths wrap
  // as the result would.
  const std::int64_t x = a.i;
  const std::int64_t y = Scalar::make_int(dtype, b.i).i;
  const auto ux = static_cast<std::uint64_t>(x);
  const auto uy = static_cast<std::uint64_t>(y);
  std::int64_t r = 0;
  switch (op) {
  case BinaryOp::add:
    r = static_cast<std::int64_t>(ux + uy);
    break;
  case BinaryOp::sub:
    r = static_cast<std::int64_t>(ux - uy);
    break;
  case BinaryOp::mul:
    r = static_cast<std::int64_t>(ux * uy);
    break;
  case BinaryOp::div:
  case BinaryOp::mod: {
    if (y == 0) {
      throw Error(std::string("integer ") + (op == BinaryOp::div ? "division" : "modulo") +
                  " by zero (" + to_string(a) + " " + std::string(symbol_of(op)) + " " +
                  to_string(b) + ")");
    }
    if (y == -1) {
      // x / -1 is -x (wrapping for the minimum); x % -1 is 0. Avoids the one
      // overflowing case of C++ division.
      r = op == BinaryOp::div ? static_cast<std::int64_t>(std::uint64_t{0} - ux) : 0;
      break;
    }
    std::int64_t q = x / y;
    std::int64_t m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) {
      q -= 1;
      m += y;
    }
    r = op == BinaryOp::div ? q : m;
    break;
  }
  case BinaryOp::min:
    r = y < x ? y : x;
    break;
  case BinaryOp::max:
    r = y > x ? y : x;
    break;
  default:
    break;
  }
  return Scalar::make_int(dtype, r);
}

CTIR_INLINE Scalar negate(const Scalar& a) noexcept {
  if (a.is_float()) {
    return Scalar::make_float(a.dtype, -a.f);
  }
  return Scalar::make_int(
      a.dtype, static_cast<std::int64_t>(std::uint64_t{0} - static_cast<std::uint64_t>(a.i)));
}

CTIR_INLINE Scalar logical_not(const Scalar& a) noexcept { return Scalar::boolean(!a.truthy()); }

} // namespace ctir::eval
