// Tests of ctir/pass/instruments/verify.hpp: check_well_formed, its error, and the instrument
// that verifies after every pass (the analysis is tested in test/ir/analysis/).
#include <ctir/pass/instruments/verify.hpp>

#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <exception>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

TensorType tensor(std::vector<std::int64_t> shape, DataType dtype = DataType::float32()) {
  return tensor_type(std::move(shape), dtype);
}

/// A module whose only function is `function`, named @main.
IRModule module_of(BaseFunc function) {
  IRModule mod;
  mod.add("main", std::move(function));
  return mod;
}

} // namespace

// ---- errors and the instrument ----------------------------------------------------------

TEST_CASE("check_well_formed throws a WellFormedError listing the problems and underlining the "
          "first in the printed module") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  const IRModule mod = module_of(Function::make({x}, call("exp", {y})));
  try {
    check_well_formed(mod);
    FAIL("no error");
  } catch (const WellFormedError& error) {
    const std::string message = error.what();
    CHECK(message.starts_with("ctir: the module is not well-formed (1 problem):\n  @main.body."
                              "args[0]: variable '%y' is used but not defined"));
    CHECK(contains(message, "\n@main.body.args[0] in the printed module:\n"));
    CHECK(contains(message, "  exp(%y)\n      ^^\n"));
    CHECK(error.diagnostics().size() == 1);
    CHECK(error.node().same_as(y));
    CHECK(error.pass_name().empty());
  }
}

TEST_CASE("the error underlines the first problem that is not a duplicate definition, whose "
          "variable text cannot tell which site is meant") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  auto u = Var::make("u", DataType::int32());
  auto loop = [&](PrimExpr index) {
    return For::make(i, 0, n, TensorStore::make(A, {index}, 0.0f));
  };
  const std::string both = error_of([&] {
    check_well_formed(module_of(PrimFunc::make("f", {A}, SeqStmt::make({loop(i), loop(u)}))));
  });
  CHECK(contains(both, "(2 problems):\n  @main.body.seq[1].var: variable '%i' is defined more than "
                       "once"));
  CHECK(contains(both, "\n@main.body.seq[1].body.seq[0].indices[0] in the printed module:\n"));
  const std::string only_duplicate = error_of([&] {
    check_well_formed(module_of(PrimFunc::make("f", {A}, SeqStmt::make({loop(i), loop(i)}))));
  });
  CHECK(contains(only_duplicate, "(1 problem):"));
  CHECK_FALSE(contains(only_duplicate, "in the printed module"));
}

TEST_CASE("the verify instrument names the pass that broke the IR") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  const IRModule good = module_of(Function::make({x}, call("exp", {x})));
  const auto keep = make_module_pass("Keep", 0, [](IRModule mod) { return mod; });
  const auto breaker = make_module_pass("Breaker", 0, [&](IRModule mod) {
    mod.update("main", Function::make({x}, call("exp", {y})));
    return mod;
  });

  SUBCASE("as a static instrument") {
    InstrumentedPassContext ctx{{}, VerifyWellFormedInstrument()};
    CHECK(sequential(keep, keep)(good, ctx).same_as(good));
    const std::string message = error_of([&] { sequential(keep, breaker, keep)(good, ctx); });
    CHECK(message.starts_with("Error in instrument VerifyWellFormed (run_after_pass of pass "
                              "Breaker): ctir: pass 'Breaker' broke the IR (1 problem):\n"));
    CHECK(contains(message, "@main.body.args[0]: variable '%y' is used but not defined"));
  }
  SUBCASE("as a runtime instrument, with the WellFormedError as the original exception") {
    PassContext ctx{{.instruments = {VerifyWellFormedInstrument()}}};
    try {
      static_cast<void>(sequential(keep, breaker)(good, ctx));
      FAIL("no error");
    } catch (const InstrumentError& error) {
      CHECK(error.pass_name() == "Breaker");
      try {
        std::rethrow_exception(error.original());
      } catch (const WellFormedError& original) {
        CHECK(original.pass_name() == "Breaker");
        REQUIRE(original.diagnostics().size() == 1);
        CHECK(original.diagnostics()[0].path.str() == "<root>.functions[0].body.args[0]");
      }
    }
  }
}

TEST_CASE("the verify instrument blames a module broken before the pipeline on no pass, unless "
          "told not to check inputs") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  const IRModule broken = module_of(Function::make({x}, call("exp", {y})));
  const auto keep = make_module_pass("Keep", 0, [](IRModule mod) { return mod; });
  PassContext checked{{.instruments = {VerifyWellFormedInstrument()}}};
  const std::string message = error_of([&] { keep(broken, checked); });
  CHECK(contains(message, "(run_before_pass of pass Keep): ctir: the module given to pass 'Keep' "
                          "is not well-formed, so it was broken before that pass ran"));
  PassContext unchecked{
      {.instruments = {VerifyWellFormedInstrument({.check_input = false, .verifier = {}})}}};
  CHECK(contains(error_of([&] { keep(broken, unchecked); }),
                 "(run_after_pass of pass Keep): ctir: pass 'Keep' broke the IR"));
  static_assert(pass_instrument<VerifyWellFormedInstrument>);
}
