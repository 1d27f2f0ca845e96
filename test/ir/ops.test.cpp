// Tests of the built-in operators: their type relations on good and bad inputs.
#include <ctir/ir/ops.hpp> // first: the header must compile on its own

#include <ctir/ir/builder.hpp>

#include <doctest/doctest.h>
#include <error_testing.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::contains;
using ctir::testing::error_of;

namespace {

TensorType tensor(std::vector<PrimExpr> shape, DataType dtype = DataType::float32()) {
  return TensorType::make(std::move(shape), dtype);
}
TensorType f32(std::vector<PrimExpr> shape) { return tensor(std::move(shape)); }

Type infer(std::string_view op, std::vector<Type> inputs, Attrs attrs = {}) {
  return OpRegistry::global().infer_type(op, inputs, attrs);
}
std::string str(const Type& type) { return type_str(type); }

const std::vector<std::int64_t> no_axes{};

} // namespace

TEST_CASE("every operator the text format promises is registered") {
  const auto names = OpRegistry::global().names();
  for (const char* op :
       {"add",       "subtract", "multiply", "divide",      "maximum", "minimum", "negative",
        "exp",       "log",      "sqrt",     "tanh",        "sigmoid", "relu",    "matmul",
        "transpose", "reshape",  "sum",      "concatenate", "zeros",   "ones",    "nn.relu"}) {
    CAPTURE(op);
    CHECK(std::count(names.begin(), names.end(), op) == 1);
    CHECK_FALSE(OpRegistry::global().get(op).description.empty());
    CHECK_FALSE(OpRegistry::global().get(op).has_kernel());
  }
}

TEST_CASE("the global registry holds the built-ins once and a fresh registry can get them too") {
  const std::size_t before = OpRegistry::global().size();
  CHECK(&OpRegistry::global() == &OpRegistry::global());
  CHECK(OpRegistry::global().size() == before);
  CHECK(OpRegistry().size() == 0);

  OpRegistry fresh;
  ops::register_builtin_ops(fresh);
  CHECK(fresh.size() == 21);
  CHECK(str(fresh.infer_type("add", {f32({2}), f32({2})})) == "Tensor[(2), float32]");
  // A second round collides with the first, by name.
  CHECK(contains(error_of([&] { ops::register_builtin_ops(fresh); }),
                 "operator 'add' is already registered"));
}

TEST_CASE("elementwise binary operators broadcast static shapes like numpy") {
  for (const char* op : {"add", "subtract", "multiply", "divide", "maximum", "minimum"}) {
    CAPTURE(op);
    CHECK(str(infer(op, {f32({2, 3}), f32({2, 3})})) == "Tensor[(2, 3), float32]");
    CHECK(str(infer(op, {f32({2, 3}), f32({3})})) == "Tensor[(2, 3), float32]");
    CHECK(str(infer(op, {f32({4, 1, 5}), f32({3, 1})})) == "Tensor[(4, 3, 5), float32]");
    CHECK(str(infer(op, {f32({1}), f32({7, 2})})) == "Tensor[(7, 2), float32]");
    CHECK(str(infer(op, {tensor({2}, DataType::int64()), tensor({2}, DataType::int64())})) ==
          "Tensor[(2), int64]");
  }
}

TEST_CASE("rank-0 tensors, the types of graph-level literals, broadcast against anything") {
  CHECK(str(infer("multiply", {f32({2, 3}), f32({})})) == "Tensor[(2, 3), float32]");
  CHECK(str(infer("add", {f32({}), f32({5})})) == "Tensor[(5), float32]");
  CHECK(str(infer("add", {f32({}), f32({})})) == "Tensor[(), float32]");
}

