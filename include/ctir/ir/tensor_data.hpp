// Dense tensor values: the payload of graph-level constants.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/value_traits.hpp>
#include <ctir/ir/dtype.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ctir {

/// A dense, row-major tensor of one dtype, stored in that dtype's bytes.
class TensorData {
public:
  /// A float32 scalar zero.
  TensorData() : TensorData(DataType::float32(), {}) {}
  /// A zero-filled tensor; throws if a dimension is negative.
  TensorData(DataType dtype, std::vector<std::int64_t> shape);

  /// A tensor of the given shape holding `values` converted to dtype.
  static TensorData from_doubles(DataType dtype, std::vector<std::int64_t> shape,
                                 const std::vector<double>& values);
  /// A rank-0 tensor.
  static TensorData scalar(DataType dtype, double value);

  DataType dtype() const noexcept { return dtype_; }
  const std::vector<std::int64_t>& shape() const noexcept { return shape_; }
  std::size_t ndim() const noexcept { return shape_.size(); }
  /// The number of elements.
  std::size_t size() const noexcept { return element_count(); }
  const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }
  /// The elements' bytes for writing in place (native code fills tensors through it).
  std::uint8_t* mutable_data() noexcept { return bytes_.data(); }

  /// Element i (row-major) converted to double.
  double get(std::size_t i) const;
  /// Element i as an integer (exact for integer dtypes).
  std::int64_t get_int(std::size_t i) const;
  /// Stores `value` converted to the dtype (integers truncate, floats round).
  void set(std::size_t i, double value);
  void set_int(std::size_t i, std::int64_t value);

  std::size_t element_size() const noexcept { return dtype_.is_bool() ? 1 : dtype_.bits / 8U; }

  /// `value` rounded to the nearest float16, as a double.
  static double round_to_half(double value) noexcept;

  /// Elementwise equality; float elements compare bitwise except NaN == NaN.
  friend bool operator==(const TensorData& a, const TensorData& b);

private:
  static std::vector<std::int64_t> checked_shape(std::vector<std::int64_t> shape);
  std::size_t element_count() const noexcept {
    std::size_t count = 1;
    for (std::int64_t d : shape_) {
      count *= static_cast<std::size_t>(d < 0 ? 0 : d);
    }
    return count;
  }
  std::int64_t read_signed(const std::uint8_t* p) const noexcept;
  std::uint64_t read_unsigned(const std::uint8_t* p) const noexcept;
  static std::uint16_t read_u16(const std::uint8_t* p) noexcept;
  static float half_to_float(std::uint16_t h) noexcept;
  static std::uint16_t float_to_half(float f) noexcept;

  DataType dtype_ = DataType::float32();
  std::vector<std::int64_t> shape_;
  std::vector<std::uint8_t> bytes_;
};

template <>
struct value_traits<TensorData> {
  static bool equal(const TensorData& a, const TensorData& b);
  static std::uint64_t hash(const TensorData& a);
  /// Nested brackets of literals, as in `const([[1f, 2f], [3f, 4f]])`.
  static void print(const TensorData& a, std::string& out);
};

namespace detail {
/// Appends a scalar literal of the text format: `true`, `1.5f`, `2.0f64`, `3i64`, ...
/// (`value` is used for bool and float dtypes, `int_value` for integers).
void print_scalar_literal(DataType dtype, double value, std::int64_t int_value, std::string& out);
} // namespace detail

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/tensor_data-inl.hpp>
#endif
