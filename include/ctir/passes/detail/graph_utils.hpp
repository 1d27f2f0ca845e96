// Helpers the graph-level passes share: comparing and matching types, literal types, operands.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/type.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace ctir::passes::detail {

/// Whether two types are the same: equal kinds and dtypes, and dimensions that are
/// provably equal (ops::dims_equal: symbolic dimensions compare by variable identity).
bool types_equal(const Type& a, const Type& b);

/// Shape variables of a callee bound to the caller's dimensions.
using DimBindings = std::unordered_map<const VarNode*, PrimExpr>;

/// `dim` with the bound variables replaced.
PrimExpr substitute_dim(const PrimExpr& dim, const DimBindings& bound);

/// `type` with the bound shape variables replaced.
Type substitute_type(const Type& type, const DimBindings& bound);

/// Whether an argument of type `actual` fits a parameter of type `formal`. A dimension of
/// `formal` that is a variable not bound yet binds to the argument's dimension (the
/// callee's shape variables); every other dimension must be provably equal once
/// substituted.
bool match_type(const Type& formal, const Type& actual, DimBindings& bound);

/// The graph-level type of a tensor-level scalar expression used in graph code (a literal
/// such as `2f`, shape arithmetic): a rank-0 tensor of its dtype.
Type scalar_tensor_type(const PrimExpr& e);

/// The type of a constant: its shape and dtype.
Type constant_type(const ConstantNode& constant);

/// The text of a type for messages ("no type" for null).
std::string type_text(const Type& type);

/// Whether a field of a node type holds operands: declared as ir.Expr, not a definition
/// site (read from the type's hooks).
bool is_operand_field(const FieldInfo& field) noexcept;

/// Whether `e` has graph-level operands (calls, tuples, projections, lets, ifs, closures,
/// call_dps, and any node type with an ir.Expr field); everything else is a leaf.
bool is_composite(const Expr& e);
/// is_composite for an operand as for_each_operand reports it (null: not composite).
bool is_composite(const Object* node);

/// Calls `f(operand)` for each operand of `node` (a `const Object*`, null where one is
/// missing) in field order, which is evaluation order: a call's callee then its arguments,
/// a let's value then its body, an if's condition then its branches, a closure's body. The
/// one walk over the operand fields that append_operands and type inference share.
template <class F>
void for_each_operand(const Object& node, F&& f) {
  for (const FieldInfo& field : node.type_info().fields) {
    if (!is_operand_field(field)) {
      continue;
    }
    if (field.kind == FieldKind::node) {
      f(field.get(node, field));
    } else {
      const std::size_t size = field.size(node, field);
      for (std::size_t i = 0; i < size; ++i) {
        f(field.at(node, field, i));
      }
    }
  }
}

/// Appends the operands of `e` (in for_each_operand's order) to `out`: traversals that
/// visit every node reuse one buffer instead of allocating a vector per node.
void append_operands(const Expr& e, std::vector<Expr>& out);

/// The innermost scope enclosing scopes `a` and `b` of a tree stored as records with a
/// `parent` index and a `depth` (the scope trees of EliminateCommonSubexpr and
/// ToANormalForm, which place a shared node where all its uses are).
template <class Scope>
std::size_t common_ancestor(const std::vector<Scope>& scopes, std::size_t a, std::size_t b) {
  while (scopes[a].depth > scopes[b].depth) {
    a = scopes[a].parent;
  }
  while (scopes[b].depth > scopes[a].depth) {
    b = scopes[b].parent;
  }
  while (a != b) {
    a = scopes[a].parent;
    b = scopes[b].parent;
  }
  return a;
}

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/graph_utils-inl.hpp>
#endif
