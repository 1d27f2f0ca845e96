// The types the parser can tell without a type checker, to catch annotations that cannot match.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/type.hpp>

namespace ctir::detail {

/// How far known_type looks into an expression: annotation checks stay cheap, and a
/// deep expression costs no stack.
inline constexpr int known_type_budget = 16;

/// The type of `expr` when the parser can tell it, else null.
///
/// Known: a typed variable (its type); a literal (`Tensor[(), dtype]`, the type of a
/// graph-level scalar); a constant; a tuple or a projection of known types; call_dps
/// (its output type); a let (its body); a closure whose parameters and result are
/// annotated; an operator call whose arguments have known types (the operator's type
/// relation; unknown if the relation rejects them: reporting that is the type checker's
/// job).
Type known_type(const Expr& expr, int budget = known_type_budget);

/// Whether `type` is a scalar: a PrimType or a rank-0 TensorType (graph-level scalars
/// are written either way); sets `dtype` if so.
bool scalar_dtype_of(const TypeNode& type, DataType& dtype);

/// Whether two types certainly differ: another kind, dtype, rank or arity, or two
/// literal dimensions of different values. Symbolic dimensions never conflict (only a
/// type checker can compare them), and neither does a missing type.
bool types_conflict(const Type& a, const Type& b);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/parse_types-inl.hpp>
#endif
