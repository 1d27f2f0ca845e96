// Reference kernels of the built-in operators, attached to the operator registry.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace ctir::eval {

/// The largest tensor a kernel or the interpreter allocates, in bytes (4 GiB); a larger
/// one is a ctir::Error rather than an out-of-memory abort.
inline constexpr std::uint64_t max_tensor_bytes = std::uint64_t{1} << 32;

/// A zero-filled tensor of `shape`; throws ctir::Error naming `what` when a dimension
/// is negative or the tensor would exceed max_tensor_bytes (checked without overflow).
TensorData make_tensor(DataType dtype, const std::vector<std::int64_t>& shape,
                       std::string_view what = "a tensor");

/// What a kernel body gets besides its inputs: the normalized attributes and the
/// output's shape and dtype, as the operator's type relation computed them.
struct KernelContext {
  std::string_view op;
  Attrs attrs;
  std::vector<std::int64_t> out_shape;
  DataType out_dtype;
};

/// A kernel body: inputs already checked against the operator's type relation.
using KernelBody = std::function<TensorData(const std::vector<TensorData>&, const KernelContext&)>;

/// A kernel that first checks its inputs through `schema` (arity, attributes, type
/// relation on the inputs' concrete types, output size) and then runs `body`.
///
/// This is how the built-in kernels are made, and a convenient way to write one for a
/// user operator: the body may then assume inputs the type relation accepts. Errors are
/// ctir::Error naming the operator.
OpKernel make_checked_kernel(OpDef schema, KernelBody body);

/// The names of the operators that ship with ctir and have a reference kernel here.
const std::vector<std::string_view>& builtin_kernel_names();

/// The reference kernel of the built-in operator `schema` describes (found by its
/// name); throws ctir::Error for a name that is not a built-in.
///
/// Semantics: elementwise operators broadcast like numpy and use the scalar rules of
/// eval::binary (integers wrap, `divide` floors and rejects an integer zero divisor,
/// floats are IEEE, `maximum`/`minimum` propagate NaN); float functions compute in
/// float64 and round once; `matmul` and `sum` accumulate in float64 (floats) or
/// wrapping 64-bit integers and round once; `sum` of bool is "any".
OpKernel builtin_kernel(const OpDef& schema);

/// Attaches the reference kernels of the built-in operators to `registry`, leaving any
/// kernel already attached (a user's replacement) alone. Operators the registry lacks
/// are skipped.
void install_builtin_kernels(OpRegistry& registry);

/// Makes sure the global registry's built-in operators have their kernels; cheap after
/// the first call. ir/ sits below eval/, so the interpreter and the passes that evaluate
/// operators call it before they look a kernel up.
void ensure_builtin_kernels();

} // namespace ctir::eval

#ifdef CTIR_HEADER_ONLY
#include <ctir/eval/kernels-inl.hpp>
#endif
