// Tests of ctir/passes/legalize_ops.hpp: operator calls lowered to tensor-level functions.
#include <ctir/passes/legalize_ops.hpp>

#include <ctir/eval/kernels.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// The generated tensor-level functions of `mod`, by name.
std::vector<std::string> prim_names(const IRModule& mod) {
  std::vector<std::string> names;
  for (const auto& [global, prim] : mod.functions_of<PrimFuncNode>()) {
    names.push_back(global->name);
  }
  return names;
}

/// Registers `test.legalize.twice` (x * 2, elementwise) with a type relation, a kernel and
/// a lowering, once.
void register_twice() {
  static const bool done = [] {
    OpDef def = OpDef("test.legalize.twice")
                    .set_num_inputs(1)
                    .set_type_relation([](const std::vector<Type>& in, const Attrs&) -> Type {
                      return ops::expect_tensor("test.legalize.twice", in, 0);
                    });
    def.set_kernel(eval::make_checked_kernel(
        def, [](const std::vector<TensorData>& in, const eval::KernelContext& ctx) {
          TensorData out = eval::make_tensor(ctx.out_dtype, ctx.out_shape);
          for (std::size_t k = 0; k < out.size(); ++k) {
            const eval::Scalar x = eval::read_element(in[0], k);
            eval::write_element(out, k, eval::binary(BinaryOp::add, x, x));
          }
          return out;
        }));
    OpRegistry::global().register_op(std::move(def));
    passes::LegalizeRegistry::global().add(
        "test.legalize.twice", [](const passes::LegalizeCall& call) -> Stmt {
          return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) {
            const PrimExpr x = load(call.inputs[0], idx);
            return Stmt(TensorStore::make(call.output, idx, x + x));
          });
        });
    return true;
  }();
  (void)done;
}

} // namespace

TEST_CASE("LegalizeOps meets the laws of its golden cases") {
  // 9 graph functions of which 8 run on every seed (@scale has a symbolic dimension,
  // which random_inputs fixes), 3 seeds each.
  check_golden_laws("legalize_ops", passes::LegalizeOps{}, {.min_runs = 24, .stays_typed = true});
}

TEST_CASE("LegalizeOps returns an empty module as it is") {
  const IRModule empty;
  CHECK(passes::LegalizeOps{}(empty).same_as(empty));
}

TEST_CASE("LegalizeOps matches the kernels bit for bit on integer overflow and NaN") {
  const IRModule mod = parse_module(R"(
def @main(%a: Tensor[(2, 2), int8], %b: Tensor[(2, 2), int8], %x: Tensor[(3), float32]) -> Tuple[Tensor[(2, 2), int8], Tensor[(), int8], Tensor[(3), float32]] {
  %0 = matmul(%a, %b);
  %1 = sum(%0);
  %2 = maximum(%x, const([nanf, 1f, -2f]));
  %3 = minimum(%2, 0.5f);
  (%0, %1, %3)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  REQUIRE(prim_names(lowered).size() == 4);
  const std::vector<eval::Value> inputs = {
      eval::Value(TensorData::from_doubles(DataType::int8(), {2, 2}, {127, -128, 100, 90})),
      eval::Value(TensorData::from_doubles(DataType::int8(), {2, 2}, {127, 3, -128, 77})),
      eval::Value(TensorData::from_doubles(DataType::float32(), {3}, {1.0, 2.0, -3.0}))};
  eval::Interpreter before(mod);
  eval::Interpreter after(lowered);
  const std::vector<eval::Value> expected = before.call("main", inputs);
  const std::vector<eval::Value> actual = after.call("main", inputs);
  std::string why;
  CHECK_MESSAGE(values_agree(expected[0], actual[0], false, why), why);
  const auto& got = actual[0].fields();
  CHECK(got[0].as_tensor().get_int(0) == expected[0].fields()[0].as_tensor().get_int(0));
  CHECK(std::isnan(got[2].as_tensor().get(0)));
  CHECK(got[2].as_tensor().get(1) == 0.5);
}

TEST_CASE("LegalizeOps accumulates float sums in float64 like the kernel") {
  // 2^24 + 1 + 1 + ...: float32 accumulation would lose every 1; float64 keeps them.
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(5), float32]) -> Tensor[(), float32] {
  sum(%x)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  const std::vector<eval::Value> inputs = {eval::Value(
      TensorData::from_doubles(DataType::float32(), {5}, {16777216.0, 1.0, 1.0, 1.0, 1.0}))};
  const double expected = eval::Interpreter(mod).call("main", inputs)[0].as_tensor().get(0);
  const double actual = eval::Interpreter(lowered).call("main", inputs)[0].as_tensor().get(0);
  CHECK(expected == 16777220.0);
  CHECK(actual == expected);
}

TEST_CASE("LegalizeOps indexes with int64 when a tensor has more elements than int32 counts") {
  const IRModule mod = parse_module(R"(
def @main() -> Tensor[(65536, 65537), uint8] {
  ones(shape=[65536, 65537], dtype="uint8")
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  const auto* prim = lowered.find("ones").as<PrimFuncNode>();
  REQUIRE(prim != nullptr);
  const auto* loop = prim->body->seq.at(0).as<ForNode>();
  REQUIRE(loop != nullptr);
  CHECK(dtype_of(loop->var) == DataType::int64());
  CHECK(dtype_of(loop->end) == DataType::int64());
}

TEST_CASE("LegalizeOps makes an integer division by zero fail at run time as before") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), int32], %y: Tensor[(2), int32]) -> Tensor[(2), int32] {
  divide(%x, %y)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  REQUIRE(prim_names(lowered).size() == 1);
  const std::vector<eval::Value> inputs = {
      eval::Value(TensorData::from_doubles(DataType::int32(), {2}, {-7, 1})),
      eval::Value(TensorData::from_doubles(DataType::int32(), {2}, {2, 0}))};
  CHECK_THROWS_WITH_AS(eval::Interpreter(mod).call("main", inputs),
                       doctest::Contains("division by zero"), Error);
  CHECK_THROWS_WITH_AS(eval::Interpreter(lowered).call("main", inputs),
                       doctest::Contains("division by zero"), Error);
}

