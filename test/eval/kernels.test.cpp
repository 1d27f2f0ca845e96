// Tests of the built-in operators' reference kernels and of installing them.
#include <ctir/eval/kernels.hpp> // first: the header must compile on its own

#include <ctir/ir/ops.hpp>

#include <doctest/doctest.h>
#include <error_testing.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::contains;
using ctir::testing::error_of;
using namespace ctir::eval;

namespace {

TensorData t(DataType dtype, std::vector<std::int64_t> shape, std::vector<double> values) {
  return TensorData::from_doubles(dtype, std::move(shape), values);
}
TensorData f32(std::vector<std::int64_t> shape, std::vector<double> values) {
  return t(DataType::float32(), std::move(shape), std::move(values));
}
TensorData i32(std::vector<std::int64_t> shape, std::vector<double> values) {
  return t(DataType::int32(), std::move(shape), std::move(values));
}
std::vector<double> elements(const TensorData& data) {
  std::vector<double> out;
  for (std::size_t k = 0; k < data.size(); ++k) {
    out.push_back(data.get(k));
  }
  return out;
}
TensorData run(std::string_view op, std::vector<TensorData> inputs, Attrs attrs = {}) {
  ensure_builtin_kernels();
  const OpDef& def = OpRegistry::global().get(op);
  REQUIRE(def.has_kernel());
  return def.kernel(inputs, attrs);
}

} // namespace

TEST_CASE("ensure_builtin_kernels gives every built-in operator a kernel, once") {
  ensure_builtin_kernels();
  ensure_builtin_kernels(); // a second call changes nothing
  for (std::string_view name : builtin_kernel_names()) {
    CAPTURE(name);
    CHECK(OpRegistry::global().get(name).has_kernel());
  }
  CHECK(builtin_kernel_names().size() == 21);
}

TEST_CASE("elementwise binary kernels compute exact values and broadcast like numpy") {
  const TensorData a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorData row = f32({3}, {10, 20, 30});
  const TensorData col = f32({2, 1}, {2, -1});
  CHECK(elements(run("add", {a, row})) == std::vector<double>{11, 22, 33, 14, 25, 36});
  CHECK(elements(run("subtract", {a, col})) == std::vector<double>{-1, 0, 1, 5, 6, 7});
  CHECK(elements(run("multiply", {col, row})) == std::vector<double>{20, 40, 60, -10, -20, -30});
  CHECK(elements(run("divide", {a, f32({}, {4})})) ==
        std::vector<double>{0.25, 0.5, 0.75, 1, 1.25, 1.5});
  CHECK(elements(run("maximum", {a, f32({3}, {2, 2, 7})})) ==
        std::vector<double>{2, 2, 7, 4, 5, 7});
  CHECK(elements(run("minimum", {a, f32({3}, {2, 2, 7})})) ==
        std::vector<double>{1, 2, 3, 2, 2, 6});
  CHECK(run("add", {a, row}).shape() == std::vector<std::int64_t>{2, 3});
  CHECK(run("add", {f32({4, 1, 2}, std::vector<double>(8, 1)), f32({3, 1}, {1, 2, 3})}).shape() ==
        std::vector<std::int64_t>{4, 3, 2});
}

TEST_CASE("integer kernels floor, wrap, and reject a zero divisor") {
  CHECK(elements(run("divide", {i32({4}, {7, -7, 7, -7}), i32({4}, {2, 2, -2, -2})})) ==
        std::vector<double>{3, -4, -4, 3});
  CHECK(elements(run("add", {i32({1}, {2147483647}), i32({1}, {1})})) ==
        std::vector<double>{-2147483648.0});
  CHECK(elements(run("negative", {i32({1}, {-2147483648.0})})) ==
        std::vector<double>{-2147483648.0});
  const std::string message = error_of([] {
    run("divide", {i32({2, 2}, {1, 2, 3, 4}), i32({2}, {1, 0})});
  });
  CHECK(contains(message, "operator 'divide': integer division by zero (2 / 0) at output element "
                          "[0, 1]"));
}

