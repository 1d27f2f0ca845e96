// One-line renderings of types, shapes and dimension expressions, for error messages.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/type.hpp>

#include <string>
#include <vector>

namespace ctir {

/// Renders a scalar expression in the text format's infix syntax: `%n * 4 + 1`, `(%n + 1) * 2`.
///
/// Variables print as `%` and their name hint, integer literals as the bare number;
/// only the parentheses the precedence needs are written. A null expression prints `?`.
std::string prim_expr_str(const PrimExpr& expr);

/// Renders a tensor shape as the text format writes it: `(2, 3)`, `()`, `(%n, 4)`.
std::string shape_str(const std::vector<PrimExpr>& shape);

/// Renders a type as the text format writes it, for error messages.
///
/// `Tensor[(2, %n), float32]`, `Tuple[int32, Tensor[(), float32]]`, `int32`,
/// `fn (T1, T2) -> R`; a null type (not yet inferred) prints `?`.
std::string type_str(const Type& type);

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/type_str-inl.hpp>
#endif
