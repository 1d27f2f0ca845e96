// Definitions of <ctir/text/detail/parse_types.hpp>.
#pragma once

#include <ctir/text/detail/parse_types.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/var.hpp>

#include <cstddef>
#include <exception>
#include <utility>
#include <vector>

namespace ctir::detail {

CTIR_INLINE Type known_type(const Expr& expr, int budget) {
  if (!expr.defined() || budget <= 0) {
    return {};
  }
  const Object& node = *expr;
  switch (node.dynamic_type_index()) {
  case VarNode::type_index:
    return static_cast<const VarNode&>(node).ty;
  case IntImmNode::type_index:
    return TensorType::make({}, static_cast<const IntImmNode&>(node).dtype);
  case FloatImmNode::type_index:
    return TensorType::make({}, static_cast<const FloatImmNode&>(node).dtype);
  case ConstantNode::type_index: {
    const TensorData& data = static_cast<const ConstantNode&>(node).data;
    std::vector<PrimExpr> shape;
    for (std::int64_t d : data.shape()) {
      shape.push_back(IntImm::make(d));
    }
    return TensorType::make(std::move(shape), data.dtype());
  }
  case TupleNode::type_index: {
    std::vector<Type> fields;
    for (const Expr& field : static_cast<const TupleNode&>(node).fields) {
      Type ty = known_type(field, budget - 1);
      if (!ty.defined()) {
        return {};
      }
      fields.push_back(std::move(ty));
    }
    return TupleType::make(std::move(fields));
  }
  case TupleGetItemNode::type_index: {
    const auto& item = static_cast<const TupleGetItemNode&>(node);
    const Type tuple = known_type(item.tuple, budget - 1);
    const auto* fields = tuple.as<TupleTypeNode>();
    if (fields == nullptr || item.index < 0 ||
        static_cast<std::size_t>(item.index) >= fields->fields.size()) {
      return {};
    }
    return fields->fields[static_cast<std::size_t>(item.index)];
  }
  case CallDpsNode::type_index:
    return static_cast<const CallDpsNode&>(node).out_type;
  case LetNode::type_index:
    return known_type(static_cast<const LetNode&>(node).body, budget - 1);
  case FunctionNode::type_index: {
    const auto& function = static_cast<const FunctionNode&>(node);
    if (!function.ret_type.defined()) {
      return {};
    }
    std::vector<Type> params;
    for (const Var& param : function.params) {
      if (!param->ty.defined()) {
        return {};
      }
      params.push_back(param->ty);
    }
    return FuncType::make(std::move(params), function.ret_type);
  }
  case CallNode::type_index: {
    const auto& call = static_cast<const CallNode&>(node);
    const auto* op = call.op.as<OpNode>();
    if (op == nullptr) {
      return {};
    }
    const OpDef* def = OpRegistry::global().find(op->name);
    if (def == nullptr) {
      return {};
    }
    std::vector<Type> inputs;
    for (const Expr& arg : call.args) {
      Type ty = known_type(arg, budget - 1);
      if (!ty.defined()) {
        return {};
      }
      inputs.push_back(std::move(ty));
    }
    try {
      return def->infer_type(inputs, call.attrs);
    } catch (const std::exception&) {
      return {};
    }
  }
  default:
    return {};
  }
}

CTIR_INLINE bool scalar_dtype_of(const TypeNode& type, DataType& dtype) {
  if (instance_of<PrimTypeNode>(type)) {
    dtype = static_cast<const PrimTypeNode&>(type).dtype;
    return true;
  }
  if (instance_of<TensorTypeNode>(type)) {
    const auto& tensor = static_cast<const TensorTypeNode&>(type);
    if (tensor.shape.empty()) {
      dtype = tensor.dtype;
      return true;
    }
  }
  return false;
}

CTIR_INLINE bool types_conflict(const Type& a, const Type& b) {
  // An explicit stack: types may nest as deep as the parser allows.
  std::vector<std::pair<const TypeNode*, const TypeNode*>> stack{{a.get(), b.get()}};
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    if (x == nullptr || y == nullptr || x == y) {
      continue;
    }
    DataType dx;
    DataType dy;
    const bool scalar_x = scalar_dtype_of(*x, dx);
    const bool scalar_y = scalar_dtype_of(*y, dy);
    if (scalar_x && scalar_y) {
      if (dx != dy) {
        return true;
      }
      continue;
    }
    if (x->dynamic_type_index() != y->dynamic_type_index()) {
      return true;
    }
    switch (x->dynamic_type_index()) {
    case TensorTypeNode::type_index: {
      const auto& tx = static_cast<const TensorTypeNode&>(*x);
      const auto& ty = static_cast<const TensorTypeNode&>(*y);
      if (tx.dtype != ty.dtype || tx.shape.size() != ty.shape.size()) {
        return true;
      }
      for (std::size_t i = 0; i < tx.shape.size(); ++i) {
        const auto* ix = tx.shape[i].as<IntImmNode>();
        const auto* iy = ty.shape[i].as<IntImmNode>();
        if (ix != nullptr && iy != nullptr && ix->value != iy->value) {
          return true;
        }
      }
      break;
    }
    case TupleTypeNode::type_index: {
      const auto& tx = static_cast<const TupleTypeNode&>(*x);
      const auto& ty = static_cast<const TupleTypeNode&>(*y);
      if (tx.fields.size() != ty.fields.size()) {
        return true;
      }
      for (std::size_t i = 0; i < tx.fields.size(); ++i) {
        stack.emplace_back(tx.fields[i].get(), ty.fields[i].get());
      }
      break;
    }
    case FuncTypeNode::type_index: {
      const auto& fx = static_cast<const FuncTypeNode&>(*x);
      const auto& fy = static_cast<const FuncTypeNode&>(*y);
      if (fx.params.size() != fy.params.size()) {
        return true;
      }
      for (std::size_t i = 0; i < fx.params.size(); ++i) {
        stack.emplace_back(fx.params[i].get(), fy.params[i].get());
      }
      stack.emplace_back(fx.ret.get(), fy.ret.get());
      break;
    }
    default:
      break; // PrimType against PrimType was handled as scalars
    }
  }
  return false;
}

} // namespace ctir::detail