TEST_CASE("float division by zero follows IEEE and maximum propagates NaN") {
  const TensorData out = run("divide", {f32({3}, {1, -1, 0}), f32({}, {0})});
  CHECK(std::isinf(out.get(0)));
  CHECK(out.get(0) > 0);
  CHECK(out.get(1) < 0);
  CHECK(std::isnan(out.get(2)));
  CHECK(std::isnan(run("maximum", {f32({1}, {NAN}), f32({1}, {1})}).get(0)));
  CHECK(std::isnan(run("minimum", {f32({1}, {1}), f32({1}, {NAN})}).get(0)));
}

TEST_CASE("unary kernels compute in float64 and round once to the dtype") {
  const TensorData x = f32({3}, {-1, 0, 2});
  CHECK(elements(run("negative", {x})) == std::vector<double>{1, -0.0, -2});
  CHECK(elements(run("relu", {x})) == std::vector<double>{0, 0, 2});
  CHECK(elements(run("nn.relu", {i32({2}, {-3, 3})})) == std::vector<double>{0, 3});
  CHECK(elements(run("exp", {x})) == std::vector<double>{static_cast<float>(std::exp(-1.0)), 1,
                                                         static_cast<float>(std::exp(2.0))});
  CHECK(elements(run("log", {f32({2}, {1, 4})})) ==
        std::vector<double>{0, static_cast<float>(std::log(4.0))});
  CHECK(elements(run("sqrt", {f32({2}, {4, 2})})) ==
        std::vector<double>{2, static_cast<float>(std::sqrt(2.0))});
  CHECK(elements(run("tanh", {x})) == std::vector<double>{static_cast<float>(std::tanh(-1.0)), 0,
                                                          static_cast<float>(std::tanh(2.0))});
  CHECK(elements(run("sigmoid", {f32({1}, {0})})) == std::vector<double>{0.5});
  CHECK(std::isnan(run("log", {f32({1}, {-1})}).get(0)));
  CHECK(run("exp", {t(DataType::float64(), {1}, {1})}).get(0) == std::exp(1.0));
}

TEST_CASE("matmul multiplies matrices and broadcasts batch dimensions") {
  const TensorData a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorData b = f32({3, 2}, {7, 8, 9, 10, 11, 12});
  const TensorData c = run("matmul", {a, b});
  CHECK(c.shape() == std::vector<std::int64_t>{2, 2});
  CHECK(elements(c) == std::vector<double>{58, 64, 139, 154});
  // A batch of two left matrices times one right matrix.
  const TensorData batch = f32({2, 1, 2}, {1, 0, 0, 1});
  const TensorData right = f32({2, 2}, {1, 2, 3, 4});
  const TensorData bc = run("matmul", {batch, right});
  CHECK(bc.shape() == std::vector<std::int64_t>{2, 1, 2});
  CHECK(elements(bc) == std::vector<double>{1, 2, 3, 4});
  CHECK(elements(run("matmul", {i32({1, 2}, {3, 4}), i32({2, 1}, {5, 6})})) ==
        std::vector<double>{39});
}

TEST_CASE("transpose permutes axes, reversing them without the attribute") {
  const TensorData x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorData reversed = run("transpose", {x});
  CHECK(reversed.shape() == std::vector<std::int64_t>{3, 2});
  CHECK(elements(reversed) == std::vector<double>{1, 4, 2, 5, 3, 6});
  Attrs axes;
  axes.set("axes", std::vector<std::int64_t>{1, 2, 0});
  const TensorData y = run("transpose", {f32({2, 1, 3}, {1, 2, 3, 4, 5, 6})}, axes);
  CHECK(y.shape() == std::vector<std::int64_t>{1, 3, 2});
  CHECK(elements(y) == std::vector<double>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("reshape keeps the elements in order and infers -1") {
  Attrs attrs;
  attrs.set("newshape", std::vector<std::int64_t>{3, -1});
  const TensorData y = run("reshape", {f32({2, 3}, {1, 2, 3, 4, 5, 6})}, attrs);
  CHECK(y.shape() == std::vector<std::int64_t>{3, 2});
  CHECK(elements(y) == std::vector<double>{1, 2, 3, 4, 5, 6});
  attrs.set("newshape", std::vector<std::int64_t>{4});
  CHECK(contains(error_of([&] {
                   run("reshape", {f32({2, 3}, std::vector<double>(6))}, attrs);
                 }),
                 "does not fit newshape [4]"));
}

TEST_CASE("sum reduces every axis, chosen axes, and keeps dimensions on request") {
  const TensorData x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorData all = run("sum", {x});
  CHECK(all.shape().empty());
  CHECK(all.get(0) == 21);
  Attrs attrs;
  attrs.set("axis", std::vector<std::int64_t>{0});
  CHECK(elements(run("sum", {x}, attrs)) == std::vector<double>{5, 7, 9});
  attrs.set("axis", std::vector<std::int64_t>{-1});
  attrs.set("keepdims", true);
  const TensorData rows = run("sum", {x}, attrs);
  CHECK(rows.shape() == std::vector<std::int64_t>{2, 1});
  CHECK(elements(rows) == std::vector<double>{6, 15});
}

TEST_CASE("concatenate joins along an axis") {
  Attrs attrs;
  attrs.set("axis", std::int64_t{1});
  const TensorData y = run("concatenate", {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6})}, attrs);
  CHECK(y.shape() == std::vector<std::int64_t>{2, 3});
  CHECK(elements(y) == std::vector<double>{1, 3, 4, 2, 5, 6});
  CHECK(elements(run("concatenate", {i32({1}, {1}), i32({2}, {2, 3}), i32({1}, {4})})) ==
        std::vector<double>{1, 2, 3, 4});
}

