// Definitions of <ctir/ir/tensor_data.hpp>.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

namespace ctir {

CTIR_INLINE TensorData::TensorData(DataType dtype, std::vector<std::int64_t> shape)
    : dtype_(dtype), shape_(checked_shape(std::move(shape))),
      bytes_(element_count() * element_size(), 0) {}

CTIR_INLINE TensorData TensorData::from_doubles(DataType dtype, std::vector<std::int64_t> shape,
                                                const std::vector<double>& values) {
  TensorData result(dtype, std::move(shape));
  if (values.size() != result.size()) {
    throw Error("ctir: a tensor of " + std::to_string(result.size()) + " elements was given " +
                std::to_string(values.size()) + " values");
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    result.set(i, values[i]);
  }
  return result;
}

CTIR_INLINE TensorData TensorData::scalar(DataType dtype, double value) {
  return from_doubles(dtype, {}, {value});
}

CTIR_INLINE double TensorData::get(std::size_t i) const {
  const std::uint8_t* p = bytes_.data() + i * element_size();
  switch (dtype_.code) {
  case DataType::Code::bool_:
    return *p != 0 ? 1.0 : 0.0;
  case DataType::Code::int_:
    return static_cast<double>(read_signed(p));
  case DataType::Code::uint:
    return static_cast<double>(read_unsigned(p));
  case DataType::Code::float_:
    if (dtype_.bits == 64) {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    if (dtype_.bits == 32) {
      float v;
      std::memcpy(&v, p, 4);
      return static_cast<double>(v);
    }
    return static_cast<double>(half_to_float(read_u16(p)));
  }
  return 0;
}

CTIR_INLINE std::int64_t TensorData::get_int(std::size_t i) const {
  const std::uint8_t* p = bytes_.data() + i * element_size();
  if (dtype_.is_int()) {
    return read_signed(p);
  }
  if (dtype_.is_uint() || dtype_.is_bool()) {
    return static_cast<std::int64_t>(read_unsigned(p));
  }
  return static_cast<std::int64_t>(get(i));
}

CTIR_INLINE void TensorData::set(std::size_t i, double value) {
  std::uint8_t* p = bytes_.data() + i * element_size();
  switch (dtype_.code) {
  case DataType::Code::bool_:
    *p = value != 0 ? 1 : 0;
    return;
  case DataType::Code::int_:
  case DataType::Code::uint: {
    // Beyond ±2^63 (or NaN) the conversion to an integer is undefined: refuse it.
    if (!(value > -9.2233720368547758e18 && value < 9.2233720368547758e18)) {
      throw Error("ctir: " + shortest_float(value) + " does not fit a " + dtype_.str() +
                  " tensor element");
    }
    const auto v = static_cast<std::int64_t>(value);
    std::memcpy(p, &v, element_size()); // little-endian: the low bytes
    return;
  }
  case DataType::Code::float_:
    if (dtype_.bits == 64) {
      std::memcpy(p, &value, 8);
    } else if (dtype_.bits == 32) {
      const auto v = static_cast<float>(value);
      std::memcpy(p, &v, 4);
    } else {
      const std::uint16_t h = float_to_half(static_cast<float>(value));
      std::memcpy(p, &h, 2);
    }
    return;
  }
}

CTIR_INLINE void TensorData::set_int(std::size_t i, std::int64_t value) {
  if (dtype_.is_float()) {
    set(i, static_cast<double>(value));
    return;
  }
  std::uint8_t* p = bytes_.data() + i * element_size();
  if (dtype_.is_bool()) {
    *p = value != 0 ? 1 : 0;
    return;
  }
  std::memcpy(p, &value, element_size());
}

CTIR_INLINE double TensorData::round_to_half(double value) noexcept {
  return static_cast<double>(half_to_float(float_to_half(static_cast<float>(value))));
}

CTIR_INLINE bool operator==(const TensorData& a, const TensorData& b) {
  if (a.dtype_ != b.dtype_ || a.shape_ != b.shape_) {
    return false;
  }
  if (!a.dtype_.is_float()) {
    return a.bytes_ == b.bytes_;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a.get(i);
    const double y = b.get(i);
    const bool both_nan = std::isnan(x) && std::isnan(y);
    if (!both_nan && std::memcmp(a.bytes_.data() + i * a.element_size(),
                                 b.bytes_.data() + i * b.element_size(), a.element_size()) != 0) {
      return false;
    }
  }
  return true;
}

CTIR_INLINE std::vector<std::int64_t> TensorData::checked_shape(std::vector<std::int64_t> shape) {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      throw Error("ctir: tensor dimension " + std::to_string(i) + " is " +
                  std::to_string(shape[i]) + "; dimensions must not be negative");
    }
  }
  return shape;
}

