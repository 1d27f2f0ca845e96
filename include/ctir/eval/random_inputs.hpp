// Deterministic random inputs for a function's parameter types (ctir-opt --inputs random:SEED).
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/module.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace ctir::eval {

/// How random_inputs picks what the types leave open.
struct RandomInputOptions {
  /// The size of every symbolic dimension (each shape variable gets this value).
  std::int64_t dim = 4;
};

/// Random values for the parameters of `function`, the same for the same seed on
/// every platform.
///
/// Every shape variable (a parameter dimension that is a bare variable) gets
/// `options.dim`; dimensions computed from shape variables (`%n + 1`) are evaluated; a
/// scalar parameter that is itself a shape variable gets that variable's value. Graph-
/// level scalars are rank-0 tensors, tensor-level ones scalars; tuple types give tuples.
/// Tensor-level functions get random values for every parameter, outputs included.
///
/// Throws EvalError naming the parameter for a parameter without a type or of a type no
/// value can be made for (a function type), or a dimension that is negative or too big.
std::vector<Value> random_inputs(const BaseFunc& function, std::uint64_t seed,
                                 RandomInputOptions options = {});

/// Random inputs for the module's function `name` (see the other overload).
std::vector<Value> random_inputs(const IRModule& module, std::string_view name, std::uint64_t seed,
                                 RandomInputOptions options = {});

} // namespace ctir::eval

#ifdef CTIR_HEADER_ONLY
#include <ctir/eval/random_inputs-inl.hpp>
#endif
