// Definitions of <ctir/eval/random_inputs.hpp>.
#pragma once

#include <ctir/eval/random_inputs.hpp>

#include <ctir/core/error.hpp>
#include <ctir/eval/error.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ctir::eval {

namespace detail {

/// splitmix64: a tiny generator whose output is the same on every platform (unlike
/// the standard distributions).
class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }
  /// Uniform in [0, bound).
  std::uint64_t below(std::uint64_t bound) noexcept { return next() % bound; }

private:
  std::uint64_t state_;
};

/// One random element of `dtype`: floats are multiples of 1/8 in [-4, 4) (exact in
/// every float dtype), signed integers in [-8, 8), uint8 in [0, 16), bools 0 or 1.
CTIR_INLINE Scalar random_scalar(DataType dtype, SplitMix64& rng) {
  if (dtype.is_float()) {
    return Scalar::make_float(dtype, (static_cast<double>(rng.below(64)) - 32.0) / 8.0);
  }
  if (dtype.is_bool()) {
    return Scalar::make_int(dtype, static_cast<std::int64_t>(rng.below(2)));
  }
  if (dtype.is_uint()) {
    return Scalar::make_int(dtype, static_cast<std::int64_t>(rng.below(16)));
  }
  return Scalar::make_int(dtype, static_cast<std::int64_t>(rng.below(16)) - 8);
}

} // namespace detail

CTIR_INLINE std::vector<Value> random_inputs(const BaseFunc& function, std::uint64_t seed,
                                             RandomInputOptions options) {
  if (!function.defined()) {
    throw detail::make_error(nullptr, "random_inputs of a null function", "");
  }
  const auto* graph = function.as<FunctionNode>();
  const auto* prim = function.as<PrimFuncNode>();
  if (graph == nullptr && prim == nullptr) {
    throw detail::make_error(function.get(), "random_inputs of a function of unknown kind", "");
  }
  const std::vector<Var>& params = graph != nullptr ? graph->params : prim->params;
  const bool tensor_level = prim != nullptr;
  const std::string& fname = function->name;

  // Shape variables first, so that every mention of one agrees.
  std::vector<std::pair<Var, Value>> shape_vars;
  const auto bound = [&](const VarNode* var) -> const Value* {
    for (const auto& entry : shape_vars) {
      if (entry.first.get() == var) {
        return &entry.second;
      }
    }
    return nullptr;
  };
  std::vector<const TypeNode*> pending;
  for (const Var& param : params) {
    pending.push_back(param.defined() ? param->ty.get() : nullptr);
  }
  while (!pending.empty()) {
    const TypeNode* type = pending.back();
    pending.pop_back();
    if (type == nullptr) {
      continue;
    }
    if (instance_of<TensorTypeNode>(*type)) {
      const auto* tensor = static_cast<const TensorTypeNode*>(type);
      for (const PrimExpr& dim : tensor->shape) {
        if (const auto* var = dim.as<VarNode>(); var != nullptr && bound(var) == nullptr) {
          shape_vars.emplace_back(ref_of(var), Value(Scalar::make_int(dtype_of(dim), options.dim)));
        }
      }
    } else if (instance_of<TupleTypeNode>(*type)) {
      const auto* tuple = static_cast<const TupleTypeNode*>(type);
      for (const Type& field : tuple->fields) {
        pending.push_back(field.get());
      }
    }
  }

  detail::SplitMix64 rng(seed);
  Interpreter dims{IRModule()};
  std::vector<Value> inputs;
  for (std::size_t k = 0; k < params.size(); ++k) {
    const Var& param = params[k];
    const std::string where =
        "parameter " + std::to_string(k) + " (" + detail::var_str(param.get()) + ")";
    if (!param.defined() || !param->ty.defined()) {
      throw detail::make_error(param.get(), where + " has no type, so no input can be made for it",
                               fname);
    }
    // Recursion only on tuple types, which nest as deep as the values they describe
    // (Value::max_depth).
    const std::function<Value(const Type&)> make = [&](const Type& type) -> Value {
      if (const auto* tensor = type.as<TensorTypeNode>()) {
        std::vector<std::int64_t> shape;
        for (const PrimExpr& dim : tensor->shape) {
          const Value value = dims.evaluate(dim, shape_vars);
          shape.push_back(read_element(value.as_tensor(), 0).as_int());
        }
        TensorData data;
        try {
          data = make_tensor(tensor->dtype, shape, "the input");
        } catch (const Error& e) {
          throw detail::make_error(param.get(), where + ": " + detail::without_prefix(e.what()),
                                   fname);
        }
        for (std::size_t i = 0; i < data.size(); ++i) {
          write_element(data, i, detail::random_scalar(tensor->dtype, rng));
        }
        return Value(std::move(data));
      }
      if (const auto* scalar = type.as<PrimTypeNode>()) {
        const Value* shape_var = bound(param.get());
        const Scalar value = shape_var != nullptr ? cast(scalar->dtype, shape_var->as_scalar())
                                                  : detail::random_scalar(scalar->dtype, rng);
        return tensor_level ? Value(value) : Value(to_tensor(value));
      }
      if (const auto* tuple = type.as<TupleTypeNode>()) {
        std::vector<Value> fields;
        for (const Type& field : tuple->fields) {
          fields.push_back(make(field));
        }
        return Value::tuple(std::move(fields));
      }
      throw detail::make_error(
          param.get(),
          where + " has type " + type_str(type) + ", for which no random input can be made", fname);
    };
    inputs.push_back(make(param->ty));
  }
  return inputs;
}

CTIR_INLINE std::vector<Value> random_inputs(const IRModule& module, std::string_view name,
                                             std::uint64_t seed, RandomInputOptions options) {
  return random_inputs(module.lookup(name), seed, options);
}

} // namespace ctir::eval
