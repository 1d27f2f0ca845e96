// Value: what the reference interpreter computes with: tensors, tuples, closures, scalars.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ctir::eval {

class Value;

/// A graph-level function together with the values of the variables it captured.
struct Closure {
  Function function;
  std::vector<std::pair<Var, Value>> captured;
};

/// A runtime value of the interpreter, with value semantics.
///
/// One of: a dense tensor (TensorData: shape and dtype), a tuple of values, a closure
/// (a graph-level Function and its captured environment) or a scalar (tensor-level
/// code). Copies are cheap: they share the payload, and `mutable_tensor` unshares a
/// tensor before it is written (copy on write), so no write is seen through a copy.
///
/// Nesting (tuples of tuples, closures capturing closures) is limited to max_depth
/// levels, so that destroying, comparing and printing values stays within the stack.
class Value {
public:
  enum class Kind : std::uint8_t { tensor, tuple, closure, scalar };

  /// Values nest at most this deep; building a deeper one throws ctir::Error.
  static constexpr std::uint32_t max_depth = 1000;

  /// The empty tuple `()`.
  Value() : Value(tuple({})) {}
  /// A scalar.
  Value(Scalar scalar) : data_(scalar) {}
  /// A tensor.
  Value(TensorData tensor) : data_(std::make_shared<TensorData>(std::move(tensor))) {}

  static Value tensor(TensorData data) { return Value(std::move(data)); }
  static Value scalar(Scalar scalar) { return Value(scalar); }
  static Value tuple(std::vector<Value> fields) {
    std::uint32_t depth = 0;
    for (const Value& field : fields) {
      depth = std::max(depth, field.depth());
    }
    check_depth(depth + 1);
    return Value(std::make_shared<const TupleRep>(TupleRep{std::move(fields), depth + 1}));
  }
  static Value closure(Function function, std::vector<std::pair<Var, Value>> captured) {
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

  Kind kind() const noexcept { return static_cast<Kind>(data_.index()); }
  bool is_tensor() const noexcept { return kind() == Kind::tensor; }
  bool is_tuple() const noexcept { return kind() == Kind::tuple; }
  bool is_closure() const noexcept { return kind() == Kind::closure; }
  bool is_scalar() const noexcept { return kind() == Kind::scalar; }

  /// The tensor; throws ctir::Error naming the actual kind otherwise.
  const TensorData& as_tensor() const {
    expect(Kind::tensor);
    return *std::get<0>(data_);
  }
  /// The tensor for writing, unshared first if a copy of this value holds it too.
  TensorData& mutable_tensor() {
    expect(Kind::tensor);
    auto& shared = std::get<0>(data_);
    if (shared.use_count() != 1) {
      shared = std::make_shared<TensorData>(*shared);
    }
    return *shared;
  }
  /// The fields of a tuple; throws ctir::Error otherwise.
  const std::vector<Value>& fields() const {
    expect(Kind::tuple);
    return std::get<1>(data_)->fields;
  }
  const Closure& as_closure() const {
    expect(Kind::closure);
    return std::get<2>(data_)->closure;
  }
  const Scalar& as_scalar() const {
    expect(Kind::scalar);
    return std::get<3>(data_);
  }

  /// Nesting depth: 0 for tensors and scalars, 1 + the deepest part for tuples and closures.
  std::uint32_t depth() const noexcept {
    switch (kind()) {
    case Kind::tuple:
      return std::get<1>(data_)->depth;
    case Kind::closure:
      return std::get<2>(data_)->depth;
    default:
      return 0;
    }
  }

  /// The value's type with concrete dimensions: `Tensor[(2, 3), float32]`, `int32`,
  /// `Tuple[...]`, and for a closure its function's declared `fn (...) -> ...`.
  Type type() const;

  /// Same kind and contents: tensors and scalars elementwise (NaN equals NaN), tuples
  /// field by field, closures when they share the function and captured values.
  friend bool operator==(const Value& a, const Value& b);

  static std::string_view kind_name(Kind kind) noexcept {
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

private:
  struct TupleRep {
    std::vector<Value> fields;
    std::uint32_t depth;
  };
  struct ClosureRep {
    Closure closure;
    std::uint32_t depth;
  };
  explicit Value(std::shared_ptr<const TupleRep> rep) : data_(std::move(rep)) {}
  explicit Value(std::shared_ptr<const ClosureRep> rep) : data_(std::move(rep)) {}

  static void check_depth(std::uint32_t depth) {
    if (depth > max_depth) {
      throw Error("ctir: a value would nest " + std::to_string(depth) +
                  " levels deep (tuples in tuples, closures capturing closures); the limit is " +
                  std::to_string(max_depth));
    }
  }
  void expect(Kind wanted) const {
    if (kind() != wanted) {
      throw Error("ctir: expected a " + std::string(kind_name(wanted)) + " value, but got a " +
                  std::string(kind_name(kind())));
    }
  }

  std::variant<std::shared_ptr<TensorData>, std::shared_ptr<const TupleRep>,
               std::shared_ptr<const ClosureRep>, Scalar>
      data_;
};

namespace detail {

/// A shape as a list of literal dimensions.
inline std::vector<PrimExpr> literal_shape(const std::vector<std::int64_t>& shape) {
  std::vector<PrimExpr> dims;
  dims.reserve(shape.size());
  for (std::int64_t d : shape) {
    dims.push_back(d > 2147483647 ? IntImm::make(d, DataType::int64()) : IntImm::make(d));
  }
  return dims;
}

} // namespace detail

/// The type of a tensor with concrete dimensions: `Tensor[(2, 3), float32]`.
inline TensorType type_of(const TensorData& tensor) {
  return TensorType::make(detail::literal_shape(tensor.shape()), tensor.dtype());
}

inline Type Value::type() const {
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

inline bool operator==(const Value& a, const Value& b) {
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

/// Prints a value for people and for golden files.
///
/// A tensor prints its type and its elements as the text format writes constants:
/// `Tensor[(2), float32] [1f, 2.5f]`; a scalar as a literal (`3`, `0.5f`, `true`); a
/// tuple as `(v1, v2)` (`(v,)` for one field); a closure as `<closure fn (%a) with 1
/// captured value>`.
inline std::string to_string(const Value& value) {
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
