// Definitions of <ctir/eval/kernels.hpp>.
#pragma once

#include <ctir/eval/kernels.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/ir/type_str.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::eval {

CTIR_INLINE TensorData make_tensor(DataType dtype, const std::vector<std::int64_t>& shape,
                                   std::string_view what) {
  const std::uint64_t element = dtype.is_bool() ? 1U : dtype.bits / 8U;
  std::uint64_t bytes = element;
  for (std::int64_t d : shape) {
    if (d < 0) {
      throw Error("ctir: " + std::string(what) + " would have the negative dimension " +
                  std::to_string(d));
    }
    if (d != 0 && bytes > max_tensor_bytes / static_cast<std::uint64_t>(d)) {
      bytes = max_tensor_bytes + 1;
    } else {
      bytes *= static_cast<std::uint64_t>(d);
    }
  }
  if (bytes > max_tensor_bytes) {
    std::string dims;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      dims += (k == 0 ? "" : ", ") + std::to_string(shape[k]);
    }
    throw Error("ctir: " + std::string(what) + " of shape (" + dims + ") and dtype " + dtype.str() +
                " would exceed the limit of " + std::to_string(max_tensor_bytes) + " bytes");
  }
  return TensorData(dtype, shape);
}

namespace detail {

CTIR_INLINE std::string kernel_prefix(std::string_view op) {
  return "ctir: operator '" + std::string(op) + "'";
}

/// The literal dimensions of a concrete tensor type.
CTIR_INLINE std::vector<std::int64_t> static_shape(std::string_view op, const Type& type) {
  const auto* tensor = type.as<TensorTypeNode>();
  if (tensor == nullptr) {
    throw Error(kernel_prefix(op) + ": its type relation gives " + type_str(type) +
                ", not a tensor, so no kernel can compute it");
  }
  std::vector<std::int64_t> shape;
  for (const PrimExpr& dim : tensor->shape) {
    const auto value = ops::static_dim(dim);
    if (!value) {
      throw Error(kernel_prefix(op) + ": its type relation gives the non-literal dimension " +
                  prim_expr_str(dim) + " for literal inputs");
    }
    shape.push_back(*value);
  }
  return shape;
}

/// Row-major strides of a shape, in elements.
CTIR_INLINE std::vector<std::size_t> strides_of(const std::vector<std::int64_t>& shape) {
  std::vector<std::size_t> strides(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) {
    strides[d - 1] = strides[d] * static_cast<std::size_t>(shape[d]);
  }
  return strides;
}

/// Per output dimension, the stride of `in` when broadcast to `out` (0 where `in` has
/// 1 or lacks the dimension); shapes are aligned from the right.
CTIR_INLINE std::vector<std::size_t> broadcast_strides(const std::vector<std::int64_t>& in,
                                                       const std::vector<std::int64_t>& out) {
  std::vector<std::size_t> strides(out.size(), 0);
  std::size_t stride = 1;
  for (std::size_t k = 1; k <= in.size() && k <= out.size(); ++k) {
    const std::size_t od = out.size() - k;
    const std::size_t id = in.size() - k;
    strides[od] = in[id] == 1 ? 0 : stride;
    stride *= static_cast<std::size_t>(in[id]);
  }
  return strides;
}

/// The offset of output element `flat` in an input with per-output-dimension `strides`.
CTIR_INLINE std::size_t offset_of(std::size_t flat, const std::vector<std::int64_t>& out,
                                  const std::vector<std::size_t>& strides) {
  std::size_t offset = 0;
  for (std::size_t d = out.size(); d-- > 0;) {
    const auto extent = static_cast<std::size_t>(out[d]);
    offset += (flat % extent) * strides[d];
    flat /= extent;
  }
  return offset;
}

/// `[1, 2]`: the multi-index of element `flat` of `shape`, for messages.
CTIR_INLINE std::string index_str(std::size_t flat, const std::vector<std::int64_t>& shape) {
  std::vector<std::size_t> index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    const auto extent = static_cast<std::size_t>(shape[d]);
    index[d] = flat % extent;
    flat /= extent;
  }
  std::string out = "[";
  for (std::size_t d = 0; d < index.size(); ++d) {
    out += (d == 0 ? "" : ", ") + std::to_string(index[d]);
  }
  return out + "]";
}

