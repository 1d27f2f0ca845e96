// The parser of the unified text format: modules, expressions and types from text.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/text/diagnostic.hpp>
#include <ctir/text/nesting.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace ctir {

/// Parses a whole module: `def` (graph-level) and `prim` (tensor-level) definitions in
/// any order, in the format that `print` writes (docs: TEXT_FORMAT.md).
///
/// `print(parse_module(text))` is `text` when the text is canonical (as printed), and
/// `parse_module(print(m))` is structurally equal to `m`. Every expression and statement
/// gets its source span (file, line, column, end; the end column is exclusive), so later
/// passes can point at the text.
///
/// What the text means:
/// - `%0 = e;` names `e`: every `%0` after it is that one node (sharing, no Let);
///   `let %v[: T] = e;` is a Let whose body is the rest of the block.
/// - Functions may call functions defined later; call_dps must call a `prim`.
/// - Operator calls are checked against the operator registry: the name (with the
///   nearest names suggested), the number of arguments, and the attributes (keys and
///   kinds; required ones present). The attributes are kept as written, not normalized.
/// - In a `prim`, `[%n, %m: int64]` lists the shape variables (int32 unless annotated),
///   which must be exactly the variables the parameter types use as dimensions; a
///   parameter named like a shape variable is that variable. In a `def` or closure, a
///   dimension variable that is not defined yet is defined by the parameter type that
///   mentions it (an int32).
/// - A `for` variable takes the dtype of the loop's start; an unannotated tensor-level
///   `let` variable the dtype of its value (the rules of dtype_of).
/// - `-` right before a number is its sign (`-3`, `%a - -3`); with a space or parentheses
///   in between it negates (`-(3)`). `%` followed by a name character is a variable, so
///   the modulo operator needs a space after it (`%i % 16`).
/// - `min`, `max`, `select` and `cast<T>` are the tensor-level forms, never operators.
///
/// Throws ParseError (`file:line:column: error: message`, the line and a caret) at the
/// first syntax error, undefined variable or global, unknown operator, bad operator
/// call, duplicate definition (of a global, or of a variable in one scope: a block,
/// or a function's parameters and body), type annotation that certainly does not match
/// (see below), or nesting deeper than max_nesting_depth. No input crashes the parser
/// or makes it hang; time and memory are linear in the size of the text.
///
/// Type annotations are checked where the parser knows the value's type without a type
/// checker: a graph-level `let %v: T = e;` and a function's result type `-> T`, when `e`
/// (the body) is a literal, a constant, a typed variable, a tuple or projection of such,
/// a call_dps, a closure with annotated parameters and result, or an operator call whose
/// operands' types are known (through the operator's type relation). Types conflict when
/// they differ in kind, dtype, rank or a literal dimension (`Tensor[(), float32]` and
/// `float32` are the same scalar); symbolic dimensions never conflict. A shape variable
/// declared with one type and a parameter of that name with another is also an error.
IRModule parse_module(std::string_view text, std::string_view file_name = "<input>");

/// Parses a graph-level expression: bindings (`%0 = e;`, `let %v = e;`) then a result,
/// as print writes an expression on its own.
///
/// A variable used without a definition is free: it becomes a new untyped variable,
/// the same one at each mention (so `add(%x, %x)` adds a variable to itself). Globals
/// are not resolved (there is no module). Scalar arithmetic is written as in
/// tensor-level code (`add(%x, %n + 1)`).
Expr parse_expr(std::string_view text, std::string_view file_name = "<input>");

/// Parses a graph-level expression whose free variables are `free_vars`, found by their
/// names (which must be distinct); any other undefined variable is an error.
Expr parse_expr(std::string_view text, const std::vector<Var>& free_vars,
                std::string_view file_name = "<input>");

/// Parses a tensor-level (scalar) expression: `%A[%i] + 1f`. Free variables become new
/// untyped variables, as in parse_expr.
PrimExpr parse_prim_expr(std::string_view text, std::string_view file_name = "<input>");

/// Parses a tensor-level expression whose free variables are `free_vars` (by name).
PrimExpr parse_prim_expr(std::string_view text, const std::vector<Var>& free_vars,
                         std::string_view file_name = "<input>");

/// Parses a type: `int32`, `Tensor[(2, %n), float32]`, `Tuple[...]`, `fn (...) -> T`.
/// Variables in dimensions are free, as in parse_expr.
Type parse_type(std::string_view text, std::string_view file_name = "<input>");

/// Parses a type whose dimension variables are `free_vars` (by name).
Type parse_type(std::string_view text, const std::vector<Var>& free_vars,
                std::string_view file_name = "<input>");

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/parser-inl.hpp>
#endif
