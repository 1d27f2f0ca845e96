// The operators that ship with ctir, and helpers for writing type relations.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/type.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::ops {

/// The value of a dimension when it is a literal.
std::optional<std::int64_t> static_dim(const PrimExpr& dim);

/// Whether two dimensions are provably equal: equal literals (of any integer dtype), the
/// same variable, or the same operators over such dimensions.
///
/// Variables compare by identity: two variables named `n` are different dimensions.
bool dims_equal(const PrimExpr& a, const PrimExpr& b);

/// Input `index` as a tensor type; throws naming the operator, the position and the
/// actual type otherwise.
TensorType expect_tensor(std::string_view op, const std::vector<Type>& inputs, std::size_t index);

/// An axis counted from the end when negative, checked against `rank`; `what` names the
/// attribute in the message.
std::size_t normalize_axis(std::string_view op, std::string_view what, std::int64_t axis,
                           const TensorType& tensor);

/// Numpy broadcasting of two shapes, aligned from the right: equal dimensions (see
/// dims_equal) stay, a literal 1 takes the other side. Returns the result, or the
/// first mismatching pair (right-to-left) as `mismatch`.
std::optional<std::vector<PrimExpr>>
try_broadcast(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b,
              std::pair<PrimExpr, PrimExpr>* mismatch = nullptr);

/// The broadcast shape of two tensors; throws naming the operator, both types and the
/// dimensions that do not match.
std::vector<PrimExpr> broadcast_shapes(std::string_view op, const TensorType& a,
                                       const TensorType& b);

/// Throws unless both tensors have one dtype.
void expect_same_dtype(std::string_view op, const TensorType& a, const TensorType& b);

// ---------------------------------------------------------------------------------------
// Type relations of the built-in operators. Each takes the operator's name for messages,
// so one relation serves several operators.

/// Elementwise binary operators with broadcasting.
TypeRelation broadcast_relation(std::string op);

/// What element types a unary operator accepts.
enum class UnaryDomain : std::uint8_t { numeric, floating };

/// Elementwise unary operators: the input type unchanged.
TypeRelation unary_relation(std::string op, UnaryDomain domain);

/// `[..., m, k] x [..., k, n] -> [..., m, n]`; leading (batch) dimensions broadcast.
Type matmul_relation(const std::vector<Type>& inputs, const Attrs&);

/// Permutes the axes by `axes` (absent: reversed).
Type transpose_relation(const std::vector<Type>& inputs, const Attrs& attrs);

/// Gives the input a new shape of the same element count; one entry of `newshape` may be
/// -1 and is inferred (symbolically when the input has symbolic dimensions).
Type reshape_relation(const std::vector<Type>& inputs, const Attrs& attrs);

/// Sums over `axis` (absent: every axis); `keepdims` keeps the reduced axes as 1.
Type sum_relation(const std::vector<Type>& inputs, const Attrs& attrs);

/// Joins tensors along `axis`; every other dimension must match. Takes the tensors as
/// inputs, or one tuple of them.
Type concatenate_relation(const std::vector<Type>& inputs, const Attrs& attrs);

/// A tensor of attribute-given `shape` and `dtype` (zeros, ones).
TypeRelation constant_fill_relation(std::string op);

/// Registers every built-in operator into `registry`; OpRegistry::global() does this on
/// its first use. Throws ctir::Error if one of the names is taken.
void register_builtin_ops(OpRegistry& registry);

} // namespace ctir::ops

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/ops-inl.hpp>
#endif