/// An accumulator for sums and dot products: float64 for floats (rounded once at the
/// end), wrapping 64-bit for integers, "any" for bool.
struct Accumulator {
  double f = 0;
  std::uint64_t i = 0;
  void add(const Scalar& v) noexcept {
    if (v.is_float()) {
      f += v.f;
    } else {
      i += static_cast<std::uint64_t>(v.i);
    }
  }
  void add_product(const Scalar& a, const Scalar& b) noexcept {
    if (a.is_float()) {
      f += a.f * b.f;
    } else {
      i += static_cast<std::uint64_t>(a.i) * static_cast<std::uint64_t>(b.i);
    }
  }
  Scalar result(DataType dtype) const noexcept {
    return dtype.is_float() ? Scalar::make_float(dtype, f)
                            : Scalar::make_int(dtype, static_cast<std::int64_t>(i));
  }
};

CTIR_INLINE KernelBody binary_body(BinaryOp op) {
  return [op](const std::vector<TensorData>& in, const KernelContext& ctx) {
    const TensorData& a = in[0];
    const TensorData& b = in[1];
    TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
    const auto sa = broadcast_strides(a.shape(), ctx.out_shape);
    const auto sb = broadcast_strides(b.shape(), ctx.out_shape);
    for (std::size_t k = 0; k < out.size(); ++k) {
      const Scalar x = read_element(a, offset_of(k, ctx.out_shape, sa));
      const Scalar y = read_element(b, offset_of(k, ctx.out_shape, sb));
      try {
        write_element(out, k, binary(op, x, y));
      } catch (const Error& e) {
        throw Error(kernel_prefix(ctx.op) + ": " + e.what() + " at output element " +
                    index_str(k, ctx.out_shape));
      }
    }
    return out;
  };
}

CTIR_INLINE KernelBody unary_body(Scalar (*fn)(const Scalar&)) {
  return [fn](const std::vector<TensorData>& in, const KernelContext& ctx) {
    TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
    for (std::size_t k = 0; k < out.size(); ++k) {
      write_element(out, k, fn(read_element(in[0], k)));
    }
    return out;
  };
}

CTIR_INLINE Scalar relu_of(const Scalar& x) {
  return binary(BinaryOp::max, x, Scalar::make_int(x.dtype, 0));
}
CTIR_INLINE Scalar negative_of(const Scalar& x) { return negate(x); }
CTIR_INLINE Scalar exp_of(const Scalar& x) { return Scalar::make_float(x.dtype, std::exp(x.f)); }
CTIR_INLINE Scalar log_of(const Scalar& x) { return Scalar::make_float(x.dtype, std::log(x.f)); }
CTIR_INLINE Scalar sqrt_of(const Scalar& x) { return Scalar::make_float(x.dtype, std::sqrt(x.f)); }
CTIR_INLINE Scalar tanh_of(const Scalar& x) { return Scalar::make_float(x.dtype, std::tanh(x.f)); }
CTIR_INLINE Scalar sigmoid_of(const Scalar& x) {
  return Scalar::make_float(x.dtype, 1.0 / (1.0 + std::exp(-x.f)));
}

CTIR_INLINE TensorData matmul_body(const std::vector<TensorData>& in, const KernelContext& ctx) {
  const TensorData& a = in[0];
  const TensorData& b = in[1];
  const std::size_t rank = ctx.out_shape.size();
  const auto m = static_cast<std::size_t>(a.shape()[a.ndim() - 2]);
  const auto k = static_cast<std::size_t>(a.shape()[a.ndim() - 1]);
  const auto n = static_cast<std::size_t>(b.shape()[b.ndim() - 1]);
  const std::vector<std::int64_t> batch(ctx.out_shape.begin(), ctx.out_shape.end() - 2);
  const std::vector<std::int64_t> batch_a(a.shape().begin(), a.shape().end() - 2);
  const std::vector<std::int64_t> batch_b(b.shape().begin(), b.shape().end() - 2);
  const auto sa = broadcast_strides(batch_a, batch);
  const auto sb = broadcast_strides(batch_b, batch);
  TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
  std::size_t batches = 1;
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    batches *= static_cast<std::size_t>(ctx.out_shape[d]);
  }
  for (std::size_t t = 0; t < batches; ++t) {
    const std::size_t base_a = offset_of(t, batch, sa) * m * k;
    const std::size_t base_b = offset_of(t, batch, sb) * k * n;
    const std::size_t base_out = t * m * n;
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        Accumulator acc;
        for (std::size_t p = 0; p < k; ++p) {
          acc.add_product(read_element(a, base_a + i * k + p), read_element(b, base_b + p * n + j));
        }
        write_element(out, base_out + i * n + j, acc.result(ctx.out_dtype));
      }
    }
  }
  return out;
}