TEST_CASE("broadcasting matches the same variable and lets 1 stretch to a symbolic dimension") {
  auto n = Var::make("n", DataType::int32());
  auto m = Var::make("m", DataType::int32());
  CHECK(str(infer("add", {f32({n, 4}), f32({n, 4})})) == "Tensor[(%n, 4), float32]");
  CHECK(str(infer("add", {f32({n, 1}), f32({1, m})})) == "Tensor[(%n, %m), float32]");
  CHECK(str(infer("add", {f32({n}), f32({m, 1})})) == "Tensor[(%m, %n), float32]");
  CHECK(str(infer("add", {f32({n * 2}), f32({n * 2})})) == "Tensor[(%n * 2), float32]");
  // Literals of different integer dtypes are the same size.
  CHECK(str(infer("add", {f32({IntImm::make(3, DataType::int64())}), f32({3})})) ==
        "Tensor[(3), float32]");
}

TEST_CASE("broadcasting mismatched shapes names the operator and both shapes") {
  const std::string message = error_of([] { infer("add", {f32({2, 3}), f32({4, 3})}); });
  CHECK(contains(message, "'add'"));
  CHECK(contains(message, "Tensor[(2, 3), float32]"));
  CHECK(contains(message, "Tensor[(4, 3), float32]"));
  CHECK(contains(message, "dimension 2 of (2, 3) meets 4 of (4, 3)"));

  auto n = Var::make("n", DataType::int32());
  auto other_n = Var::make("n", DataType::int32()); // same hint, another variable
  const std::string symbolic = error_of([&] { infer("maximum", {f32({n}), f32({4})}); });
  CHECK(contains(symbolic, "'maximum'"));
  CHECK(contains(symbolic, "Tensor[(%n), float32]"));
  CHECK(contains(symbolic, "Tensor[(4), float32]"));
  CHECK(contains(error_of([&] { infer("add", {f32({n}), f32({other_n})}); }), "cannot broadcast"));
}

TEST_CASE("elementwise binary operators need one dtype") {
  const std::string message = error_of([] {
    infer("add", {f32({2}), tensor({}, DataType::int32())});
  });
  CHECK(contains(message, "'add'"));
  CHECK(contains(message, "one dtype"));
  CHECK(contains(message, "Tensor[(2), float32]"));
  CHECK(contains(message, "Tensor[(), int32]"));
}

TEST_CASE("tensor operators reject inputs that are not tensors, with a hint for scalars") {
  const std::string scalar = error_of([] {
    infer("add", {f32({2}), PrimType::make(DataType::float32())});
  });
  CHECK(contains(scalar, "expects a tensor as input 1"));
  CHECK(contains(scalar, "float32"));
  CHECK(contains(scalar, "Tensor[(), float32]"));
  const std::string tuple = error_of([] { infer("exp", {TupleType::make({f32({2})})}); });
  CHECK(contains(tuple, "'exp'"));
  CHECK(contains(tuple, "Tuple[Tensor[(2), float32]]"));
}

TEST_CASE("unary operators keep the input type") {
  auto n = Var::make("n", DataType::int32());
  for (const char* op : {"negative", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "nn.relu"}) {
    CAPTURE(op);
    const Type input = f32({n, 3});
    const Type output = infer(op, {input});
    CHECK(str(output) == "Tensor[(%n, 3), float32]");
    CHECK(str(infer(op, {tensor({}, DataType::float64())})) == "Tensor[(), float64]");
  }
  CHECK(str(infer("negative", {tensor({2}, DataType::int32())})) == "Tensor[(2), int32]");
  CHECK(str(infer("relu", {tensor({2}, DataType::int8())})) == "Tensor[(2), int8]");
}

TEST_CASE("transcendental operators need a float dtype") {
  for (const char* op : {"exp", "log", "sqrt", "tanh", "sigmoid"}) {
    CAPTURE(op);
    const std::string message = error_of([&] { infer(op, {tensor({2}, DataType::int32())}); });
    CHECK(contains(message, std::string("'") + op + "'"));
    CHECK(contains(message, "float"));
    CHECK(contains(message, "Tensor[(2), int32]"));
  }
  CHECK(
      contains(error_of([] { infer("negative", {tensor({2}, DataType::boolean())}); }), "numeric"));
}

