// Definitions of <ctir/ir/ops.hpp>: the type relations of the built-in operators.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/type_str.hpp>

#include <algorithm>
#include <variant>

namespace ctir::detail::ops_impl {

CTIR_INLINE std::string prefix(std::string_view op) {
  return "ctir: operator '" + std::string(op) + "'";
}

CTIR_INLINE std::int64_t checked_mul(std::string_view op, std::int64_t a, std::int64_t b) {
  std::int64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) {
    throw Error(prefix(op) + ": element count overflows 64 bits");
  }
  return result;
}
CTIR_INLINE std::int64_t checked_add(std::string_view op, std::int64_t a, std::int64_t b) {
  std::int64_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) {
    throw Error(prefix(op) + ": dimension overflows 64 bits");
  }
  return result;
}

CTIR_INLINE std::string list_str(const std::vector<std::int64_t>& values) {
  std::string out;
  value_traits<std::vector<std::int64_t>>::print(values, out);
  return out;
}

/// The attribute `key` as a T; a clear error if it is missing or of another kind (a
/// relation called directly, without normalization).
template <class T>
T attr(std::string_view op, const Attrs& attrs, std::string_view key) {
  const AttrValue* value = attrs.find(key);
  if (value == nullptr || !std::holds_alternative<T>(*value)) {
    throw Error(prefix(op) + ": attribute '" + std::string(key) +
                (value == nullptr ? "' is missing" : "' has the wrong kind") +
                " (normalize the attributes before calling the type relation)");
  }
  return std::get<T>(*value);
}

/// `s0 * s1 * ... * factor` (the factor left out when 1).
CTIR_INLINE PrimExpr product(const std::vector<PrimExpr>& symbolic, std::int64_t factor) {
  PrimExpr result = symbolic.at(0);
  for (std::size_t i = 1; i < symbolic.size(); ++i) {
    result = Mul::make(result, symbolic[i]);
  }
  return factor == 1 ? result : PrimExpr(Mul::make(result, IntImm::make(factor)));
}

/// Whether two shapes have provably equal dimensions, one for one.
CTIR_INLINE bool same_shape(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!ops::dims_equal(a[i], b[i])) {
      return false;
    }
  }
  return true;
}

} // namespace ctir::detail::ops_impl

namespace ctir::ops {

CTIR_INLINE std::optional<std::int64_t> static_dim(const PrimExpr& dim) {
  if (const auto* imm = dim.as<IntImmNode>()) {
    return imm->value;
  }
  return std::nullopt;
}

CTIR_INLINE bool dims_equal(const PrimExpr& a, const PrimExpr& b) {
  // The common cases, shared or literal dimensions, without the stack's allocation.
  if (a.same_as(b)) {
    return true;
  }
  const auto* int_a = a.as<IntImmNode>();
  const auto* int_b = b.as<IntImmNode>();
  if (int_a != nullptr && int_b != nullptr) {
    return int_a->value == int_b->value;
  }
  // An explicit stack: a dimension expression may be arbitrarily deep.
  std::vector<std::pair<const Object*, const Object*>> stack{{a.get(), b.get()}};
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    if (x == y) {
      continue;
    }
    if (x == nullptr || y == nullptr) {
      return false;
    }
    if (instance_of<IntImmNode>(*x) && instance_of<IntImmNode>(*y)) {
      if (static_cast<const IntImmNode*>(x)->value != static_cast<const IntImmNode*>(y)->value) {
        return false;
      }
      continue;
    }
    if (x->dynamic_type_index() != y->dynamic_type_index()) {
      return false;
    }
    const TypeInfo& info = x->type_info();
    if (info.is_variable) {
      return false; // distinct variables
    }
    for (const FieldInfo& field : info.fields) {
      if (field.ignored()) {
        continue;
      }
      switch (field.kind) {
      case FieldKind::node:
        stack.emplace_back(field.get(*x, field), field.get(*y, field));
        break;
      case FieldKind::node_array: {
        const std::size_t size = field.size(*x, field);
        if (size != field.size(*y, field)) {
          return false;
        }
        for (std::size_t i = 0; i < size; ++i) {
          stack.emplace_back(field.at(*x, field, i), field.at(*y, field, i));
        }
        break;
      }
      case FieldKind::value:
        if (!field.equal(*x, *y, field)) {
          return false;
        }
        break;
      }
    }
  }
  return true;
}

