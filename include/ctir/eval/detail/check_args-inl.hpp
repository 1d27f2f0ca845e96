// Definitions of <ctir/eval/interpreter.hpp>: arguments, results and let values checked
// against their declared types, binding shape variables on the way.
#pragma once

#include <ctir/eval/interpreter.hpp>

#include <ctir/eval/error.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::eval {

CTIR_INLINE bool Interpreter::matches(const Type& type, const Value& value, detail::Env& env,
                                      bool bind, std::string& why) {
  if (!type.defined()) {
    return true;
  }
  if (const auto* tensor = type.as<TensorTypeNode>()) {
    const Value v = value.is_scalar() ? Value(to_tensor(value.as_scalar())) : value;
    if (!v.is_tensor()) {
      why = "a " + std::string(Value::kind_name(v.kind())) + " is not a tensor";
      return false;
    }
    const TensorData& data = v.as_tensor();
    if (data.dtype() != tensor->dtype) {
      why = "the dtype is " + data.dtype().str() + ", not " + tensor->dtype.str();
      return false;
    }
    if (data.ndim() != tensor->ndim()) {
      why =
          "the rank is " + std::to_string(data.ndim()) + ", not " + std::to_string(tensor->ndim());
      return false;
    }
    for (std::size_t d = 0; d < data.ndim(); ++d) {
      const PrimExpr& dim = tensor->shape[d];
      const std::int64_t actual = data.shape()[d];
      if (const auto* var = dim.as<VarNode>(); var != nullptr && !env.contains(var)) {
        if (bind) {
          env[var] = Scalar::make_int(dtype_of(dim), actual);
        }
        continue;
      }
      const Scalar expected = eval_scalar(dim.get(), env, current_name());
      if (expected.as_int() != actual) {
        why = "dimension " + std::to_string(d) + " is " + std::to_string(actual) + ", but " +
              prim_expr_str(dim) +
              (dim.is<IntImmNode>() ? std::string() : " is " + std::to_string(expected.as_int()));
        return false;
      }
    }
    return true;
  }
  if (const auto* prim = type.as<PrimTypeNode>()) {
    DataType actual;
    if (value.is_scalar()) {
      actual = value.as_scalar().dtype;
    } else if (value.is_tensor() && value.as_tensor().ndim() == 0) {
      actual = value.as_tensor().dtype();
    } else {
      why = "it is not a scalar";
      return false;
    }
    if (actual != prim->dtype) {
      why = "the dtype is " + actual.str() + ", not " + prim->dtype.str();
      return false;
    }
    return true;
  }
  if (const auto* tuple = type.as<TupleTypeNode>()) {
    if (!value.is_tuple()) {
      why = "a " + std::string(Value::kind_name(value.kind())) + " is not a tuple";
      return false;
    }
    if (value.fields().size() != tuple->fields.size()) {
      why = "it has " + std::to_string(value.fields().size()) + " fields, not " +
            std::to_string(tuple->fields.size());
      return false;
    }
    for (std::size_t k = 0; k < tuple->fields.size(); ++k) {
      if (!matches(tuple->fields[k], value.fields()[k], env, bind, why)) {
        why = "field " + std::to_string(k) + ": " + why;
        return false;
      }
    }
    return true;
  }
  if (const auto* func = type.as<FuncTypeNode>()) {
    if (!value.is_closure()) {
      why = "a " + std::string(Value::kind_name(value.kind())) + " is not a function";
      return false;
    }
    if (value.as_closure().function->params.size() != func->params.size()) {
      why = "it takes " + std::to_string(value.as_closure().function->params.size()) +
            " parameters, not " + std::to_string(func->params.size());
      return false;
    }
    return true;
  }
  return true;
}

CTIR_INLINE void Interpreter::bind_dims(const Type& type, const Value& value, detail::Env& env) {
  if (const auto* tensor = type.as<TensorTypeNode>()) {
    if (!value.is_tensor() || value.as_tensor().ndim() != tensor->ndim()) {
      return;
    }
    for (std::size_t d = 0; d < tensor->ndim(); ++d) {
      const PrimExpr& dim = tensor->shape[d];
      if (const auto* var = dim.as<VarNode>(); var != nullptr && !env.contains(var)) {
        env[var] = Scalar::make_int(dtype_of(dim), value.as_tensor().shape()[d]);
      }
    }
  } else if (const auto* tuple = type.as<TupleTypeNode>()) {
    if (value.is_tuple() && value.fields().size() == tuple->fields.size()) {
      for (std::size_t k = 0; k < tuple->fields.size(); ++k) {
        bind_dims(tuple->fields[k], value.fields()[k], env);
      }
    }
  }
}

CTIR_INLINE void Interpreter::check_type(const Type& type, const Value& value, detail::Env& env,
                                         const Object* node, const std::string& what) {
  std::string why;
  if (!matches(type, value, env, false, why)) {
    fail(node, what + " has type " + type_str(value.type()) + ", but " + type_str(type) +
                   " is declared (" + why + ")");
  }
}

CTIR_INLINE void Interpreter::bind_params(detail::Env& env, const std::vector<Var>& params,
                                          std::vector<Value>& args, bool tensor_level,
                                          const Object* site, std::string_view fname) {
  if (args.size() != params.size()) {
    fail(site,
         "@" + std::string(fname) + " takes " + std::to_string(params.size()) + " input" +
             (params.size() == 1 ? "" : "s") + ", but " + std::to_string(args.size()) +
             (args.size() == 1 ? " was" : " were") + " given",
         fname);
  }
  const auto param_str = [&](std::size_t k) {
    return "input " + std::to_string(k) + " (" + detail::var_str(params[k].get()) + ") of @" +
           std::string(fname);
  };
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!params[k].defined()) {
      fail(site, "parameter " + std::to_string(k) + " is null", fname);
    }
    std::string why;
    const Type& type = params[k]->ty;
    if (type.is<PrimTypeNode>()) {
      if (!env.contains(params[k].get()) && matches(type, args[k], env, true, why)) {
        env[params[k].get()] =
            args[k].is_scalar() ? args[k] : Value(read_element(args[k].as_tensor(), 0));
      }
    } else {
      bind_dims(type, args[k], env); // checked below
    }
  }
  for (std::size_t k = 0; k < params.size(); ++k) {
    std::string why;
    const Type& type = params[k]->ty;
    bool ok = false;
    try {
      ok = matches(type, args[k], env, false, why);
    } catch (const EvalError& e) {
      why = e.what();
    }
    if (!ok) {
      fail(site,
           param_str(k) + " must be " + type_str(type) + ", but it is " + type_str(args[k].type()) +
               " (" + why + ")",
           fname);
    }
    if (type.is<PrimTypeNode>()) {
      const Scalar given =
          args[k].is_scalar() ? args[k].as_scalar() : read_element(args[k].as_tensor(), 0);
      const auto bound = env.find(params[k].get());
      if (bound != env.end() && bound->second.is_scalar() &&
          !(bound->second.as_scalar() == given)) {
        fail(site,
             param_str(k) + " is " + to_string(given) + ", but the shapes of the inputs make it " +
                 to_string(bound->second.as_scalar()),
             fname);
      }
      env[params[k].get()] = tensor_level ? Value(given) : Value(to_tensor(given));
    } else {
      // Moved: an output buffer then has one owner and is written in place.
      env[params[k].get()] = tensor_level ? std::move(args[k]) : graph_value(std::move(args[k]));
    }
  }
}

} // namespace ctir::eval