TEST_CASE("matmul multiplies matrices and checks the inner dimension") {
  auto m = Var::make("m", DataType::int32());
  auto k = Var::make("k", DataType::int32());
  CHECK(str(infer("matmul", {f32({2, 3}), f32({3, 4})})) == "Tensor[(2, 4), float32]");
  CHECK(str(infer("matmul", {f32({m, k}), f32({k, 8})})) == "Tensor[(%m, 8), float32]");

  const std::string message = error_of([] { infer("matmul", {f32({2, 3}), f32({4, 5})}); });
  CHECK(contains(message, "'matmul'"));
  CHECK(contains(message, "Tensor[(2, 3), float32]"));
  CHECK(contains(message, "Tensor[(4, 5), float32]"));
  CHECK(contains(message, "(3 and 4)"));
  CHECK(contains(error_of([&] { infer("matmul", {f32({m, k}), f32({m, 8})}); }), "(%k and %m)"));
}

TEST_CASE("matmul batches over leading dimensions, which broadcast") {
  auto b = Var::make("b", DataType::int32());
  CHECK(str(infer("matmul", {f32({5, 2, 3}), f32({5, 3, 4})})) == "Tensor[(5, 2, 4), float32]");
  CHECK(str(infer("matmul", {f32({b, 2, 3}), f32({b, 3, 4})})) == "Tensor[(%b, 2, 4), float32]");
  CHECK(str(infer("matmul", {f32({7, 1, 2, 3}), f32({5, 3, 4})})) ==
        "Tensor[(7, 5, 2, 4), float32]");
  CHECK(str(infer("matmul", {f32({5, 2, 3}), f32({3, 4})})) == "Tensor[(5, 2, 4), float32]");
  const std::string message = error_of([] { infer("matmul", {f32({5, 2, 3}), f32({6, 3, 4})}); });
  CHECK(contains(message, "batch"));
  CHECK(contains(message, "(5)"));
  CHECK(contains(message, "(6)"));
}

TEST_CASE("matmul rejects vectors and mixed dtypes") {
  const std::string rank = error_of([] { infer("matmul", {f32({3}), f32({3, 4})}); });
  CHECK(contains(rank, "rank 2 or more"));
  CHECK(contains(rank, "Tensor[(3), float32]"));
  CHECK(contains(error_of([] {
                   infer("matmul", {f32({2, 3}), tensor({3, 4}, DataType::float64())});
                 }),
                 "one dtype"));
}

TEST_CASE("transpose reverses the axes by default and follows a given permutation") {
  auto n = Var::make("n", DataType::int32());
  CHECK(str(infer("transpose", {f32({2, 3, n})})) == "Tensor[(%n, 3, 2), float32]");
  CHECK(str(infer("transpose", {f32({})})) == "Tensor[(), float32]");
  CHECK(str(infer("transpose", {f32({2, 3, 4})}, {{"axes", std::vector<std::int64_t>{1, 0, 2}}})) ==
        "Tensor[(3, 2, 4), float32]");
  CHECK(
      str(infer("transpose", {f32({2, 3, 4})}, {{"axes", std::vector<std::int64_t>{-1, 0, 1}}})) ==
      "Tensor[(4, 2, 3), float32]");
  // An empty list is the identity permutation of a rank-0 tensor, not "reverse".
  CHECK(str(infer("transpose", {f32({})}, {{"axes", no_axes}})) == "Tensor[(), float32]");
}

TEST_CASE("transpose rejects axes that are not a permutation") {
  const auto input = f32({2, 3});
  const std::string repeated = error_of([&] {
    infer("transpose", {input}, {{"axes", std::vector<std::int64_t>{0, 0}}});
  });
  CHECK(contains(repeated, "not a permutation"));
  CHECK(contains(repeated, "[0, 0]"));
  CHECK(contains(repeated, "Tensor[(2, 3), float32]"));
  CHECK(contains(error_of([&] {
                   infer("transpose", {input}, {{"axes", std::vector<std::int64_t>{1, -1}}});
                 }),
                 "not a permutation"));
  const std::string length = error_of([&] {
    infer("transpose", {input}, {{"axes", std::vector<std::int64_t>{1, 0, 2}}});
  });
  CHECK(contains(length, "3 entries"));
  CHECK(contains(length, "rank 2"));
  const std::string range = error_of([&] {
    infer("transpose", {input}, {{"axes", std::vector<std::int64_t>{0, 2}}});
  });
  CHECK(contains(range, "axis 2 is out of range"));
  CHECK(contains(range, "-2 to 1"));
  CHECK(contains(error_of([&] { infer("transpose", {input}, {{"axes", no_axes}}); }), "rank 2"));
}