CTIR_INLINE TensorType expect_tensor(std::string_view op, const std::vector<Type>& inputs,
                                     std::size_t index) {
  if (index >= inputs.size()) {
    throw Error(detail::ops_impl::prefix(op) + ": input " + std::to_string(index) +
                " is missing (" + std::to_string(inputs.size()) + " given)");
  }
  TensorType tensor = try_downcast<TensorTypeNode>(inputs[index]);
  if (!tensor.defined()) {
    std::string message = detail::ops_impl::prefix(op) + " expects a tensor as input " +
                          std::to_string(index) + ", but it has type " + type_str(inputs[index]);
    if (const auto* prim = inputs[index].as<PrimTypeNode>()) {
      message += " (graph-level scalars have type Tensor[(), " + prim->dtype.str() + "])";
    }
    throw Error(message);
  }
  return tensor;
}

CTIR_INLINE std::size_t normalize_axis(std::string_view op, std::string_view what,
                                       std::int64_t axis, const TensorType& tensor) {
  const auto rank = static_cast<std::int64_t>(tensor->ndim());
  if (axis < -rank || axis >= rank) {
    throw Error(detail::ops_impl::prefix(op) + ": " + std::string(what) + " " +
                std::to_string(axis) + " is out of range for " + type_str(tensor) + " (rank " +
                std::to_string(rank) +
                (rank == 0 ? "; it has no axes)"
                           : "; valid axes are " + std::to_string(-rank) + " to " +
                                 std::to_string(rank - 1) + ")"));
  }
  return static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
}

CTIR_INLINE std::optional<std::vector<PrimExpr>>
try_broadcast(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b,
              std::pair<PrimExpr, PrimExpr>* mismatch) {
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<PrimExpr> result(rank);
  for (std::size_t i = 1; i <= rank; ++i) {
    const PrimExpr da = i <= a.size() ? a[a.size() - i] : PrimExpr();
    const PrimExpr db = i <= b.size() ? b[b.size() - i] : PrimExpr();
    PrimExpr& out = result[rank - i];
    if (i > a.size()) {
      out = db;
    } else if (i > b.size() || dims_equal(da, db)) {
      out = da;
    } else if (static_dim(da) == 1) {
      out = db;
    } else if (static_dim(db) == 1) {
      out = da;
    } else {
      if (mismatch != nullptr) {
        *mismatch = {da, db};
      }
      return std::nullopt;
    }
  }
  return result;
}

CTIR_INLINE std::vector<PrimExpr> broadcast_shapes(std::string_view op, const TensorType& a,
                                                   const TensorType& b) {
  std::pair<PrimExpr, PrimExpr> mismatch;
  if (auto shape = try_broadcast(a->shape, b->shape, &mismatch)) {
    return std::move(*shape);
  }
  throw Error(detail::ops_impl::prefix(op) + " cannot broadcast " + type_str(a) + " with " +
              type_str(b) + ": dimension " + prim_expr_str(mismatch.first) + " of " +
              shape_str(a->shape) + " meets " + prim_expr_str(mismatch.second) + " of " +
              shape_str(b->shape) + ", and neither is 1");
}

CTIR_INLINE void expect_same_dtype(std::string_view op, const TensorType& a, const TensorType& b) {
  if (a->dtype != b->dtype) {
    throw Error(detail::ops_impl::prefix(op) + " needs inputs of one dtype, but got " +
                type_str(a) + " and " + type_str(b));
  }
}

CTIR_INLINE TypeRelation broadcast_relation(std::string op) {
  return [op = std::move(op)](const std::vector<Type>& inputs, const Attrs&) -> Type {
    const TensorType a = expect_tensor(op, inputs, 0);
    const TensorType b = expect_tensor(op, inputs, 1);
    expect_same_dtype(op, a, b);
    if (detail::ops_impl::same_shape(a->shape, b->shape)) {
      return a; // what broadcasting gives: a's dimensions; no new type per call
    }
    return TensorType::make(broadcast_shapes(op, a, b), a->dtype);
  };
}