CTIR_INLINE std::size_t axis_index(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

CTIR_INLINE TensorData transpose_body(const std::vector<TensorData>& in, const KernelContext& ctx) {
  const TensorData& x = in[0];
  const std::size_t rank = x.ndim();
  std::vector<std::size_t> axes(rank);
  if (const auto given = ctx.attrs.get<std::vector<std::int64_t>>("axes")) {
    for (std::size_t d = 0; d < rank; ++d) {
      axes[d] = axis_index((*given)[d], rank); // the relation checked the permutation
    }
  } else {
    for (std::size_t d = 0; d < rank; ++d) {
      axes[d] = rank - 1 - d;
    }
  }
  const auto in_strides = strides_of(x.shape());
  std::vector<std::size_t> strides(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    strides[d] = in_strides[axes[d]];
  }
  TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
  for (std::size_t k = 0; k < out.size(); ++k) {
    write_element(out, k, read_element(x, offset_of(k, ctx.out_shape, strides)));
  }
  return out;
}

CTIR_INLINE TensorData reshape_body(const std::vector<TensorData>& in, const KernelContext& ctx) {
  TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
  for (std::size_t k = 0; k < out.size(); ++k) {
    write_element(out, k, read_element(in[0], k));
  }
  return out;
}

CTIR_INLINE TensorData sum_body(const std::vector<TensorData>& in, const KernelContext& ctx) {
  const TensorData& x = in[0];
  const std::size_t rank = x.ndim();
  std::vector<bool> reduced(rank, true);
  if (const auto axes = ctx.attrs.get<std::vector<std::int64_t>>("axis")) {
    reduced.assign(rank, false);
    for (std::int64_t axis : *axes) {
      reduced[axis_index(axis, rank)] = true;
    }
  }
  // Per input dimension, the stride of the output element it adds into (0 if reduced).
  std::vector<std::int64_t> kept_shape;
  for (std::size_t d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      kept_shape.push_back(x.shape()[d]);
    }
  }
  const auto kept_strides = strides_of(kept_shape);
  std::vector<std::size_t> strides(rank, 0);
  for (std::size_t d = 0, kept = 0; d < rank; ++d) {
    if (!reduced[d]) {
      strides[d] = kept_strides[kept++];
    }
  }
  TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
  std::vector<Accumulator> sums(out.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    sums[offset_of(k, x.shape(), strides)].add(read_element(x, k));
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    write_element(out, k, sums[k].result(ctx.out_dtype));
  }
  return out;
}

CTIR_INLINE TensorData concatenate_body(const std::vector<TensorData>& in,
                                        const KernelContext& ctx) {
  const std::size_t rank = ctx.out_shape.size();
  const std::size_t axis = axis_index(ctx.attrs.get<std::int64_t>("axis").value_or(0), rank);
  TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
  const auto out_strides = strides_of(ctx.out_shape);
  std::size_t start = 0; // where along the axis the current input begins
  for (const TensorData& part : in) {
    std::vector<std::size_t> strides = out_strides; // part's index -> output offset
    const std::size_t shift = start * out_strides[axis];
    for (std::size_t k = 0; k < part.size(); ++k) {
      write_element(out, offset_of(k, part.shape(), strides) + shift, read_element(part, k));
    }
    start += static_cast<std::size_t>(part.shape()[axis]);
  }
  return out;
}