TEST_CASE("reshape keeps the element count and infers one -1") {
  const auto input = f32({2, 3, 4});
  const auto reshape = [&](Type x, std::vector<std::int64_t> newshape) {
    return str(infer("reshape", {std::move(x)}, {{"newshape", std::move(newshape)}}));
  };
  CHECK(reshape(input, {6, 4}) == "Tensor[(6, 4), float32]");
  CHECK(reshape(input, {24}) == "Tensor[(24), float32]");
  CHECK(reshape(input, {-1}) == "Tensor[(24), float32]");
  CHECK(reshape(input, {4, -1, 2}) == "Tensor[(4, 3, 2), float32]");
  CHECK(reshape(f32({1}), {}) == "Tensor[(), float32]");
  CHECK(reshape(f32({}), {1, 1}) == "Tensor[(1, 1), float32]");
  CHECK(reshape(f32({0, 5}), {-1, 10}) == "Tensor[(0, 10), float32]");
}

TEST_CASE("reshape infers -1 symbolically when the literal part divides") {
  auto n = Var::make("n", DataType::int32());
  auto m = Var::make("m", DataType::int32());
  const auto reshape = [&](Type x, std::vector<std::int64_t> newshape) {
    return str(infer("reshape", {std::move(x)}, {{"newshape", std::move(newshape)}}));
  };
  CHECK(reshape(f32({n, 4}), {-1}) == "Tensor[(%n * 4), float32]");
  CHECK(reshape(f32({n, 4}), {-1, 2}) == "Tensor[(%n * 2, 2), float32]");
  CHECK(reshape(f32({n, 4}), {4, -1}) == "Tensor[(4, %n), float32]");
  CHECK(reshape(f32({n, m}), {-1}) == "Tensor[(%n * %m), float32]");
  // Without -1 a symbolic count cannot be checked exactly, only for divisibility.
  CHECK(reshape(f32({n, 4}), {8, 4}) == "Tensor[(8, 4), float32]");
  const std::string message = error_of([&] { reshape(f32({n, 4}), {-1, 8}); });
  CHECK(contains(message, "Tensor[(%n, 4), float32]"));
  CHECK(contains(message, "%n * 4"));
  CHECK(contains(message, "not known to be a multiple of 8"));
  CHECK(contains(error_of([&] { reshape(f32({n, 3}), {4}); }), "(4 elements)"));
}

TEST_CASE("reshape reports element counts that do not match") {
  const auto reshape = [&](Type x, std::vector<std::int64_t> newshape) {
    return str(infer("reshape", {std::move(x)}, {{"newshape", std::move(newshape)}}));
  };
  const std::string count = error_of([&] { reshape(f32({2, 3}), {4, 2}); });
  CHECK(contains(count, "'reshape'"));
  CHECK(contains(count, "Tensor[(2, 3), float32] (6 elements)"));
  CHECK(contains(count, "newshape [4, 2] (8 elements)"));
  const std::string indivisible = error_of([&] { reshape(f32({2, 3}), {4, -1}); });
  CHECK(contains(indivisible, "6 is not a multiple of 4"));
  CHECK(contains(error_of([&] { reshape(f32({2, 3}), {-1, -1}); }), "more than one -1"));
  CHECK(contains(error_of([&] { reshape(f32({2, 3}), {-2, -3}); }), "negative entry -2"));
  CHECK(contains(error_of([&] { reshape(f32({2, 0}), {0, -1}); }), "multiply to 0"));
  CHECK(contains(error_of([&] { reshape(f32({1 << 30, 1 << 30, 1 << 30}), {-1}); }), "overflows"));
}