CTIR_INLINE TypeRelation unary_relation(std::string op, UnaryDomain domain) {
  return [op = std::move(op), domain](const std::vector<Type>& inputs, const Attrs&) -> Type {
    const TensorType x = expect_tensor(op, inputs, 0);
    if (domain == UnaryDomain::floating && !x->dtype.is_float()) {
      throw Error(detail::ops_impl::prefix(op) + " needs a float tensor, but got " + type_str(x));
    }
    if (domain == UnaryDomain::numeric && x->dtype.is_bool()) {
      throw Error(detail::ops_impl::prefix(op) + " needs a numeric tensor, but got " + type_str(x));
    }
    return x;
  };
}

CTIR_INLINE Type matmul_relation(const std::vector<Type>& inputs, const Attrs&) {
  constexpr std::string_view op = "matmul";
  const TensorType a = expect_tensor(op, inputs, 0);
  const TensorType b = expect_tensor(op, inputs, 1);
  for (const TensorType& t : {a, b}) {
    if (t->ndim() < 2) {
      throw Error(detail::ops_impl::prefix(op) + " needs tensors of rank 2 or more, but got " +
                  type_str(t) + " (with " + type_str(t.same_as(a) ? b : a) + ")");
    }
  }
  expect_same_dtype(op, a, b);
  const PrimExpr& k_a = a->shape[a->ndim() - 1];
  const PrimExpr& k_b = b->shape[b->ndim() - 2];
  if (!dims_equal(k_a, k_b)) {
    throw Error(detail::ops_impl::prefix(op) + ": the inner dimensions of " + type_str(a) +
                " and " + type_str(b) + " differ (" + prim_expr_str(k_a) + " and " +
                prim_expr_str(k_b) + ")");
  }
  const std::vector<PrimExpr> batch_a(a->shape.begin(), a->shape.end() - 2);
  const std::vector<PrimExpr> batch_b(b->shape.begin(), b->shape.end() - 2);
  std::pair<PrimExpr, PrimExpr> mismatch;
  auto shape = try_broadcast(batch_a, batch_b, &mismatch);
  if (!shape) {
    throw Error(detail::ops_impl::prefix(op) + " cannot broadcast the batch dimensions " +
                shape_str(batch_a) + " of " + type_str(a) + " and " + shape_str(batch_b) + " of " +
                type_str(b) + ": " + prim_expr_str(mismatch.first) + " and " +
                prim_expr_str(mismatch.second) + " differ, and neither is 1");
  }
  shape->push_back(a->shape[a->ndim() - 2]);
  shape->push_back(b->shape[b->ndim() - 1]);
  return TensorType::make(std::move(*shape), a->dtype);
}

CTIR_INLINE Type transpose_relation(const std::vector<Type>& inputs, const Attrs& attrs) {
  constexpr std::string_view op = "transpose";
  const TensorType x = expect_tensor(op, inputs, 0);
  const std::size_t rank = x->ndim();
  std::vector<PrimExpr> shape;
  shape.reserve(rank);
  const auto axes = attrs.get<std::vector<std::int64_t>>("axes");
  if (!axes) {
    shape.assign(x->shape.rbegin(), x->shape.rend());
    return TensorType::make(std::move(shape), x->dtype);
  }
  if (axes->size() != rank) {
    throw Error(detail::ops_impl::prefix(op) + ": axes " + detail::ops_impl::list_str(*axes) +
                " has " + std::to_string(axes->size()) + " entries, but " + type_str(x) +
                " has rank " + std::to_string(rank));
  }
  std::vector<bool> seen(rank, false);
  for (std::int64_t axis : *axes) {
    const std::size_t index = normalize_axis(op, "axis", axis, x);
    if (seen[index]) {
      throw Error(detail::ops_impl::prefix(op) + ": axes " + detail::ops_impl::list_str(*axes) +
                  " is not a permutation of the axes of " + type_str(x) + " (axis " +
                  std::to_string(index) + " appears twice)");
    }
    seen[index] = true;
    shape.push_back(x->shape[index]);
  }
  return TensorType::make(std::move(shape), x->dtype);
}

