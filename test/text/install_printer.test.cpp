// Tests of include/ctir/text/install_printer.hpp: structural mismatches shown in printed IR.
#include <ctir/ir/ir.hpp>
#include <ctir/text/install_printer.hpp>

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
