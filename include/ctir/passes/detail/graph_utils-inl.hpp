// Definitions of <ctir/passes/detail/graph_utils.hpp>.
#pragma once

#include <ctir/passes/detail/graph_utils.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/ops.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/traverse/map.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace ctir::passes::detail {

CTIR_INLINE bool types_equal(const Type& a, const Type& b) {
  if (a.same_as(b)) {
    return true;
  }
  if (!a.defined() || !b.defined() || a->dynamic_type_index() != b->dynamic_type_index()) {
    return false;
  }
  if (const auto* x = a.as<PrimTypeNode>()) {
    return x->dtype == b.as<PrimTypeNode>()->dtype;
  }
  if (const auto* x = a.as<TensorTypeNode>()) {
    const auto* y = b.as<TensorTypeNode>();
    if (x->dtype != y->dtype || x->shape.size() != y->shape.size()) {
      return false;
    }
    for (std::size_t i = 0; i < x->shape.size(); ++i) {
      if (!ops::dims_equal(x->shape[i], y->shape[i])) {
        return false;
      }
    }
    return true;
  }
  if (const auto* x = a.as<TupleTypeNode>()) {
    const auto* y = b.as<TupleTypeNode>();
    if (x->fields.size() != y->fields.size()) {
      return false;
    }
    for (std::size_t i = 0; i < x->fields.size(); ++i) {
      if (!types_equal(x->fields[i], y->fields[i])) {
        return false;
      }
    }
    return true;
  }
  if (const auto* x = a.as<FuncTypeNode>()) {
    const auto* y = b.as<FuncTypeNode>();
    if (x->params.size() != y->params.size() || !types_equal(x->ret, y->ret)) {
      return false;
    }
    for (std::size_t i = 0; i < x->params.size(); ++i) {
      if (!types_equal(x->params[i], y->params[i])) {
        return false;
      }
    }
    return true;
  }
  return false;
}

CTIR_INLINE PrimExpr substitute_dim(const PrimExpr& dim, const DimBindings& bound) {
  if (bound.empty()) {
    return dim;
  }
  return map(dim, [&](const Var& v) -> PrimExpr {
    auto it = bound.find(v.get());
    return it == bound.end() ? PrimExpr(v) : it->second;
  });
}

CTIR_INLINE Type substitute_type(const Type& type, const DimBindings& bound) {
  if (bound.empty() || !type.defined()) {
    return type;
  }
  if (const auto* tensor = type.as<TensorTypeNode>()) {
    std::vector<PrimExpr> shape;
    shape.reserve(tensor->shape.size());
    for (const PrimExpr& dim : tensor->shape) {
      shape.push_back(substitute_dim(dim, bound));
    }
    return TensorType::make(std::move(shape), tensor->dtype);
  }
  if (const auto* tuple = type.as<TupleTypeNode>()) {
    std::vector<Type> fields;
    for (const Type& field : tuple->fields) {
      fields.push_back(substitute_type(field, bound));
    }
    return TupleType::make(std::move(fields));
  }
  if (const auto* func = type.as<FuncTypeNode>()) {
    std::vector<Type> params;
    for (const Type& param : func->params) {
      params.push_back(substitute_type(param, bound));
    }
    return FuncType::make(std::move(params), substitute_type(func->ret, bound));
  }
  return type;
}

CTIR_INLINE bool match_type(const Type& formal, const Type& actual, DimBindings& bound) {
  if (!formal.defined() || !actual.defined() ||
      formal->dynamic_type_index() != actual->dynamic_type_index()) {
    return false;
  }
  if (const auto* x = formal.as<TensorTypeNode>()) {
    const auto* y = actual.as<TensorTypeNode>();
    if (x->dtype != y->dtype || x->shape.size() != y->shape.size()) {
      return false;
    }
    for (std::size_t i = 0; i < x->shape.size(); ++i) {
      if (const auto* var = x->shape[i].as<VarNode>()) {
        if (!bound.contains(var)) {
          bound.emplace(var, y->shape[i]);
          continue;
        }
      }
      if (!ops::dims_equal(substitute_dim(x->shape[i], bound), y->shape[i])) {
        return false;
      }
    }
    return true;
  }
  if (const auto* x = formal.as<TupleTypeNode>()) {
    const auto* y = actual.as<TupleTypeNode>();
    if (x->fields.size() != y->fields.size()) {
      return false;
    }
    for (std::size_t i = 0; i < x->fields.size(); ++i) {
      if (!match_type(x->fields[i], y->fields[i], bound)) {
        return false;
      }
    }
    return true;
  }
  return types_equal(substitute_type(formal, bound), actual);
}

CTIR_INLINE Type scalar_tensor_type(const PrimExpr& e) { return TensorType::make({}, dtype_of(e)); }

CTIR_INLINE Type constant_type(const ConstantNode& constant) {
  std::vector<PrimExpr> shape;
  shape.reserve(constant.data.shape().size());
  for (std::int64_t d : constant.data.shape()) {
    shape.push_back(IntImm::make(d));
  }
  return TensorType::make(std::move(shape), constant.data.dtype());
}

CTIR_INLINE std::string type_text(const Type& type) {
  return type.defined() ? type_str(type) : std::string("no type");
}

/// Whether a field holds operands: declared as ir.Expr (any dataflow value), and not a
/// definition site. Read from the node type's hooks, so a graph-level node type declared
/// outside ctir has its operands too.
CTIR_INLINE bool is_operand_field(const FieldInfo& field) noexcept {
  return !field.ignored() && field.kind != FieldKind::value &&
         field.def_kind == DefRegionKind::none && field.element_type_index == ExprNode::type_index;
}

CTIR_INLINE bool is_composite(const Expr& e) { return is_composite(e.get()); }

CTIR_INLINE bool is_composite(const Object* node) {
  if (node == nullptr || instance_of<VarNode>(*node)) {
    return false;
  }
  for (const FieldInfo& field : node->type_info().fields) {
    if (is_operand_field(field)) {
      return true;
    }
  }
  return false;
}

CTIR_INLINE void append_operands(const Expr& e, std::vector<Expr>& out) {
  if (!e.defined()) {
    return;
  }
  for_each_operand(*e, [&out](const Object* operand) {
    out.push_back(downcast<ExprNode>(ObjectRef::borrow(operand)));
  });
}

} // namespace ctir::passes::detail