TEST_CASE("reshape requires newshape") {
  const std::string message = error_of([] { infer("reshape", {f32({2, 3})}); });
  CHECK(contains(message, "'reshape' requires the attribute 'newshape'"));
  CHECK(contains(message, "int list"));
}

TEST_CASE("sum reduces every axis by default and the given ones otherwise") {
  auto n = Var::make("n", DataType::int32());
  const auto input = f32({2, n, 4});
  CHECK(str(infer("sum", {input})) == "Tensor[(), float32]");
  CHECK(str(infer("sum", {input}, {{"keepdims", true}})) == "Tensor[(1, 1, 1), float32]");
  CHECK(str(infer("sum", {input}, {{"axis", std::vector<std::int64_t>{1}}})) ==
        "Tensor[(2, 4), float32]");
  CHECK(str(infer("sum", {input}, {{"axis", std::vector<std::int64_t>{-1, 0}}})) ==
        "Tensor[(%n), float32]");
  CHECK(str(infer("sum", {input}, {{"axis", std::vector<std::int64_t>{0}}, {"keepdims", true}})) ==
        "Tensor[(1, %n, 4), float32]");
  // An empty list reduces nothing (numpy's axis=()).
  CHECK(str(infer("sum", {input}, {{"axis", no_axes}})) == "Tensor[(2, %n, 4), float32]");
  CHECK(str(infer("sum", {f32({})})) == "Tensor[(), float32]");
}

TEST_CASE("sum rejects axes out of range and repeated axes") {
  const auto input = f32({2, 3});
  const std::string range = error_of([&] {
    infer("sum", {input}, {{"axis", std::vector<std::int64_t>{-3}}});
  });
  CHECK(contains(range, "'sum'"));
  CHECK(contains(range, "axis -3 is out of range for Tensor[(2, 3), float32]"));
  const std::string twice = error_of([&] {
    infer("sum", {input}, {{"axis", std::vector<std::int64_t>{1, -1}}});
  });
  CHECK(contains(twice, "[1, -1]"));
  CHECK(contains(twice, "twice"));
  CHECK(contains(error_of([&] {
                   infer("sum", {f32({})}, {{"axis", std::vector<std::int64_t>{0}}});
                 }),
                 "no axes"));
  const std::string kind = error_of([&] { infer("sum", {input}, {{"axis", std::int64_t{1}}}); });
  CHECK(contains(kind, "must be an int list, not an int"));
  CHECK(contains(kind, "write [1]"));
}

TEST_CASE("concatenate joins along an axis, adding static and symbolic dimensions") {
  auto n = Var::make("n", DataType::int32());
  auto m = Var::make("m", DataType::int32());
  CHECK(str(infer("concatenate", {f32({2, 3})})) == "Tensor[(2, 3), float32]");
  CHECK(str(infer("concatenate", {f32({2, 3}), f32({5, 3})})) == "Tensor[(7, 3), float32]");
  CHECK(str(infer("concatenate", {f32({2, 3}), f32({2, 1}), f32({2, 4})},
                  {{"axis", std::int64_t{1}}})) == "Tensor[(2, 8), float32]");
  CHECK(str(infer("concatenate", {f32({2, n}), f32({2, 4})}, {{"axis", std::int64_t{-1}}})) ==
        "Tensor[(2, %n + 4), float32]");
  CHECK(str(infer("concatenate", {f32({n, 3}), f32({m, 3}), f32({1, 3})})) ==
        "Tensor[(%n + %m + 1, 3), float32]");
  CHECK(str(infer("concatenate", {f32({n, 3}), f32({n, 3})})) == "Tensor[(%n + %n, 3), float32]");
}

TEST_CASE("concatenate also takes one tuple of tensors") {
  CHECK(str(infer("concatenate", {TupleType::make({f32({2, 3}), f32({4, 3})})})) ==
        "Tensor[(6, 3), float32]");
  CHECK(contains(error_of([] { infer("concatenate", {TupleType::make({})}); }), "empty tuple"));
}

