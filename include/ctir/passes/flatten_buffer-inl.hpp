// Definitions of <ctir/passes/flatten_buffer.hpp>.
#pragma once

#include <ctir/passes/flatten_buffer.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// The variables `expr` mentions.
CTIR_INLINE std::vector<const VarNode*> vars_in(const PrimExpr& expr) {
  std::vector<const VarNode*> out;
  walk(expr, [&](const Var& v) { out.push_back(v.get()); });
  return out;
}

/// A flattened tensor's dimensions, converted to the dtype its flat size and offsets are
/// computed in.
struct FlatShape {
  std::vector<PrimExpr> dims;
  DataType index;
};

/// Whether `value` is a value of the integer dtype `dtype`.
CTIR_INLINE bool fits(std::int64_t value, DataType dtype) {
  if (dtype.bits >= 64) {
    return dtype.is_int() || value >= 0;
  }
  const std::int64_t span = std::int64_t{1} << (dtype.bits - (dtype.is_int() ? 1U : 0U));
  return dtype.is_int() ? -span <= value && value < span : 0 <= value && value < span;
}

/// `expr` as a value of `dtype`: a literal remade, anything else cast.
CTIR_INLINE PrimExpr as_index(const PrimExpr& expr, DataType dtype) {
  if (dtype_of(expr) == dtype) {
    return expr;
  }
  if (const auto* literal = expr.as<IntImmNode>()) {
    return IntImm::make(literal->value, dtype);
  }
  return cast(dtype, expr);
}

/// The dimensions of `buffer` (rank at least 2) in the dtype that holds its flat size, so
/// that no offset wraps: the dimensions' own dtype when they are literals whose product it
/// holds, or when it is 64 bits wide; int64 otherwise (as TVM promotes indices), since a
/// product of narrower symbolic dimensions may exceed their dtype at run time. A literal
/// shape whose product int64 cannot hold is an error naming the buffer.
CTIR_INLINE FlatShape flat_shape(const Var& buffer) {
  const auto& shape = buffer->ty.as<TensorTypeNode>()->shape;
  DataType dtype = dtype_of(shape[0]);
  bool literal = true;
  std::int64_t product = 1;
  bool overflow = false;
  for (const PrimExpr& dim : shape) {
    if (dtype_of(dim) != dtype) {
      dtype = DataType::int64();
    }
    const auto* value = dim.as<IntImmNode>();
    literal = literal && value != nullptr;
    overflow = overflow || (literal && __builtin_mul_overflow(product, value->value, &product));
  }
  if (literal && overflow) {
    throw NodeError(buffer, "ctir: FlattenBuffer cannot flatten %" + buffer->name + ": " +
                                type_str(buffer->ty) +
                                " has more elements than int64 can index (split it into "
                                "smaller tensors)");
  }
  FlatShape out{{}, dtype};
  if (!dtype.is_integer() || (literal ? !fits(product, dtype) : dtype.bits < 64)) {
    out.index = DataType::int64();
  }
  for (const PrimExpr& dim : shape) {
    out.dims.push_back(as_index(dim, out.index));
  }
  return out;
}

/// The 1-D tensor type holding the elements of `type` in row-major order.
CTIR_INLINE Type flat_type(const FlatShape& shape, DataType element) {
  PrimExpr size = shape.dims[0];
  for (std::size_t i = 1; i < shape.dims.size(); ++i) {
    size = size * shape.dims[i];
  }
  return TensorType::make({simplify(size)}, element);
}

/// The row-major offset of `indices` in a tensor of `shape`, computed in its index dtype.
CTIR_INLINE PrimExpr linear_index(const FlatShape& shape, const std::vector<PrimExpr>& indices) {
  PrimExpr offset = as_index(indices[0], shape.index);
  for (std::size_t i = 1; i < indices.size(); ++i) {
    offset = offset * shape.dims[i] + as_index(indices[i], shape.index);
  }
  return simplify(offset);
}

/// Whether any global function of `mod` calls `name` through call_dps.
CTIR_INLINE bool called_through_dps(const IRModule& mod, const std::string& name) {
  for (std::size_t i = 0; i < mod.size(); ++i) {
    const auto* graph = mod.function_at(i).as<FunctionNode>();
    if (graph == nullptr) {
      continue;
    }
    bool found = false;
    walk(ref_of(graph), [&](const CallDps& call) { found = found || call->func->name == name; });
    if (found) {
      return true;
    }
  }
  return false;
}

} // namespace detail

