// Tests of random_inputs: deterministic values shaped by the parameter types.
#include <ctir/eval/random_inputs.hpp> // first: the header must compile on its own

#include <ctir/eval/interpreter.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::eval;

namespace {

constexpr std::string_view text = R"(
def @main(%x: Tensor[(%n, 3), float32], %y: Tensor[(%n), int32], %c: bool, %t: Tuple[Tensor[(2), uint8], int64]) {
  %x
}

prim @kernel[%n](%A: Tensor[(%n + 1), float32], %n: int32, %B: Tensor[(%n), int8]) {
  %B[0] = cast<int8>(%n);
}

def @higher(%f: fn (Tensor[(2), float32]) -> Tensor[(2), float32]) {
  %f
}
)";

} // namespace

TEST_CASE("random inputs follow the parameter types, with one size per shape variable") {
  const IRModule mod = parse_module(text);
  const auto inputs = random_inputs(mod, "main", 7);
  REQUIRE(inputs.size() == 4);
  CHECK(type_str(inputs[0].type()) == "Tensor[(4, 3), float32]");
  CHECK(type_str(inputs[1].type()) == "Tensor[(4), int32]");
  CHECK(type_str(inputs[2].type()) == "Tensor[(), bool]");
  CHECK(type_str(inputs[3].type()) == "Tuple[Tensor[(2), uint8], Tensor[(), int64]]");
  for (std::size_t k = 0; k < inputs[0].as_tensor().size(); ++k) {
    const double v = inputs[0].as_tensor().get(k);
    CHECK(v >= -4);
    CHECK(v < 4);
    CHECK(v * 8 == static_cast<double>(static_cast<int>(v * 8)));
  }
  RandomInputOptions options;
  options.dim = 2;
  CHECK(type_str(random_inputs(mod, "main", 7, options)[1].type()) == "Tensor[(2), int32]");
}

TEST_CASE("the same seed gives the same inputs and another seed other inputs") {
  const IRModule mod = parse_module(text);
  CHECK(random_inputs(mod, "main", 42) == random_inputs(mod, "main", 42));
  CHECK_FALSE(random_inputs(mod, "main", 42) == random_inputs(mod, "main", 43));
  // Pinned: a change of generator would change every recorded `ctir-opt --run` output.
  const auto pinned = random_inputs(
      parse_module("def @main(%y: Tensor[(%n), int32], %x: Tensor[(3), float32]) { %x }"), "main",
      1);
  CHECK(to_string(pinned[0]) == "Tensor[(4), int32] [-7, -1, 6, 3]");
  CHECK(to_string(pinned[1]) == "Tensor[(3), float32] [3.125f, -4f, 0.625f]");
}

TEST_CASE("tensor-level inputs are scalars, and a shape variable parameter gets its size") {
  const IRModule mod = parse_module(text);
  const auto inputs = random_inputs(mod, "kernel", 3);
  REQUIRE(inputs.size() == 3);
  CHECK(type_str(inputs[0].type()) == "Tensor[(5), float32]");
  CHECK(inputs[1] == Value(Scalar::make_int(DataType::int32(), 4)));
  CHECK(type_str(inputs[2].type()) == "Tensor[(4), int8]");
  Interpreter interp(mod);
  const auto outs = interp.call("kernel", inputs);
  CHECK(outs[2].as_tensor().get(0) == 4);
}

TEST_CASE("a function-typed parameter has no random input") {
  const IRModule mod = parse_module(text);
  CHECK_THROWS_WITH_AS(random_inputs(mod, "higher", 0),
                       doctest::Contains("parameter 0 (%f) has type fn (Tensor[(2), float32]) -> "
                                         "Tensor[(2), float32], for which no random input can be "
                                         "made"),
                       EvalError);
}