CTIR_INLINE Type reshape_relation(const std::vector<Type>& inputs, const Attrs& attrs) {
  constexpr std::string_view op = "reshape";
  const TensorType x = expect_tensor(op, inputs, 0);
  const auto newshape = detail::ops_impl::attr<std::vector<std::int64_t>>(op, attrs, "newshape");
  const std::string target = "newshape " + detail::ops_impl::list_str(newshape);

  std::optional<std::size_t> inferred;
  std::int64_t known = 1; // product of the entries other than -1
  for (std::size_t i = 0; i < newshape.size(); ++i) {
    if (newshape[i] == -1) {
      if (inferred) {
        throw Error(detail::ops_impl::prefix(op) + ": " + target +
                    " has more than one -1 (at most one entry can be inferred)");
      }
      inferred = i;
    } else if (newshape[i] < 0) {
      throw Error(detail::ops_impl::prefix(op) + ": " + target + " has the negative entry " +
                  std::to_string(newshape[i]) + " (only -1, inferred, is allowed)");
    } else {
      known = detail::ops_impl::checked_mul(op, known, newshape[i]);
    }
  }

  // The input's element count as (literal part) * (product of symbolic dimensions).
  std::int64_t literal = 1;
  std::vector<PrimExpr> symbolic;
  for (const PrimExpr& dim : x->shape) {
    if (auto value = static_dim(dim)) {
      literal = detail::ops_impl::checked_mul(op, literal, *value);
    } else {
      symbolic.push_back(dim);
    }
  }
  const std::string count =
      symbolic.empty() ? std::to_string(literal) + " elements"
                       : "elements: " + prim_expr_str(detail::ops_impl::product(symbolic, literal));
  const std::string source = type_str(x) + " (" + count + ")";

  std::vector<PrimExpr> shape;
  shape.reserve(newshape.size());
  for (std::int64_t entry : newshape) {
    shape.push_back(IntImm::make(entry));
  }
  if (inferred) {
    if (known == 0) {
      throw Error(detail::ops_impl::prefix(op) + " cannot infer the -1 of " + target + " for " +
                  source + ": the other entries multiply to 0");
    }
    if (literal % known != 0) {
      throw Error(detail::ops_impl::prefix(op) + ": " + source + " does not fit " + target + ": " +
                  (symbolic.empty() ? std::to_string(literal) + " is not a multiple of "
                                    : "the element count is not known to be a multiple of ") +
                  std::to_string(known));
    }
    const std::int64_t factor = literal / known;
    shape[*inferred] = symbolic.empty() || factor == 0
                           ? PrimExpr(IntImm::make(factor))
                           : detail::ops_impl::product(symbolic, factor);
  } else if (symbolic.empty() ? known != literal
                              : (literal == 0 ? known != 0 : known % literal != 0)) {
    throw Error(detail::ops_impl::prefix(op) + ": " + source + " does not fit " + target + " (" +
                std::to_string(known) + " elements)");
  }
  return TensorType::make(std::move(shape), x->dtype);
}

CTIR_INLINE Type sum_relation(const std::vector<Type>& inputs, const Attrs& attrs) {
  constexpr std::string_view op = "sum";
  const TensorType x = expect_tensor(op, inputs, 0);
  const bool keepdims = attrs.get<bool>("keepdims").value_or(false);
  std::vector<bool> reduced(x->ndim(), true);
  if (const auto axes = attrs.get<std::vector<std::int64_t>>("axis")) {
    reduced.assign(x->ndim(), false);
    for (std::int64_t axis : *axes) {
      const std::size_t index = normalize_axis(op, "axis", axis, x);
      if (reduced[index]) {
        throw Error(detail::ops_impl::prefix(op) + ": axis " + detail::ops_impl::list_str(*axes) +
                    " names axis " + std::to_string(index) + " of " + type_str(x) + " twice");
      }
      reduced[index] = true;
    }
  }
  std::vector<PrimExpr> shape;
  for (std::size_t i = 0; i < x->ndim(); ++i) {
    if (!reduced[i]) {
      shape.push_back(x->shape[i]);
    } else if (keepdims) {
      shape.push_back(IntImm::make(1));
    }
  }
  return TensorType::make(std::move(shape), x->dtype);
}

