// Definitions of <ctir/passes/legalize_call.hpp>.
#pragma once

#include <ctir/passes/legalize_call.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/ir/type_str.hpp>

#include <optional>

namespace ctir::passes {

CTIR_INLINE std::vector<std::int64_t> LegalizeCall::input_shape(std::size_t i) const {
  return literal_shape(input_types.at(i));
}

CTIR_INLINE std::vector<std::int64_t> LegalizeCall::output_shape() const {
  return literal_shape(output_type);
}

CTIR_INLINE PrimExpr LegalizeCall::index(std::int64_t value) const {
  return IntImm::make(value, index_dtype);
}

CTIR_INLINE Stmt
LegalizeCall::loop_nest(const std::vector<std::int64_t>& shape, std::string_view prefix,
                        const std::function<Stmt(const std::vector<PrimExpr>&)>& body) const {
  std::vector<Var> vars;
  std::vector<PrimExpr> indices;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    vars.push_back(Var::make(std::string(prefix) + std::to_string(d), index_dtype));
    indices.push_back(vars.back());
  }
  Stmt stmt = body(indices);
  for (std::size_t d = shape.size(); d-- > 0;) {
    stmt = For::make(vars[d], index(0), index(shape[d]), stmt);
  }
  return stmt;
}

CTIR_INLINE std::vector<std::int64_t> LegalizeCall::literal_shape(const TensorType& type) {
  std::vector<std::int64_t> shape;
  for (const PrimExpr& dim : type->shape) {
    const std::optional<std::int64_t> value = ops::static_dim(dim);
    if (!value) {
      throw Error("ctir: LegalizeCall: " + type_str(type) + " has the non-literal dimension " +
                  prim_expr_str(dim));
    }
    shape.push_back(*value);
  }
  return shape;
}

} // namespace ctir::passes
