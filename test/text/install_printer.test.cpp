// Tests of include/ctir/text/install_printer.hpp: structural mismatches shown in printed IR.
#include <ctir/ir/ir.hpp>
#include <ctir/text/install_printer.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace ctir;

namespace {
PrimFunc make_add(float constant) {
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  return PrimFunc::make("add_one", {A, B},
                        For::make(i, 0, n, TensorStore::make(B, {i}, load(A, {i}) + constant)));
}
/// The report of assert_structural_equal on two parsed modules.
std::string mismatch_of(const std::string& lhs, const std::string& rhs) {
  try {
    assert_structural_equal(parse_module(lhs), parse_module(rhs));
  } catch (const StructuralEqualError& error) {
    return error.what();
  }
  return "(equal)";
}

/// The line `line` of the report followed by its underline: `column` spaces and
/// `width` carets.
std::string underlined(const std::string& line, std::size_t column, std::size_t width) {
  return line + "\n" + std::string(column, ' ') + std::string(width, '^') + "\n";
}
} // namespace

TEST_CASE("a structural mismatch underlines the differing literal in both printed programs") {
  REQUIRE((detail::program_printer == &detail::print_underlined));
  std::string message;
  try {
    assert_structural_equal(make_add(1.0f), make_add(2.0f));
  } catch (const StructuralEqualError& error) {
    message = error.what();
  }
  CAPTURE(message);
  CHECK(message.find("<root>.body.seq[0].body.seq[0].value.b.value") != std::string::npos);
  const std::size_t lhs = message.find("    %B[%i] = %A[%i] + 1f;\n");
  const std::size_t rhs = message.find("    %B[%i] = %A[%i] + 2f;\n");
  REQUIRE(lhs != std::string::npos);
  REQUIRE(rhs != std::string::npos);
  CHECK(lhs < rhs);
  const std::string caret = std::string(22, ' ') + "^^\n";
  CHECK(message.find(caret, lhs) < rhs);
  CHECK(message.find(caret, rhs) != std::string::npos);
}

TEST_CASE("a variable is underlined at the use that differs, not at its definition") {
  // %i is bound by the loop and used three times in the store; only the last use
  // differs, and it is the one underlined on both sides.
  const std::string message = mismatch_of(R"(
prim @f(%A: Tensor[(4), int32], %B: Tensor[(4), int32]) {
  for %i in range(0, 4) {
    let %j = %i + 1;
    %B[%i] = %A[%i] * %i;
  }
}
)",
                                          R"(
prim @f(%A: Tensor[(4), int32], %B: Tensor[(4), int32]) {
  for %i in range(0, 4) {
    let %j = %i + 1;
    %B[%i] = %A[%i] * %j;
  }
}
)");
  CAPTURE(message);
  CHECK(message.find("<root>.functions[0].body.seq[0].body.seq[1].value.b") != std::string::npos);
  CHECK(message.find(underlined("    %B[%i] = %A[%i] * %i;", 22, 2)) != std::string::npos);
  CHECK(message.find(underlined("    %B[%i] = %A[%i] * %j;", 22, 2)) != std::string::npos);
  CHECK(message.find("for %i in range(0, 4) {\n      ^") == std::string::npos);
}

TEST_CASE("of a node used twice in one expression, the occurrence on the path is underlined") {
  const std::string message = mismatch_of(R"(
prim @f(%A: Tensor[(4), int32], %B: Tensor[(4), int32]) {
  for %i in range(0, 4) {
    %B[%i] = %A[%i] + %A[%i];
  }
}
)",
                                          R"(
prim @f(%A: Tensor[(4), int32], %B: Tensor[(4), int32]) {
  for %i in range(0, 4) {
    %B[%i] = %A[%i] + %B[%i];
  }
}
)");
  CAPTURE(message);
  CHECK(message.find(".value.b.source") != std::string::npos);
  CHECK(message.find(underlined("    %B[%i] = %A[%i] + %A[%i];", 22, 2)) != std::string::npos);
  CHECK(message.find(underlined("    %B[%i] = %A[%i] + %B[%i];", 22, 2)) != std::string::npos);
}

TEST_CASE("a mismatch inside a shared graph-level node is underlined in its binding") {
  const std::string message = mismatch_of(R"(
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {
  %0 = add(%x, %y);
  multiply(%0, %0)
}
)",
                                          R"(
def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {
  %0 = add(%x, %x);
  multiply(%0, %0)
}
)");
  CAPTURE(message);
  // The path goes through the first use of %0 into its value, printed at its binding.
  CHECK(message.find("<root>.functions[0].body.args") != std::string::npos);
  CHECK(message.find(underlined("  %0 = add(%x, %y);", 15, 2)) != std::string::npos);
  CHECK(message.find(underlined("  %0 = add(%x, %x);", 15, 2)) != std::string::npos);
}

TEST_CASE("a shared node against an unshared one is underlined at the differing use") {
  const std::string message = mismatch_of(R"(
def @main(%x: Tensor[(2), float32]) {
  %0 = exp(%x);
  %1 = exp(%x);
  multiply(%0, %1)
}
)",
                                          R"(
def @main(%x: Tensor[(2), float32]) {
  %0 = exp(%x);
  multiply(%0, %0)
}
)");
  CAPTURE(message);
  CHECK(message.find(".body.args[1]") != std::string::npos);
  CHECK(message.find(underlined("  multiply(%0, %1)", 15, 2)) != std::string::npos);
  CHECK(message.find(underlined("  multiply(%0, %0)", 15, 2)) != std::string::npos);
}
