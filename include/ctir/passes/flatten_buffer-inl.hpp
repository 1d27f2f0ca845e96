// Definitions of <ctir/passes/flatten_buffer.hpp>.
#pragma once

#include <ctir/passes/flatten_buffer.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <cstddef>
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

/// The 1-D tensor type holding the elements of `type` (rank at least 2) in row-major order.
CTIR_INLINE Type flat_type(const TensorTypeNode& type) {
  PrimExpr size = type.shape[0];
  for (std::size_t i = 1; i < type.shape.size(); ++i) {
    size = size * type.shape[i];
  }
  return TensorType::make({simplify(size)}, type.dtype);
}

/// The row-major offset of `indices` in a tensor of `shape`.
CTIR_INLINE PrimExpr linear_index(const std::vector<PrimExpr>& shape,
                                  const std::vector<PrimExpr>& indices) {
  PrimExpr offset = indices[0];
  for (std::size_t i = 1; i < indices.size(); ++i) {
    offset = offset * shape[i] + indices[i];
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
  std::unordered_map<const VarNode*, Var> flat; // old variable -> flattened one
  std::unordered_map<const VarNode*, const TensorTypeNode*> shape_of; // flattened -> old type
  const auto flatten = [&](const Var& v) {
    const auto* tensor = v->ty.as<TensorTypeNode>();
    Var made = Var::make(v->name, detail::flat_type(*tensor));
    shape_of.emplace(made.get(), tensor);
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
        detail::linear_index(shape_of.find(buffer.get())->second->shape, indices)};
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