TEST_CASE("concatenate checks ranks, dtypes, the other dimensions and the axis") {
  const std::string other = error_of([] { infer("concatenate", {f32({2, 3}), f32({2, 4})}); });
  CHECK(contains(other, "'concatenate'"));
  CHECK(contains(other, "Tensor[(2, 3), float32]"));
  CHECK(contains(other, "Tensor[(2, 4), float32]"));
  CHECK(contains(other, "dimension 1 (3 and 4)"));
  CHECK(contains(error_of([] { infer("concatenate", {f32({2, 3}), f32({2})}); }), "one rank"));
  CHECK(contains(error_of([] {
                   infer("concatenate", {f32({2}), tensor({2}, DataType::int32())});
                 }),
                 "one dtype"));
  CHECK(contains(error_of([] {
                   infer("concatenate", {f32({2}), f32({3})}, {{"axis", std::int64_t{1}}});
                 }),
                 "axis 1 is out of range"));
  CHECK(contains(error_of([] { infer("concatenate", {f32({}), f32({})}); }), "rank 0"));
  const std::string arity = error_of([] { infer("concatenate", {}); });
  CHECK(contains(arity, "takes at least 1 input, but 0 were given"));
}

TEST_CASE("zeros and ones make tensors of the given shape and dtype") {
  for (const char* op : {"zeros", "ones"}) {
    CAPTURE(op);
    CHECK(str(infer(op, {}, {{"shape", std::vector<std::int64_t>{2, 3}}})) ==
          "Tensor[(2, 3), float32]");
    CHECK(str(infer(op, {}, {{"shape", no_axes}, {"dtype", std::string("int64")}})) ==
          "Tensor[(), int64]");
    const std::string dtype = error_of([&] {
      infer(op, {}, {{"shape", std::vector<std::int64_t>{2}}, {"dtype", std::string("flot32")}});
    });
    CHECK(contains(dtype, "\"flot32\" is not a dtype"));
    CHECK(contains(dtype, "did you mean 'float32'"));
    CHECK(contains(error_of([&] {
                     infer(op, {}, {{"shape", std::vector<std::int64_t>{2, -1}}});
                   }),
                   "negative dimension -1"));
    CHECK(contains(error_of([&] { infer(op, {}); }), "requires the attribute 'shape'"));
    CHECK(contains(error_of([&] {
                     infer(op, {f32({2})}, {{"shape", no_axes}});
                   }),
                   "takes no inputs, but 1 was given"));
  }
}

TEST_CASE("relations called without normalized attributes fail clearly instead of crashing") {
  const std::string message = error_of([] { ops::reshape_relation({f32({2})}, {}); });
  CHECK(contains(message, "'newshape' is missing"));
  CHECK(contains(error_of([] { ops::concatenate_relation({f32({2})}, {}); }), "'axis'"));
  CHECK(contains(error_of([] { ops::broadcast_relation("add")({f32({2})}, {}); }),
                 "input 1 is missing"));
}

TEST_CASE(
    "dims_equal compares literals by value, variables by identity, expressions by structure") {
  auto n = Var::make("n", DataType::int32());
  auto other_n = Var::make("n", DataType::int32());
  CHECK(ops::dims_equal(4, 4));
  CHECK_FALSE(ops::dims_equal(4, 5));
  CHECK(ops::dims_equal(n, n));
  CHECK_FALSE(ops::dims_equal(n, other_n));
  CHECK(ops::dims_equal(n * 2 + 1, n * 2 + 1));
  CHECK_FALSE(ops::dims_equal(n * 2 + 1, n * 2 - 1));
  CHECK_FALSE(ops::dims_equal(n * 2, other_n * 2));
  CHECK_FALSE(ops::dims_equal(n, 4));
  CHECK(ops::dims_equal(PrimExpr(), PrimExpr()));
  CHECK_FALSE(ops::dims_equal(PrimExpr(), 1));
  PrimExpr deep_a = n;
  PrimExpr deep_b = n;
  for (int i = 0; i < 100000; ++i) {
    deep_a = deep_a + 1;
    deep_b = deep_b + 1;
  }
  CHECK(ops::dims_equal(deep_a, deep_b));
}
