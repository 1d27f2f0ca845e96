// Tests of ctir/pass/print_ir_pass.hpp: the PrintIR pass, static and from pipeline strings.
#include <ctir/pass/print_ir_pass.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/pipeline.hpp>

#include <doctest/doctest.h>
#include <instrument_testing.hpp>
#include <pass_testing.hpp>

#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("PrintIR prints the module and returns the same module object") {
  std::ostringstream out;
  const IRModule mod = unary_module("exp");
  const IRModule result = PrintIR(out)(mod);
  CHECK(result.same_as(mod));
  CHECK(out.str() == exp_text);
}

TEST_CASE("PrintIR with a header prints it as a comment line first") {
  std::ostringstream out;
  static_cast<void>(PrintIR(out, "after\nInferType")(unary_module("exp")));
  CHECK(out.str() == "# after InferType\n" + exp_text);
}

TEST_CASE("PrintIR in a static pipeline prints the module where it stands") {
  std::ostringstream out;
  const auto to_log = make_module_pass("ExpToLog", 1, [](IRModule) { return unary_module("log"); });
  const auto pipeline = sequential(PrintIR(out, "before"), to_log, PrintIR(out, "after"));
  const IRModule result = pipeline(unary_module("exp"));
  CHECK(out.str() == "# before\n" + exp_text + "# after\n" + log_text);
  CHECK(print(result) == log_text);
  static_assert(module_pass<PrintIR>);
  static_assert(has_static_info<PrintIR>);
  CHECK(PrintIR::info().opt_level == 0);
}

TEST_CASE("PrintIR is registered, so pipeline strings can use it with its options") {
  REQUIRE(PassRegistry::global().contains("PrintIR"));
  const IRModule mod = unary_module("exp");
  {
    Capture err(std::cerr);
    const IRModule result = parse_pipeline("PrintIR")(mod);
    CHECK(result.same_as(mod));
    CHECK(err.str() == exp_text);
  }
  {
    Capture out(std::cout);
    const Pass pass = parse_pipeline("PrintIR{header=\"before all\",stream=stdout}");
    CHECK(pass.str() == "PrintIR{header=\"before all\",stream=stdout}");
    static_cast<void>(pass(mod));
    CHECK(out.str() == "# before all\n" + exp_text);
  }
}

TEST_CASE("PrintIR with an unknown stream is an error in the pass") {
  PrintIR printer;
  printer.stream = "stdlog";
  const std::string message = error_of([&] { printer(unary_module("exp")); });
  CHECK(message == "Error in pass PrintIR: ctir: PrintIR: stream must be 'stderr' or 'stdout', "
                   "not 'stdlog'");
}
