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