CTIR_INLINE Type concatenate_relation(const std::vector<Type>& inputs, const Attrs& attrs) {
  constexpr std::string_view op = "concatenate";
  std::vector<Type> parts = inputs;
  if (inputs.size() == 1) {
    if (const auto* tuple = inputs[0].as<TupleTypeNode>()) {
      parts = tuple->fields;
      if (parts.empty()) {
        throw Error(detail::ops_impl::prefix(op) +
                    " needs at least one tensor, but got the empty tuple");
      }
    }
  }
  if (parts.empty()) {
    throw Error(detail::ops_impl::prefix(op) + " needs at least one tensor");
  }
  const TensorType first = expect_tensor(op, parts, 0);
  if (first->ndim() == 0) {
    throw Error(detail::ops_impl::prefix(op) + " cannot join tensors of rank 0 (" +
                type_str(first) + ")");
  }
  const std::size_t axis =
      normalize_axis(op, "axis", detail::ops_impl::attr<std::int64_t>(op, attrs, "axis"), first);
  std::int64_t literal = 0;
  std::vector<PrimExpr> symbolic;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const TensorType part = expect_tensor(op, parts, i);
    expect_same_dtype(op, first, part);
    if (part->ndim() != first->ndim()) {
      throw Error(detail::ops_impl::prefix(op) + " needs inputs of one rank, but got " +
                  type_str(first) + " and " + type_str(part));
    }
    for (std::size_t d = 0; d < first->ndim(); ++d) {
      if (d != axis && !dims_equal(first->shape[d], part->shape[d])) {
        throw Error(detail::ops_impl::prefix(op) + ": " + type_str(first) + " and " +
                    type_str(part) + " differ in dimension " + std::to_string(d) + " (" +
                    prim_expr_str(first->shape[d]) + " and " + prim_expr_str(part->shape[d]) +
                    "), which is not the axis " + std::to_string(axis));
      }
    }
    if (auto value = static_dim(part->shape[axis])) {
      literal = detail::ops_impl::checked_add(op, literal, *value);
    } else {
      symbolic.push_back(part->shape[axis]);
    }
  }
  PrimExpr joined;
  for (const PrimExpr& dim : symbolic) {
    joined = joined.defined() ? PrimExpr(Add::make(joined, dim)) : dim;
  }
  if (!joined.defined()) {
    joined = IntImm::make(literal);
  } else if (literal != 0) {
    joined = Add::make(joined, IntImm::make(literal));
  }
  std::vector<PrimExpr> shape = first->shape;
  shape[axis] = joined;
  return TensorType::make(std::move(shape), first->dtype);
}

CTIR_INLINE TypeRelation constant_fill_relation(std::string op) {
  return [op = std::move(op)](const std::vector<Type>&, const Attrs& attrs) -> Type {
    const auto dims = detail::ops_impl::attr<std::vector<std::int64_t>>(op, attrs, "shape");
    const auto dtype_name = detail::ops_impl::attr<std::string>(op, attrs, "dtype");
    std::vector<PrimExpr> shape;
    for (std::int64_t d : dims) {
      if (d < 0) {
        throw Error(detail::ops_impl::prefix(op) + ": shape " + detail::ops_impl::list_str(dims) +
                    " has the negative dimension " + std::to_string(d));
      }
      shape.push_back(IntImm::make(d));
    }
    const std::optional<DataType> dtype = DataType::from_string(dtype_name);
    if (!dtype) {
      const std::vector<std::string_view> valid = {"bool",  "int8",    "int16",   "int32",  "int64",
                                                   "uint8", "float16", "float32", "float64"};
      std::string message =
          detail::ops_impl::prefix(op) + ": dtype \"" + dtype_name + "\" is not a dtype";
      const auto close = detail::op_registry_impl::nearest(dtype_name, valid);
      if (!close.empty()) {
        message += "; did you mean " + detail::op_registry_impl::quoted_alternatives(close) + "?";
      }
      message += " (valid: bool, int8, int16, int32, int64, uint8, float16, float32, float64)";
      throw Error(message);
    }
    return TensorType::make(std::move(shape), *dtype);
  };
}