CTIR_INLINE std::int64_t TensorData::read_signed(const std::uint8_t* p) const noexcept {
  switch (dtype_.bits) {
  case 8: {
    std::int8_t v;
    std::memcpy(&v, p, 1);
    return v;
  }
  case 16: {
    std::int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case 32: {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  default: {
    std::int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
}

CTIR_INLINE std::uint64_t TensorData::read_unsigned(const std::uint8_t* p) const noexcept {
  std::uint64_t v = 0;
  std::memcpy(&v, p, element_size());
  return v;
}

CTIR_INLINE std::uint16_t TensorData::read_u16(const std::uint8_t* p) noexcept {
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

CTIR_INLINE float TensorData::half_to_float(std::uint16_t h) noexcept {
  const std::uint32_t sign = (h & 0x8000U) << 16U;
  const std::uint32_t exponent = (h >> 10U) & 0x1FU;
  const std::uint32_t mantissa = h & 0x3FFU;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400U), static_cast<int>(exponent) - 25);
  }
  return sign != 0 ? -magnitude : magnitude;
}

CTIR_INLINE std::uint16_t TensorData::float_to_half(float f) noexcept {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const auto sign = static_cast<std::uint16_t>((bits >> 16U) & 0x8000U);
  if (std::isnan(f)) {
    return static_cast<std::uint16_t>(sign | 0x7E00U);
  }
  const float magnitude = std::fabs(f);
  if (magnitude >= 65520.0F) {
    return static_cast<std::uint16_t>(sign | 0x7C00U);
  }
  if (magnitude == 0.0F) {
    return sign;
  }
  int exponent;
  const float fraction = std::frexp(magnitude, &exponent); // magnitude = fraction * 2^exponent
  if (exponent < -13) {                                    // subnormal half
    const auto m = static_cast<std::uint16_t>(std::nearbyint(std::ldexp(magnitude, 24)));
    return static_cast<std::uint16_t>(sign | m);
  }
  auto m = static_cast<std::uint32_t>(std::nearbyint(std::ldexp(fraction, 11)));
  if (m == 2048U) {
    m = 1024U;
    ++exponent;
  }
  const auto e = static_cast<std::uint32_t>(exponent + 14);
  return static_cast<std::uint16_t>(sign | (e << 10U) | (m & 0x3FFU));
}

CTIR_INLINE bool value_traits<TensorData>::equal(const TensorData& a, const TensorData& b) {
  return a == b;
}

CTIR_INLINE std::uint64_t value_traits<TensorData>::hash(const TensorData& a) {
  std::uint64_t seed = value_traits<DataType>::hash(a.dtype());
  for (std::int64_t d : a.shape()) {
    seed = hash_combine(seed, static_cast<std::uint64_t>(d));
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double v = a.get(i);
    seed = hash_combine(seed, value_traits<double>::hash(v));
  }
  return seed;
}

namespace detail {

/// The shortest decimal text that reads back as the same float16.
CTIR_INLINE std::string shortest_half(double value) {
  if (std::isnan(value) || std::isinf(value)) {
    return shortest_float(value);
  }
  const double target = TensorData::round_to_half(value);
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, target,
                                      std::chars_format::general, precision);
    (void)error;
    std::string text(buffer, end);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    if (TensorData::round_to_half(back) == target) {
      return text;
    }
  }
  return shortest_float(target);
}

CTIR_INLINE void print_scalar_literal(DataType dtype, double value, std::int64_t int_value,
                                      std::string& out) {
  if (dtype.is_bool()) {
    out += value != 0 ? "true" : "false";
  } else if (dtype.is_float()) {
    // float32 and float16 values print the shortest text that reads back as a float.
    if (dtype.bits == 16) {
      out += shortest_half(value);
    } else {
      out += dtype.bits == 64 ? shortest_float(value) : shortest_float(static_cast<float>(value));
    }
    out += dtype.bits == 32 ? "f" : dtype.bits == 64 ? "f64" : "f16";
  } else {
    out += std::to_string(int_value);
    if (dtype != DataType::int32()) {
      out += dtype.is_int() ? "i" : "u";
      out += std::to_string(dtype.bits);
    }
  }
}

/// Prints the elements of `a` from flat index `flat` on, as nested brackets from `dim` down.
CTIR_INLINE void print_tensor_elements(const TensorData& a, std::size_t dim, std::size_t& flat,
                                       std::string& out) {
  if (dim == a.ndim()) {
    const bool integral = a.dtype().is_integer() || a.dtype().is_bool();
    print_scalar_literal(a.dtype(), a.get(flat), integral ? a.get_int(flat) : 0, out);
    ++flat;
    return;
  }
  out += '[';
  for (std::int64_t i = 0; i < a.shape()[dim]; ++i) {
    if (i != 0) {
      out += ", ";
    }
    print_tensor_elements(a, dim + 1, flat, out);
  }
  out += ']';
}

} // namespace detail

CTIR_INLINE void value_traits<TensorData>::print(const TensorData& a, std::string& out) {
  std::size_t flat = 0;
  detail::print_tensor_elements(a, 0, flat, out);
}

} // namespace ctir
