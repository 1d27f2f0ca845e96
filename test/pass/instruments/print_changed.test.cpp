// Tests of ctir/pass/instruments/print_changed.hpp: a diff after each pass that changed the IR.
#include <ctir/pass/instruments/print_changed.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <instrument_testing.hpp>
#include <pass_testing.hpp>

#include <sstream>
#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// unary_module(op) with a second function, `@helper`.
IRModule with_helper(IRModule mod) {
  const Var y = Var::make("y", tensor_type({2}, DataType::float32()));
  mod.add("helper", Function::make({y}, call("sqrt", {y}), {}, {}, "helper"));
  return mod;
}

/// Returns a new module object holding the same functions: changed identity, same text.
auto rebuild_pass(std::string name) {
  return make_module_pass(PassInfo{.name = name}, [](IRModule mod) {
    IRModule copy;
    for (auto [global, function] : mod) {
      copy.add(global->name, function);
    }
    return copy;
  });
}
/// Replaces @main by `log(%x)`, keeping the other functions (unlike exp_to_log_pass).
auto main_to_log_pass(std::string name) {
  return make_module_pass(PassInfo{.name = name}, [](IRModule mod) {
    mod.update("main", unary_module("log").lookup("main"));
    return mod;
  });
}

} // namespace

TEST_CASE("print-changed prints nothing for a pass that returns the same module") {
  std::ostringstream out;
  InstrumentedPassContext ctx{{}, PrintChangedInstrument(out)};
  const IRModule mod = unary_module("exp");
  CHECK(keep_pass("Keep")(mod, ctx).same_as(mod));
  CHECK(out.str().empty());
}

TEST_CASE("print-changed prints nothing for a new module object that prints the same") {
  std::ostringstream out;
  PassContext ctx{{.instruments = {PrintChangedInstrument(out)}}};
  const IRModule mod = unary_module("exp");
  CHECK_FALSE(rebuild_pass("Rebuild")(mod, ctx).same_as(mod));
  CHECK(out.str().empty());
}

TEST_CASE("print-changed prints a unified diff with - and + lines for a pass that changed the IR") {
  std::ostringstream out;
  InstrumentedPassContext ctx{{}, PrintChangedInstrument(out)};
  static_cast<void>(main_to_log_pass("ExpToLog")(unary_module("exp"), ctx));
  CHECK(out.str() == "# IR changed by pass ExpToLog\n"
                     "--- before ExpToLog\n"
                     "+++ after ExpToLog\n"
                     "@@ -1,3 +1,3 @@\n"
                     " def @main(%x: Tensor[(2), float32]) {\n"
                     "-  exp(%x)\n"
                     "+  log(%x)\n"
                     " }\n");
}

TEST_CASE("print-changed shows only the changed region of a larger module, with context lines") {
  std::ostringstream out;
  PassContext ctx{
      {.instruments = {PrintChangedInstrument(out, {.passes = PassFilter::all(), .context = 1})}}};
  static_cast<void>(main_to_log_pass("ExpToLog")(with_helper(unary_module("exp")), ctx));
  // The module prints as main (3 lines), a blank line, helper (3 lines): @helper is unchanged
  // and, one line of context away, not shown.
  CHECK(out.str() == "# IR changed by pass ExpToLog\n"
                     "--- before ExpToLog\n"
                     "+++ after ExpToLog\n"
                     "@@ -1,3 +1,3 @@\n"
                     " def @main(%x: Tensor[(2), float32]) {\n"
                     "-  exp(%x)\n"
                     "+  log(%x)\n"
                     " }\n");
}

TEST_CASE("in a sequential, print-changed over all passes reports the passes inside it, not the "
          "sequential; named, the sequential is reported") {
  const auto pipeline = sequential(keep_pass("Keep"), main_to_log_pass("ExpToLog"));
  std::ostringstream all;
  PassContext all_ctx{{.instruments = {PrintChangedInstrument(all)}}};
  static_cast<void>(pipeline(unary_module("exp"), all_ctx));
  CHECK(all.str().starts_with("# IR changed by pass ExpToLog\n"));
  CHECK_FALSE(contains(all.str(), "sequential"));
  CHECK_FALSE(contains(all.str(), "Keep"));

  std::ostringstream named;
  PassContext named_ctx{
      {.instruments = {PrintChangedInstrument(named, {.passes = {"sequential"}})}}};
  static_cast<void>(pipeline(unary_module("exp"), named_ctx));
  CHECK(named.str().starts_with("# IR changed by pass sequential\n--- before sequential\n"));
  CHECK(contains(named.str(), "-  exp(%x)\n+  log(%x)\n"));
  CHECK_FALSE(contains(named.str(), "ExpToLog"));
}

TEST_CASE("print-changed forgets a failed pass and keeps reporting the ones after it") {
  std::ostringstream out;
  EventLog log;
  PrintChangedInstrument changed(out);
  PassContext ctx{{.instruments = {Instrument::reference(changed)}}};
  const IRModule mod = unary_module("exp");
  CHECK_THROWS_AS(throwing_pass("Broken", log)(mod, ctx), PassError);
  static_cast<void>(main_to_log_pass("ExpToLog")(mod, ctx));
  CHECK(out.str().starts_with("# IR changed by pass ExpToLog\n"));
  CHECK_FALSE(contains(out.str(), "Broken"));
}

TEST_CASE("print-changed is a static pass instrument named PrintChanged") {
  static_assert(pass_instrument<PrintChangedInstrument>);
  CHECK(Instrument(PrintChangedInstrument()).name() == "PrintChanged");
  CHECK(PrintChangedInstrument().options().context == 3);
}
