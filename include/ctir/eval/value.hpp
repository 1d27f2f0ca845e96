// Value: what the reference interpreter computes with: tensors, tuples, closures, scalars.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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
  static Value tuple(std::vector<Value> fields);
  static Value closure(Function function, std::vector<std::pair<Var, Value>> captured);

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

  static std::string_view kind_name(Kind kind) noexcept;

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

  static void check_depth(std::uint32_t depth);
  void expect(Kind wanted) const {
    if (kind() != wanted) {
      wrong_kind(wanted);
    }
  }
  /// Throws the error expect() reports (kept out of the accessors' inlined code).
  [[noreturn]] void wrong_kind(Kind wanted) const;

  std::variant<std::shared_ptr<TensorData>, std::shared_ptr<const TupleRep>,
               std::shared_ptr<const ClosureRep>, Scalar>
      data_;
};

/// The type of a tensor with concrete dimensions: `Tensor[(2, 3), float32]`.
TensorType type_of(const TensorData& tensor);

/// Prints a value for people and for golden files.
///
/// A tensor prints its type and its elements as the text format writes constants:
/// `Tensor[(2), float32] [1f, 2.5f]`; a scalar as a literal (`3`, `0.5f`, `true`); a
/// tuple as `(v1, v2)` (`(v,)` for one field); a closure as `<closure fn (%a) with 1
/// captured value>`.
std::string to_string(const Value& value);

} // namespace ctir::eval

#ifdef CTIR_HEADER_ONLY
#include <ctir/eval/value-inl.hpp>
#endif
