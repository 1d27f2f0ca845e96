// Definitions of <ctir/eval/value.hpp>.
#pragma once

#include <ctir/eval/value.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/type_str.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ctir::eval {

CTIR_INLINE Value Value::tuple(std::vector<Value> fields) {
  std::uint32_t depth = 0;
  for (const Value& field : fields) {
    depth = std::max(depth, field.depth());
  }
  check_depth(depth + 1);
  return Value(std::make_shared<const TupleRep>(TupleRep{std::move(fields), depth + 1}));
}

CTIR_INLINE Value Value::closure(Function function, std::vector<std::pair<Var, Value>> captured) {
  if (!function.defined()) {
    throw Error("ctir: a closure needs a function, not null");
  }
  std::uint32_t depth = 0;
  for (const auto& entry : captured) {
    depth = std::max(depth, entry.second.depth());
  }
  check_depth(depth + 1);
  return Value(std::make_shared<const ClosureRep>(
      ClosureRep{Closure{std::move(function), std::move(captured)}, depth + 1}));
}

CTIR_INLINE std::string_view Value::kind_name(Kind kind) noexcept {
  switch (kind) {
  case Kind::tensor:
    return "tensor";
  case Kind::tuple:
    return "tuple";
  case Kind::closure:
    return "closure";
  case Kind::scalar:
    return "scalar";
  }
  return "?";
}

CTIR_INLINE void Value::check_depth(std::uint32_t depth) {
  if (depth > max_depth) {
    throw Error("ctir: a value would nest " + std::to_string(depth) +
                " levels deep (tuples in tuples, closures capturing closures); the limit is " +
                std::to_string(max_depth));
  }
}

CTIR_INLINE void Value::wrong_kind(Kind wanted) const {
  throw Error("ctir: expected a " + std::string(kind_name(wanted)) + " value, but got a " +
              std::string(kind_name(kind())));
}

namespace detail {

/// A shape as a list of literal dimensions.
CTIR_INLINE std::vector<PrimExpr> literal_shape(const std::vector<std::int64_t>& shape) {
  std::vector<PrimExpr> dims;
  dims.reserve(shape.size());
  for (std::int64_t d : shape) {
    dims.push_back(d > 2147483647 ? IntImm::make(d, DataType::int64()) : IntImm::make(d));
  }
  return dims;
}

} // namespace detail

CTIR_INLINE TensorType type_of(const TensorData& tensor) {
  return TensorType::make(detail::literal_shape(tensor.shape()), tensor.dtype());
}

CTIR_INLINE Type Value::type() const {
  switch (kind()) {
  case Kind::tensor:
    return type_of(as_tensor());
  case Kind::scalar:
    return PrimType::make(as_scalar().dtype);
  case Kind::tuple: {
    std::vector<Type> types;
    for (const Value& field : fields()) {
      types.push_back(field.type());
    }
    return TupleType::make(std::move(types));
  }
  case Kind::closure: {
    const Function& f = as_closure().function;
    std::vector<Type> params;
    for (const Var& param : f->params) {
      params.push_back(param->ty);
    }
    return FuncType::make(std::move(params), f->ret_type);
  }
  }
  return {};
}

CTIR_INLINE bool operator==(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) {
    return false;
  }
  switch (a.kind()) {
  case Value::Kind::tensor:
    return a.as_tensor() == b.as_tensor();
  case Value::Kind::scalar:
    return a.as_scalar() == b.as_scalar();
  case Value::Kind::tuple:
    return a.fields() == b.fields();
  case Value::Kind::closure: {
    const Closure& x = a.as_closure();
    const Closure& y = b.as_closure();
    if (!x.function.same_as(y.function) || x.captured.size() != y.captured.size()) {
      return false;
    }
    for (std::size_t k = 0; k < x.captured.size(); ++k) {
      if (!x.captured[k].first.same_as(y.captured[k].first) ||
          !(x.captured[k].second == y.captured[k].second)) {
        return false;
      }
    }
    return true;
  }
  }
  return false;
}

CTIR_INLINE std::string to_string(const Value& value) {
  std::string out;
  switch (value.kind()) {
  case Value::Kind::tensor: {
    const TensorData& tensor = value.as_tensor();
    out += type_str(type_of(tensor));
    out += ' ';
    value_traits<TensorData>::print(tensor, out);
    break;
  }
  case Value::Kind::scalar:
    out += to_string(value.as_scalar());
    break;
  case Value::Kind::tuple: {
    const auto& fields = value.fields();
    out += '(';
    for (std::size_t k = 0; k < fields.size(); ++k) {
      out += k == 0 ? "" : ", ";
      out += to_string(fields[k]);
    }
    out += fields.size() == 1 ? ",)" : ")";
    break;
  }
  case Value::Kind::closure: {
    const Closure& closure = value.as_closure();
    out += "<closure fn (";
    for (std::size_t k = 0; k < closure.function->params.size(); ++k) {
      out += (k == 0 ? "%" : ", %") + closure.function->params[k]->name;
    }
    const std::size_t n = closure.captured.size();
    out += ") with " + std::to_string(n) + " captured value" + (n == 1 ? ">" : "s>");
    break;
  }
  }
  return out;
}

} // namespace ctir::eval
