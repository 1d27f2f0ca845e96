// Tests of ctir/pass/error.hpp: PassError and InstrumentError messages, the node location.
#include <ctir/pass/error.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/text/printer.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <stdexcept>
#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("a PassError names the pass and keeps the parts of its message") {
  const PassError error("FoldConstant", "division by zero", "  at a.ctir:1:2");
  CHECK(std::string(error.what()) ==
        "Error in pass FoldConstant: division by zero\n  at a.ctir:1:2");
  CHECK(error.pass_name() == "FoldConstant");
  CHECK(error.message() == "division by zero");
  CHECK(error.location() == "  at a.ctir:1:2");
  CHECK_FALSE(error.original());
  const Error& base = error; // a ctir::Error
  CHECK(std::string(base.what()).starts_with("Error in pass"));
}

TEST_CASE("an InstrumentError names the instrument, the hook and the pass") {
  const InstrumentError with_pass("Timing", "run_before_pass", "A", "boom");
  CHECK(std::string(with_pass.what()) ==
        "Error in instrument Timing (run_before_pass of pass A): boom");
  const InstrumentError without_pass("Timing", "enter_pass_ctx", "", "boom");
  CHECK(std::string(without_pass.what()) == "Error in instrument Timing (enter_pass_ctx): boom");
  CHECK(without_pass.hook() == "enter_pass_ctx");
  CHECK(without_pass.instrument() == "Timing");
}

TEST_CASE("rethrow_as_pass_error wraps once and keeps the original exception") {
  const auto wrap = [](auto&& thrower) -> std::string {
    try {
      try {
        thrower();
      } catch (...) {
        detail::rethrow_as_pass_error("P");
      }
    } catch (const PassError& error) {
      if (!error.original()) {
        return std::string(error.what()) + " | ?";
      }
      try {
        std::rethrow_exception(error.original());
      } catch (const std::exception& original) {
        return std::string(error.what()) + " | " + original.what();
      } catch (...) {
        return std::string(error.what()) + " | ?";
      }
    } catch (const InstrumentError& error) {
      return std::string("instrument: ") + error.what();
    }
    return "<nothing>";
  };
  CHECK(wrap([] { throw std::out_of_range("index 9"); }) == "Error in pass P: index 9 | index 9");
  CHECK(wrap([] { throw PassError("Inner", "bad"); }) == "Error in pass Inner: bad | ?");
  CHECK(wrap([] { throw InstrumentError("I", "should_run", "Q", "no"); }) ==
        "instrument: Error in instrument I (should_run of pass Q): no");
  CHECK(wrap([] { throw 3; }) ==
        "Error in pass P: unknown exception (not derived from std::exception) | ?");
}

TEST_CASE("a node without a span has no location; one with a span has 'at file:line:col'") {
  const Var plain = Var::make("x", DataType::int32());
  CHECK(detail::node_location(plain, {}).empty());
  CHECK(detail::node_location({}, {}).empty());
  auto node = make_object<VarNode>();
  node->name = "y";
  node->ty = PrimType::make(DataType::int32());
  node->span.line = 2;
  node->span.column = 5;
  const Var spanned = std::move(node).publish();
  CHECK(detail::node_location(spanned, {}) == "  at <input>:2:5");
}

namespace {
std::string throwing_printer(const ObjectRef&, const ObjectRef&) {
  throw std::runtime_error("printer broke");
}
} // namespace

TEST_CASE("a printer that throws does not spoil the error report") {
  const pass_error_printer_fn previous = set_pass_error_printer(&throwing_printer);
  auto node = make_object<VarNode>();
  node->name = "y";
  node->ty = PrimType::make(DataType::int32());
  node->span.line = 2;
  node->span.column = 5;
  const Var spanned = std::move(node).publish();
  CHECK(detail::node_location(spanned, {}) == "  at <input>:2:5");
  set_pass_error_printer(previous);
}

namespace {
/// What the text layer installs: the IR around the node, the node underlined.
std::string underline_with_text_printer(const ObjectRef& root, const ObjectRef& node) {
  return print_with_ranges(root).underline(node.get());
}
} // namespace

TEST_CASE("the text printer's underline plugs into the pass error printer") {
  const pass_error_printer_fn previous = set_pass_error_printer(&underline_with_text_printer);
  const Var n = Var::make("n", DataType::int32());
  const Var a = Var::make("A", TensorType::make({n}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  const PrimExpr value = TensorLoad::make(a, {i}) + 1.0f;
  IRModule mod;
  mod.add("add_one",
          PrimFunc::make("add_one", {a}, For::make(i, 0, n, TensorStore::make(a, {i}, value))));
  const std::string location = detail::node_location(value, mod.node());
  CHECK(contains(location, "%A[%i] + 1f"));
  CHECK(contains(location, "^^^"));
  set_pass_error_printer(previous);
}