TEST_CASE("zeros and ones make tensors of the attribute shape and dtype") {
  Attrs attrs;
  attrs.set("shape", std::vector<std::int64_t>{2, 2});
  attrs.set("dtype", std::string("int64"));
  const TensorData z = run("zeros", {}, attrs);
  CHECK(z.dtype() == DataType::int64());
  CHECK(elements(z) == std::vector<double>{0, 0, 0, 0});
  attrs.set("dtype", std::string("float32"));
  CHECK(elements(run("ones", {}, attrs)) == std::vector<double>{1, 1, 1, 1});
  attrs.set("shape", std::vector<std::int64_t>{1 << 30, 1 << 30});
  CHECK(contains(error_of([&] { run("ones", {}, attrs); }), "would exceed the limit"));
}

TEST_CASE("kernels check their inputs through the type relation") {
  CHECK(contains(error_of([] {
                   run("add", {f32({2}, {1, 2}), f32({3}, {1, 2, 3})});
                 }),
                 "operator 'add' cannot broadcast"));
  CHECK(contains(error_of([] {
                   run("add", {f32({2}, {1, 2}), i32({2}, {1, 2})});
                 }),
                 "needs inputs of one dtype"));
  CHECK(contains(error_of([] { run("exp", {i32({1}, {1})}); }), "needs a float tensor"));
  CHECK(contains(error_of([] { run("add", {f32({2}, {1, 2})}); }), "takes 2 inputs"));
}

TEST_CASE("installing kernels into a fresh registry leaves a user's kernel alone") {
  OpRegistry registry;
  ops::register_builtin_ops(registry);
  registry.set_kernel("add", [](const std::vector<TensorData>&, const Attrs&) {
    return TensorData::scalar(DataType::float32(), 42);
  });
  install_builtin_kernels(registry);
  CHECK(registry.get("add").kernel({}, {}).get(0) == 42);
  CHECK(elements(registry.get("subtract").kernel({f32({1}, {3}), f32({1}, {1})}, {})) ==
        std::vector<double>{2});
}

TEST_CASE("make_checked_kernel gives a user operator checked inputs") {
  const OpDef schema = OpDef("kernels_test.double")
                           .set_num_inputs(1)
                           .set_type_relation([](const std::vector<Type>& in, const Attrs&) {
                             return ops::expect_tensor("kernels_test.double", in, 0);
                           });
  const OpKernel kernel =
      make_checked_kernel(schema, [](const std::vector<TensorData>& in, const KernelContext& ctx) {
        TensorData out = make_tensor(ctx.out_dtype, ctx.out_shape);
        for (std::size_t k = 0; k < out.size(); ++k) {
          out.set(k, 2 * in[0].get(k));
        }
        return out;
      });
  CHECK(elements(kernel({f32({2}, {1, 2})}, {})) == std::vector<double>{2, 4});
  CHECK(contains(error_of([&] { kernel({}, {}); }), "takes 1 input, but 0 were given"));
  CHECK(contains(error_of([&] { builtin_kernel(schema); }), "is not a built-in operator"));
}