CTIR_INLINE void register_builtin_ops(OpRegistry& registry) {
  const auto binary = [&](const char* name, const char* what) {
    registry.register_op(OpDef(name)
                             .describe(std::string(what) +
                                       ", elementwise with numpy broadcasting; both dtypes equal")
                             .set_num_inputs(2)
                             .set_type_relation(broadcast_relation(name)));
  };
  binary("add", "a + b");
  binary("subtract", "a - b");
  binary("multiply", "a * b");
  binary("divide", "a / b");
  binary("maximum", "max(a, b)");
  binary("minimum", "min(a, b)");

  const auto unary = [&](const char* name, const char* what, UnaryDomain domain) {
    registry.register_op(OpDef(name)
                             .describe(std::string(what) + ", elementwise")
                             .set_num_inputs(1)
                             .set_type_relation(unary_relation(name, domain)));
  };
  unary("negative", "-x", UnaryDomain::numeric);
  unary("exp", "e^x", UnaryDomain::floating);
  unary("log", "the natural logarithm", UnaryDomain::floating);
  unary("sqrt", "the square root", UnaryDomain::floating);
  unary("tanh", "the hyperbolic tangent", UnaryDomain::floating);
  unary("sigmoid", "1 / (1 + e^-x)", UnaryDomain::floating);
  unary("relu", "max(x, 0)", UnaryDomain::numeric);
  unary("nn.relu", "max(x, 0) (the same as relu)", UnaryDomain::numeric);

  registry.register_op(OpDef("matmul")
                           .describe("matrix product [..., m, k] x [..., k, n] -> [..., m, n]; "
                                     "batch dimensions broadcast")
                           .set_num_inputs(2)
                           .set_type_relation(matmul_relation));
  registry.register_op(OpDef("transpose")
                           .describe("permutes the axes")
                           .set_num_inputs(1)
                           .add_optional_attr("axes", AttrKind::int_list,
                                              "the input axis of each output axis (negative "
                                              "counts from the end); absent: reversed")
                           .set_type_relation(transpose_relation));
  registry.register_op(
      OpDef("reshape")
          .describe("the same elements in a new shape")
          .set_num_inputs(1)
          .add_attr("newshape", AttrKind::int_list,
                    "the output shape; one entry may be -1, inferred from the element count")
          .set_type_relation(reshape_relation));
  registry.register_op(OpDef("sum")
                           .describe("sums over axes")
                           .set_num_inputs(1)
                           .add_optional_attr("axis", AttrKind::int_list,
                                              "the axes to reduce (negative counts from the "
                                              "end); absent: every axis")
                           .add_attr("keepdims", AttrKind::bool_, false,
                                     "keep each reduced axis as a dimension of 1")
                           .set_type_relation(sum_relation));
  registry.register_op(OpDef("concatenate")
                           .describe("joins tensors (or one tuple of tensors) along an axis")
                           .set_variadic(1)
                           .add_attr("axis", AttrKind::int_, std::int64_t{0},
                                     "the axis to join along (negative counts from the end)")
                           .set_type_relation(concatenate_relation));
  for (const char* name : {"zeros", "ones"}) {
    registry.register_op(
        OpDef(name)
            .describe(std::string("a tensor filled with ") + (name[0] == 'z' ? "0" : "1"))
            .set_num_inputs(0)
            .add_attr("shape", AttrKind::int_list, "the output shape")
            .add_attr("dtype", AttrKind::string, std::string("float32"), "the element type")
            .set_type_relation(constant_fill_relation(name)));
  }
}

} // namespace ctir::ops
