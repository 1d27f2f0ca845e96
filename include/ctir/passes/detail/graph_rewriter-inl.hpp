// Definitions of <ctir/passes/detail/graph_rewriter.hpp>.
#pragma once

#include <ctir/passes/detail/graph_rewriter.hpp>

#include <cstddef>
#include <utility>

namespace ctir::passes::detail {

CTIR_INLINE Expr with_operands(const Expr& e, const std::vector<Expr>& old,
                               std::vector<Expr>&& kids) {
  bool changed = false;
  for (std::size_t i = 0; i < old.size(); ++i) {
    changed = changed || !old[i].same_as(kids[i]);
  }
  if (!changed) {
    return e;
  }
  const Object& node = *e;
  Owned<Object> copy = clone_object(node);
  std::size_t next = 0;
  for (const FieldInfo& field : node.type_info().fields) {
    if (!is_operand_field(field)) {
      continue;
    }
    if (field.kind == FieldKind::node) {
      field.set(*copy, field, std::move(kids[next++]));
    } else {
      const std::size_t size = field.size(node, field);
      for (std::size_t i = 0; i < size; ++i) {
        field.set_at(*copy, field, i, std::move(kids[next++]));
      }
    }
  }
  const ObjectRef rebuilt = std::move(copy);
  return downcast<ExprNode>(rebuilt);
}

} // namespace ctir::passes::detail
