// Helpers the tensor-level passes share: literals as scalars, blocks, substitution, renaming.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/eval/scalar.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/stmt.hpp>

#include <cstdint>
#include <optional>

namespace ctir::passes::detail {

/// The value of a literal (IntImm or FloatImm) as an interpreter scalar, or nothing.
std::optional<eval::Scalar> literal_value(const PrimExpr& e);

/// The literal that spells `value` in its own dtype.
PrimExpr literal_of(const eval::Scalar& value);

/// The value of an integer literal (not bool, not float), or nothing.
std::optional<std::int64_t> int_literal(const PrimExpr& e);

/// `block` with the statements of nested blocks spliced in and empty blocks dropped;
/// `block` itself when it has no nested block.
SeqStmt flatten_block(const SeqStmt& block);

/// Whether `s` is a block without statements.
bool is_empty_block(const Stmt& s);

/// `body` with every use of `var` replaced by `value` (types mentioning `var` included:
/// the variables they belong to are remade, and their uses follow).
SeqStmt substitute(const SeqStmt& body, const Var& var, const PrimExpr& value);

/// `body` with a new variable for each variable it defines (loop variables, `let`
/// variables, allocated buffers), so that a copy of it can stand next to the original.
SeqStmt fresh_definitions(const SeqStmt& body);

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/tensor_utils-inl.hpp>
#endif