CTIR_INLINE PrimFunc flatten_buffers(const PrimFunc& f, bool flatten_params) {
  // Which tensors become 1-D: every allocation of rank 2 or more, and parameters of rank 2
  // or more whose dimensions only use variables that stay defined by the signature.
  std::unordered_set<const VarNode*> bound;
  std::vector<const VarNode*> candidates;
  for (const Var& param : f->params) {
    const auto* tensor = param->ty.as<TensorTypeNode>();
    if (tensor == nullptr) {
      bound.insert(param.get()); // a scalar parameter is its own shape variable
    } else if (tensor->ndim() >= 2 && flatten_params) {
      candidates.push_back(param.get());
    } else {
      for (const PrimExpr& dim : tensor->shape) {
        if (const auto* var = dim.as<VarNode>()) {
          bound.insert(var);
        }
      }
    }
  }
  std::unordered_map<const VarNode*, Var> flat;                   // old variable -> flattened one
  std::unordered_map<const VarNode*, detail::FlatShape> shape_of; // flattened -> its shape
  const auto flatten = [&](const Var& v) {
    detail::FlatShape shape = detail::flat_shape(v);
    Var made = Var::make(v->name, detail::flat_type(shape, v->ty.as<TensorTypeNode>()->dtype));
    shape_of.emplace(made.get(), std::move(shape));
    flat.emplace(v.get(), std::move(made));
  };
  for (const VarNode* param : candidates) {
    bool stays_defined = true;
    for (const PrimExpr& dim : param->ty.as<TensorTypeNode>()->shape) {
      for (const VarNode* var : detail::vars_in(dim)) {
        stays_defined = stays_defined && bound.contains(var);
      }
    }
    if (stays_defined) {
      flatten(ref_of(param));
    }
  }
  walk(f->body, [&](const Allocate& alloc) {
    const auto* tensor = alloc->buffer->ty.as<TensorTypeNode>();
    if (tensor != nullptr && tensor->ndim() >= 2) {
      flatten(alloc->buffer);
    }
  });
  // A tensor accessed with the wrong number of indices keeps its shape, so that the
  // interpreter still reports the access.
  const auto check_rank = [&](const Var& buffer, std::size_t rank) {
    auto it = flat.find(buffer.get());
    if (it != flat.end() && buffer->ty.as<TensorTypeNode>()->ndim() != rank) {
      shape_of.erase(it->second.get());
      flat.erase(it);
    }
  };
  walk(
      f->body, [&](const TensorLoad& load) { check_rank(load->source, load->indices.size()); },
      [&](const TensorStore& store) { check_rank(store->dest, store->indices.size()); });
  if (flat.empty()) {
    return f;
  }
  const auto flat_indices = [&](const Var& buffer, const std::vector<PrimExpr>& indices) {
    return std::vector<PrimExpr>{
        detail::linear_index(shape_of.find(buffer.get())->second, indices)};
  };
  return map(
      f,
      [&](const Var& v) -> Var {
        auto it = flat.find(v.get());
        return it == flat.end() ? v : it->second;
      },
      [&](const TensorLoad& load) -> PrimExpr {
        if (!shape_of.contains(load->source.get())) {
          return load;
        }
        return TensorLoad::make(load->source, flat_indices(load->source, load->indices));
      },
      [&](const TensorStore& store) -> Stmt {
        if (!shape_of.contains(store->dest.get())) {
          return store;
        }
        return TensorStore::make(store->dest, flat_indices(store->dest, store->indices),
                                 store->value);
      });
}

CTIR_INLINE PrimFunc FlattenBuffer::transform_function(PrimFunc f, const IRModule& mod,
                                                       const PassContext&) const {
  bool called = false;
  for (std::size_t i = 0; i < mod.size() && !called; ++i) {
    if (mod.function_at(i).same_as(f)) {
      called = detail::called_through_dps(mod, mod.global_at(i)->name);
    }
  }
  return flatten_buffers(f, !called);
}

} // namespace ctir::passes