TEST_CASE("LegalizeOps shares one function between identical calls in different functions") {
  const IRModule mod = parse_module(R"(
def @f(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  add(%x, %x)
}
def @g(%y: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %0 = add(%y, 1f);
  add(%0, %y)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  CHECK(prim_names(lowered) == std::vector<std::string>{"add", "add_1"});
  CHECK(check_same_behaviour(mod, lowered) == 6);
}

TEST_CASE("LegalizeOps calls an equal tensor-level function the module has instead of a copy") {
  const IRModule first = passes::LegalizeOps{}(parse_module(R"(
def @f(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  add(%x, %x)
}
)"));
  REQUIRE(prim_names(first) == std::vector<std::string>{"add"});
  // A later run over new calls (here a new function) reuses @add from the first run,
  // and a hand-written function equal to a lowering (up to names) is reused as well.
  IRModule grown = first;
  grown.update(parse_module(R"(
def @g(%y: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %0 = add(%y, %y);
  negative(%0)
}
prim @my_negate(%A: Tensor[(4), float32], %B: Tensor[(4), float32]) {
  for %j in range(0, 4) {
    %B[%j] = -%A[%j];
  }
}
)"));
  const IRModule second = passes::LegalizeOps{}(grown);
  CHECK(prim_names(second) == std::vector<std::string>{"add", "my_negate"});
  const auto* g = second.find("g").as<FunctionNode>();
  REQUIRE(g != nullptr);
  const auto* outer = g->body.as<CallDpsNode>();
  REQUIRE(outer != nullptr);
  CHECK(outer->func->name == "my_negate");
  CHECK(outer->args[0].as<CallDpsNode>()->func->name == "add");
  CHECK(check_same_behaviour(grown, second) == 12); // @f, @g, @add, @my_negate
}

TEST_CASE("LegalizeOps gives generated functions names that no global has") {
  const IRModule mod = parse_module(R"(
def @add(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %0 = add(%x, %x);
  @add_1(%0)
}
def @add_1(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  nn.relu(%x)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  CHECK(prim_names(lowered) == std::vector<std::string>{"add_2", "nn_relu"});
  CHECK(lowered.find("add").is<FunctionNode>());
  CHECK(lowered.find("add_1").is<FunctionNode>());
  CHECK(check_same_behaviour(mod, lowered) == 6);
  // The same module lowers to the same names every time.
  CHECK_NOTHROW(assert_structural_equal(passes::LegalizeOps{}(mod), lowered));
}

TEST_CASE("LegalizeOps lowers a module whose lets have no type annotations") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2, 3), float32]) {
  let %t = transpose(%x);
  let %m = matmul(%x, %t);
  sum(%m, axis=[0])
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  CHECK(prim_names(lowered) == std::vector<std::string>{"transpose", "matmul", "sum"});
  CHECK(check_same_behaviour(mod, lowered) == 3);
}

TEST_CASE("LegalizeOps lowers calls inside closures and branches") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(3), float32], %c: Tensor[(), bool]) -> Tensor[(3), float32] {
  %0 = fn (%y: Tensor[(3), float32]) -> Tensor[(3), float32] {
    negative(%y)
  };
  if (%c) {
    %0(%x)
  } else {
    relu(%x)
  }
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  CHECK(prim_names(lowered) == std::vector<std::string>{"negative", "relu"});
  CHECK(check_same_behaviour(mod, lowered) == 3);
}

TEST_CASE("LegalizeOps lowers a shared call once and keeps it shared") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(3), float32]) -> Tensor[(3), float32] {
  %0 = add(%x, %x);
  multiply(%0, %0)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(mod);
  const Function main = try_downcast<FunctionNode>(lowered.find("main"));
  REQUIRE(main.defined());
  const auto* product = main->body.as<CallDpsNode>();
  REQUIRE(product != nullptr);
  REQUIRE(product->args.size() == 2);
  CHECK(product->args[0].is<CallDpsNode>());
  CHECK(product->args[0].same_as(product->args[1]));
  CHECK(check_same_behaviour(mod, lowered) == 3);
}

