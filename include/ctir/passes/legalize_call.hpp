// LegalizeCall and Lowering: what a lowering of LegalizeOps is given, and what it is.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::passes {

/// One operator call to lower, as a lowering sees it: literal types, normalized
/// attributes, and the parameters of the tensor-level function being generated.
///
/// The function takes one parameter per argument (`inputs`, typed like the arguments)
/// and the output buffer last (`output`, typed like the call); the lowering returns its
/// body, which must write every element of `output` (the buffer is not assumed zero).
struct LegalizeCall {
  /// The operator's name.
  std::string op;
  /// The call's attributes with the operator's defaults filled in.
  Attrs attrs;
  /// The argument types, every dimension a literal.
  std::vector<TensorType> input_types;
  /// The call's type, every dimension a literal.
  TensorType output_type;
  /// The generated function's input parameters, one per argument.
  std::vector<Var> inputs;
  /// The generated function's output parameter.
  Var output;
  /// The dtype of loop variables and index arithmetic: int32, or int64 when a tensor
  /// has more elements than int32 can count.
  DataType index_dtype = DataType::int32();

  /// The literal dimensions of input `i`.
  std::vector<std::int64_t> input_shape(std::size_t i) const;
  /// The literal dimensions of the output.
  std::vector<std::int64_t> output_shape() const;
  /// An index literal of `index_dtype`.
  PrimExpr index(std::int64_t value) const;

  /// Loops over every index of `shape` (outermost first, variables `<prefix>0`,
  /// `<prefix>1`, ...) around `body(indices)`; just the body for rank 0.
  Stmt loop_nest(const std::vector<std::int64_t>& shape, std::string_view prefix,
                 const std::function<Stmt(const std::vector<PrimExpr>&)>& body) const;

  /// The literal dimensions of a type whose dimensions are all literals.
  static std::vector<std::int64_t> literal_shape(const TensorType& type);
};

/// A lowering: the body of the tensor-level function computing `call`, or a null
/// statement to leave this call a graph-level call (a dtype it does not handle, ...).
using Lowering = std::function<Stmt(const LegalizeCall& call)>;

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/legalize_call-inl.hpp>
#endif
