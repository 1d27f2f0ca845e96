// Test support: comparing the interpreter's results before and after a pass (integers bit
// for bit, floats within a relative tolerance), without a test framework.
#pragma once

#include <ctir/eval/value.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ctir::testing {

/// Whether two values agree: integers bit for bit, floats within 1e-5 relative. With
/// `any_shape`, tensors compare by their elements in row-major order (a flattened buffer).
inline bool values_agree(const eval::Value& a, const eval::Value& b, bool any_shape,
                         std::string& why) {
  if (a.kind() != b.kind()) {
    why = "different kinds of value";
    return false;
  }
  if (a.is_tuple()) {
    if (a.fields().size() != b.fields().size()) {
      why = "tuples of different sizes";
      return false;
    }
    for (std::size_t i = 0; i < a.fields().size(); ++i) {
      if (!values_agree(a.fields()[i], b.fields()[i], any_shape, why)) {
        return false;
      }
    }
    return true;
  }
  if (a.is_scalar()) {
    const eval::Scalar& x = a.as_scalar();
    const eval::Scalar& y = b.as_scalar();
    if (x.dtype != y.dtype) {
      why = "scalars of different dtypes";
      return false;
    }
    if (!x.is_float()) {
      why = "integers differ: " + eval::to_string(x) + " and " + eval::to_string(y);
      return x.i == y.i;
    }
    const bool close = (std::isnan(x.f) && std::isnan(y.f)) || x.f == y.f ||
                       std::fabs(x.f - y.f) <= 1e-5 * std::max(std::fabs(x.f), std::fabs(y.f));
    why = "floats differ: " + eval::to_string(x) + " and " + eval::to_string(y);
    return close;
  }
  if (!a.is_tensor()) {
    why = "closures are not compared";
    return false;
  }
  const TensorData& x = a.as_tensor();
  const TensorData& y = b.as_tensor();
  if (x.dtype() != y.dtype() || x.size() != y.size() || (!any_shape && x.shape() != y.shape())) {
    why = "tensors of different types";
    return false;
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!x.dtype().is_float()) {
      if (x.get_int(i) != y.get_int(i)) {
        why = "integer element " + std::to_string(i) + " differs";
        return false;
      }
      continue;
    }
    const double u = x.get(i);
    const double v = y.get(i);
    if (!((std::isnan(u) && std::isnan(v)) || u == v ||
          std::fabs(u - v) <= 1e-5 * std::max(std::fabs(u), std::fabs(v)))) {
      why = "float element " + std::to_string(i) + " differs: " + std::to_string(u) + " and " +
            std::to_string(v);
      return false;
    }
  }
  return true;
}

/// `value` as a 1-D tensor when `type` is 1-D and `value` a tensor of another rank
/// (inputs of a function whose buffers were flattened).
inline eval::Value reshape_to(const eval::Value& value, const Type& type) {
  const auto* tensor_type = type.as<TensorTypeNode>();
  if (!value.is_tensor() || tensor_type == nullptr || tensor_type->ndim() != 1 ||
      value.as_tensor().ndim() == 1) {
    return value;
  }
  const TensorData& data = value.as_tensor();
  TensorData out(data.dtype(), {static_cast<std::int64_t>(data.size())});
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data.dtype().is_float()) {
      out.set(i, data.get(i));
    } else {
      out.set_int(i, data.get_int(i));
    }
  }
  return eval::Value(std::move(out));
}

} // namespace ctir::testing
