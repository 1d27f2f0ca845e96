// Tests of ctir/pass/instruments/print_ir.hpp: printing the module before/after passes.
#include <ctir/pass/instruments/print_ir.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/text/printer.hpp>

#include <doctest/doctest.h>
#include <instrument_testing.hpp>
#include <pass_testing.hpp>

#include <sstream>
#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("print before a named pass prints the module that pass receives, headed by its name") {
  std::ostringstream out;
  InstrumentedPassContext ctx{{}, PrintIRInstrument::before({"Rewrite"}, out)};
  const auto pipeline = sequential(keep_pass("Keep"), exp_to_log_pass("Rewrite"));
  const IRModule result = pipeline(unary_module("exp"), ctx);
  CHECK(print(result) == log_text);
  CHECK(out.str() == "# IR before pass Rewrite\n" + exp_text);
}

TEST_CASE("print after a named pass prints the module that pass returns") {
  std::ostringstream out;
  InstrumentedPassContext ctx{{}, PrintIRInstrument::after({"Rewrite"}, out)};
  const auto pipeline = sequential(exp_to_log_pass("Rewrite"), keep_pass("Keep"));
  static_cast<void>(pipeline(unary_module("exp"), ctx));
  CHECK(out.str() == "# IR after pass Rewrite\n" + log_text);
}

TEST_CASE("print before all and after all, as runtime instruments, print around every pass run "
          "including the sequential, in hook order") {
  std::ostringstream before;
  std::ostringstream after;
  PassContext ctx{{.instruments = {PrintIRInstrument::before_all(before),
                                   PrintIRInstrument::after_all(after)}}};
  const auto pipeline = sequential(keep_pass("Keep"), exp_to_log_pass("Rewrite"));
  static_cast<void>(pipeline(unary_module("exp"), ctx));
  CHECK(before.str() == "# IR before pass sequential\n" + exp_text + "# IR before pass Keep\n" +
                            exp_text + "# IR before pass Rewrite\n" + exp_text);
  CHECK(after.str() == "# IR after pass Keep\n" + exp_text + "# IR after pass Rewrite\n" +
                           log_text + "# IR after pass sequential\n" + log_text);
}

TEST_CASE("one instrument can print before some passes and after others on the same stream") {
  std::ostringstream out;
  PassContext ctx{{.instruments = {PrintIRInstrument({"Rewrite"}, {"Keep"}, out)}}};
  static_cast<void>(
      sequential(exp_to_log_pass("Rewrite"), keep_pass("Keep"))(unary_module("exp"), ctx));
  CHECK(out.str() == "# IR before pass Rewrite\n" + exp_text + "# IR after pass Keep\n" + log_text);
}

TEST_CASE("passes the filters do not name print nothing, and a vetoed pass prints nothing") {
  std::ostringstream out;
  RecordingInstrument veto{.id = "v", .log = {}, .skip = "Rewrite"};
  PassContext ctx{{.instruments = {veto, PrintIRInstrument({"Rewrite"}, {"Rewrite"}, out)}}};
  const IRModule mod = unary_module("exp");
  const IRModule result = sequential(keep_pass("Keep"), exp_to_log_pass("Rewrite"))(mod, ctx);
  CHECK(result.same_as(mod));
  CHECK(out.str().empty());
}

TEST_CASE("a module the text format cannot express prints as a comment saying why") {
  IRModule mod;
  mod.add("main", Function::make({}, Expr(), {}, {}, "main")); // a function without a body
  std::ostringstream out;
  PrintIRInstrument printer = PrintIRInstrument::after_all(out);
  printer.run_after_pass(mod, PassInfo{.name = "P"});
  CHECK(out.str().starts_with("# IR after pass P\n# cannot print the module: "));
}

TEST_CASE("PassFilter selects none, all, or the names given; parse reads command-line lists") {
  CHECK(PassFilter().is_none());
  CHECK_FALSE(PassFilter().matches("A"));
  CHECK(PassFilter::all().matches("anything"));
  const PassFilter named{"A", "B"};
  CHECK(named.matches("A"));
  CHECK(named.matches("B"));
  CHECK_FALSE(named.matches("C"));
  CHECK(PassFilter::parse("all").is_all());
  CHECK(PassFilter::parse(" * ").is_all());
  CHECK(PassFilter::parse("").is_none());
  const PassFilter parsed = PassFilter::parse(" InferType , FoldConstant,,");
  CHECK(parsed.names() == std::vector<std::string>{"InferType", "FoldConstant"});
  CHECK_FALSE(parsed.matches("all"));
}

TEST_CASE("the print instrument is a static pass instrument and has a name") {
  static_assert(pass_instrument<PrintIRInstrument>);
  const Instrument erased = PrintIRInstrument::before_all();
  CHECK(erased.name() == "PrintBeforeAfter");
  CHECK(erased.target<PrintIRInstrument>() != nullptr);
  CHECK(erased.target<PrintIRInstrument>()->before_filter().is_all());
}