TEST_CASE("LegalizeOps lowers a user operator through LegalizeRegistry") {
  register_twice();
  CHECK(passes::LegalizeRegistry::global().contains("test.legalize.twice"));
  const IRModule user = parse_module(R"(
def @main(%x: Tensor[(2, 2), int32]) -> Tensor[(2, 2), int32] {
  %0 = test.legalize.twice(%x);
  add(%0, %x)
}
)");
  const IRModule lowered = passes::LegalizeOps{}(user);
  CHECK(prim_names(lowered) == std::vector<std::string>{"test_legalize_twice", "add"});
  CHECK(check_same_behaviour(user, lowered) == 3);
}

TEST_CASE("LegalizeRegistry refuses a second lowering for one operator unless replaced") {
  auto& registry = passes::LegalizeRegistry::global();
  const passes::Lowering decline = [](const passes::LegalizeCall&) { return Stmt(); };
  CHECK_THROWS_WITH_AS(registry.add("add", decline), doctest::Contains("already has a lowering"),
                       Error);
  CHECK_THROWS_WITH_AS(registry.add("test.legalize.empty", passes::Lowering()),
                       doctest::Contains("is empty"), Error);
  // A lowering that declines leaves the call alone.
  registry.add("test.legalize.declined", decline);
  OpRegistry::global().register_op(
      OpDef("test.legalize.declined")
          .set_num_inputs(1)
          .set_type_relation([](const std::vector<Type>& in, const Attrs&) { return in[0]; }));
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  test.legalize.declined(%x)
}
)");
  CHECK(passes::LegalizeOps{}(mod).same_as(mod));
  CHECK(registry.remove("test.legalize.declined"));
  CHECK_FALSE(registry.remove("test.legalize.declined"));
  const std::vector<std::string> names = registry.names();
  CHECK(std::find(names.begin(), names.end(), "matmul") != names.end());
  CHECK(std::find(names.begin(), names.end(), "exp") == names.end());
}

TEST_CASE("LegalizeOps reports an ill-typed module instead of lowering it") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  add(%x, const([1f, 2f, 3f]))
}
)");
  CHECK_THROWS_WITH_AS(passes::legalize_ops(mod),
                       doctest::Contains("LegalizeOps needs a well-typed module"), NodeError);
  try {
    (void)passes::legalize_ops(mod);
  } catch (const NodeError& e) {
    CHECK(e.node().is<CallNode>()); // the offending call
  }
  // Run as a pass, the error names the pass.
  CHECK_THROWS_WITH_AS(passes::LegalizeOps{}(mod),
                       doctest::Contains("LegalizeOps needs a well-typed module"), PassError);
  // In a sequential, the required InferType reports it first.
  const auto pipeline = sequential(passes::LegalizeOps{});
  PassContext ctx{{.opt_level = 0}};
  CHECK_THROWS_WITH_AS(pipeline(mod, ctx), doctest::Contains("InferType"), PassError);
}

TEST_CASE("LegalizeOps runs InferType first in a sequential") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  let %a = add(%x, 1f);
  %a
}
)");
  const auto pipeline = sequential(PassInfo{.name = "O0", .opt_level = 0}, passes::LegalizeOps{});
  PassContext ctx{{.opt_level = 0}};
  const IRModule out = pipeline(mod, ctx);
  const IRModule expected = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %a: Tensor[(2), float32] = call_dps @add(%x, 1f) -> Tensor[(2), float32];
  %a
}
prim @add(%in0: Tensor[(2), float32], %in1: Tensor[(), float32], %out: Tensor[(2), float32]) {
  for %i0 in range(0, 2) {
    %out[%i0] = %in0[%i0] + %in1[];
  }
}
)");
  CHECK_NOTHROW(assert_structural_equal(out, expected));
}

TEST_CASE("LegalizeOps is registered by name with opt_level 0 and requires InferType") {
  REQUIRE(PassRegistry::global().contains("LegalizeOps"));
  const Pass p = PassRegistry::global().create("LegalizeOps");
  CHECK(p.info().opt_level == 0);
  CHECK(p.info().required.contains("InferType"));
  CHECK_FALSE(p.info().invalidates_result("InferType"));
  CHECK(passes::LegalizeOps::info().opt_level == 0);
}
