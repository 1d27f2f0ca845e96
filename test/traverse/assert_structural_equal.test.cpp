// Tests of assert_structural_equal: the error, its paths and its message.
#include <ctir/ctir.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <stdexcept>
#include <string>

using namespace ctir;
using ctir::testing::make_add;

namespace {

const char* const seed_path = "<root>.body.seq[0].body.seq[0].value.b.value";

/// Installs a program printer for the duration of a test.
class PrinterScope {
public:
  using Printer = std::string (*)(const ObjectRef&, const Object*, const AccessPath&);
  explicit PrinterScope(Printer printer) : saved_(ctir::detail::program_printer) {
    ctir::detail::program_printer = printer;
  }
  PrinterScope(const PrinterScope&) = delete;
  PrinterScope& operator=(const PrinterScope&) = delete;
  ~PrinterScope() { ctir::detail::program_printer = saved_; }

private:
  Printer saved_;
};

/// A stand-in for the text printer: names the root and the underlined node.
std::string fake_printer(const ObjectRef& root, const Object* node, const AccessPath&) {
  std::string out = "<program " + std::string(root->dynamic_type_key()) + ">\n";
  out += "    ^^^ " + detail::structural_short_repr(node);
  return out; // no trailing newline: the report adds one
}

std::string throwing_printer(const ObjectRef&, const Object*, const AccessPath&) {
  throw std::runtime_error("cannot print");
}

StructuralEqualError error_of(const ObjectRef& a, const ObjectRef& b,
                              StructuralEqualOptions options = {}) {
  try {
    assert_structural_equal(a, b, options);
  } catch (const StructuralEqualError& error) {
    return error;
  }
  FAIL("assert_structural_equal did not throw");
  throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("assert_structural_equal returns quietly for equal programs") {
  CHECK_NOTHROW(assert_structural_equal(make_add(1), make_add(1)));
  const Var x = Var::make("x", DataType::int32());
  const Var y = Var::make("y", DataType::int32());
  CHECK_NOTHROW(assert_structural_equal(x + 1, y + 1, {.map_free_vars = true}));
  CHECK_THROWS_AS(assert_structural_equal(x + 1, y + 1), StructuralEqualError);
}

TEST_CASE("the error names the access path of the first mismatch on both sides") {
  const PrimFunc one = make_add(1);
  const PrimFunc two = make_add(2);
  const StructuralEqualError error = error_of(one, two);
  CHECK(error.lhs_path().str() == seed_path);
  CHECK(error.rhs_path().str() == seed_path);
  REQUIRE(error.lhs_node().is<FloatImmNode>());
  REQUIRE(error.rhs_node().is<FloatImmNode>());
  CHECK(error.lhs_node().as<FloatImmNode>()->value == 1.0);
  CHECK(error.rhs_node().as<FloatImmNode>()->value == 2.0);
  CHECK(error.mismatch().reason == "field 'value' differs: 1.0 vs 2.0");
}

TEST_CASE("without a printer the message shows the paths and both nodes in short") {
  PrinterScope none(nullptr);
  const std::string message = error_of(make_add(1), make_add(2)).what();
  const std::string expected =
      std::string("StructuralEqual check failed, caused by lhs at ") + seed_path + ":\n" +
      "  ir.FloatImm(dtype=float32, value=1.0)\n" + "and rhs at " + seed_path + ":\n" +
      "  ir.FloatImm(dtype=float32, value=2.0)\n" + "reason: field 'value' differs: 1.0 vs 2.0";
  CHECK(message == expected);
}

TEST_CASE("an installed program printer shows each program with its node underlined") {
  PrinterScope scope(&fake_printer);
  const std::string message = error_of(make_add(1), make_add(2)).what();
  const std::string expected =
      std::string("StructuralEqual check failed, caused by lhs at ") + seed_path + ":\n" +
      "<program ir.PrimFunc>\n    ^^^ ir.FloatImm(dtype=float32, value=1.0)\n" + "and rhs at " +
      seed_path + ":\n" + "<program ir.PrimFunc>\n    ^^^ ir.FloatImm(dtype=float32, value=2.0)\n" +
      "reason: field 'value' differs: 1.0 vs 2.0";
  CHECK(message == expected);
}

TEST_CASE("a printer that fails does not hide the mismatch") {
  PrinterScope scope(&throwing_printer);
  const std::string message = error_of(make_add(1), make_add(2)).what();
  CHECK(message.find("ir.FloatImm(dtype=float32, value=1.0)") != std::string::npos);
  CHECK(message.find(seed_path) != std::string::npos);
}

TEST_CASE("the error is a ctir::Error") {
  CHECK_THROWS_AS(assert_structural_equal(make_add(1), make_add(2)), Error);
  CHECK_THROWS_WITH_AS(assert_structural_equal(make_add(1), make_add(2)),
                       doctest::Contains("StructuralEqual check failed"), Error);
}

TEST_CASE("short renderings name variables, printable types and child kinds") {
  PrinterScope none(nullptr);
  const Var x = Var::make("x", DataType::int32());
  CHECK(detail::structural_short_repr(x.get()) == "ir.Var('x')");
  CHECK(detail::structural_short_repr(PrimType::make(DataType::int64()).get()) ==
        "ir.PrimType(int64)");
  CHECK(detail::structural_short_repr(nullptr) == "null");
  const PrimExpr sum = x + 1;
  CHECK(detail::structural_short_repr(sum.get()) == "ir.Add(a=ir.Var, b=ir.IntImm)");
  CHECK(detail::structural_short_repr(make_add(1)->body.get()) == "ir.SeqStmt(seq=[1 items])");
  // A mismatch at a null: the report shows the node that holds the null field.
  const std::string message =
      error_of(Var::make("v"), Var::make("v", DataType::int32()), {.map_free_vars = true}).what();
  CHECK(message.find("caused by lhs at <root>.ty:\n  ir.Var('v')\n") != std::string::npos);
  CHECK(message.find("and rhs at <root>.ty:\n  ir.PrimType(int32)\n") != std::string::npos);
}

TEST_CASE("format_structural_mismatch words any mismatch like the assertion") {
  PrinterScope none(nullptr);
  const PrimFunc one = make_add(1);
  const PrimFunc two = make_add(2);
  const auto mismatch = find_structural_mismatch(one, two);
  REQUIRE(mismatch);
  CHECK(format_structural_mismatch(one, two, *mismatch) == error_of(one, two).what());
}