CTIR_INLINE KernelBody fill_body(double value) {
  return [value](const std::vector<TensorData>&, const KernelContext& ctx) {
    TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape, "the output");
    const Scalar fill = Scalar::make_float(ctx.out_dtype, value);
    for (std::size_t k = 0; k < out.size(); ++k) {
      write_element(out, k, fill);
    }
    return out;
  };
}

} // namespace detail

CTIR_INLINE OpKernel make_checked_kernel(OpDef schema, KernelBody body) {
  schema.kernel = nullptr; // the schema only describes; it never runs
  return [schema = std::move(schema), body = std::move(body)](const std::vector<TensorData>& in,
                                                              const Attrs& attrs) {
    std::vector<Type> types;
    types.reserve(in.size());
    for (const TensorData& tensor : in) {
      types.push_back(type_of(tensor));
    }
    KernelContext ctx;
    ctx.op = schema.name;
    ctx.attrs = schema.normalize_attrs(attrs);
    const Type out = schema.infer_type(types, ctx.attrs);
    ctx.out_shape = detail::static_shape(schema.name, out);
    ctx.out_dtype = out.as<TensorTypeNode>()->dtype;
    (void)make_tensor(ctx.out_dtype, ctx.out_shape, "the output of '" + schema.name + "'");
    return body(in, ctx);
  };
}

CTIR_INLINE const std::vector<std::string_view>& builtin_kernel_names() {
  static const std::vector<std::string_view> names = {
      "add",    "subtract",  "multiply", "divide", "maximum",     "minimum", "negative",
      "exp",    "log",       "sqrt",     "tanh",   "sigmoid",     "relu",    "nn.relu",
      "matmul", "transpose", "reshape",  "sum",    "concatenate", "zeros",   "ones"};
  return names;
}

CTIR_INLINE OpKernel builtin_kernel(const OpDef& schema) {
  using namespace detail;
  const std::string_view name = schema.name;
  const auto make = [&](KernelBody body) { return make_checked_kernel(schema, std::move(body)); };
  static constexpr std::array<std::pair<std::string_view, BinaryOp>, 6> binaries = {{
      {"add", BinaryOp::add},
      {"subtract", BinaryOp::sub},
      {"multiply", BinaryOp::mul},
      {"divide", BinaryOp::div},
      {"maximum", BinaryOp::max},
      {"minimum", BinaryOp::min},
  }};
  for (const auto& [key, op] : binaries) {
    if (name == key) {
      return make(binary_body(op));
    }
  }
  using Fn = Scalar (*)(const Scalar&);
  static constexpr std::array<std::pair<std::string_view, Fn>, 8> unaries = {{
      {"negative", &negative_of},
      {"exp", &exp_of},
      {"log", &log_of},
      {"sqrt", &sqrt_of},
      {"tanh", &tanh_of},
      {"sigmoid", &sigmoid_of},
      {"relu", &relu_of},
      {"nn.relu", &relu_of},
  }};
  for (const auto& [key, fn] : unaries) {
    if (name == key) {
      return make(unary_body(fn));
    }
  }
  if (name == "matmul") {
    return make(matmul_body);
  }
  if (name == "transpose") {
    return make(transpose_body);
  }
  if (name == "reshape") {
    return make(reshape_body);
  }
  if (name == "sum") {
    return make(sum_body);
  }
  if (name == "concatenate") {
    return make(concatenate_body);
  }
  if (name == "zeros" || name == "ones") {
    return make(fill_body(name == "zeros" ? 0.0 : 1.0));
  }
  throw Error("ctir: '" + std::string(name) + "' is not a built-in operator with a kernel");
}

CTIR_INLINE void install_builtin_kernels(OpRegistry& registry) {
  for (std::string_view name : builtin_kernel_names()) {
    const OpDef* def = registry.find(name);
    if (def != nullptr && !def->has_kernel()) {
      registry.set_kernel(name, builtin_kernel(*def));
    }
  }
}

CTIR_INLINE void ensure_builtin_kernels() {
  static const bool installed = (install_builtin_kernels(OpRegistry::global()), true);
  (void)installed;
}

} // namespace ctir::eval
