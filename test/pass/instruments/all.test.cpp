// Tests of ctir/pass/instruments/all.hpp: every built-in instrument together on one pipeline.
#include <ctir/pass/instruments/all.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <instrument_testing.hpp>
#include <pass_testing.hpp>

#include <filesystem>
#include <random>
#include <sstream>
#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("every built-in instrument runs on one pipeline, statically and at run time") {
  const auto to_log = make_module_pass("ExpToLog", 1, [](IRModule) { return unary_module("log"); });
  std::ostringstream printed;
  std::ostringstream changed;
  std::ostringstream dumped_pass;
  const auto pipeline = sequential(PrintIR(dumped_pass, "start"), to_log);
  const TempDir temp("ctir_all_instruments_test_");
  const std::filesystem::path& folder = temp.path();

  SUBCASE("static") {
    InstrumentedPassContext ctx{{},
                                TimingInstrument{},
                                PrintIRInstrument::before({"ExpToLog"}, printed),
                                PrintChangedInstrument(changed),
                                DumpIRInstrument(folder),
                                VerifyWellFormedInstrument(),
                                ImmutableInputInstrument(),
                                BisectInstrument(BisectInstrument::unlimited)};
    static_cast<void>(pipeline(unary_module("exp"), ctx));
    CHECK(ctx.instrument<0>().records().size() == 1);
    CHECK(ctx.instrument<3>().files().size() == 4); // before, PrintIR, ExpToLog, sequential
    CHECK(ctx.instrument<6>().count() == 2);
  }
  SUBCASE("runtime") {
    TimingInstrument timing;
    DumpIRInstrument dump(folder);
    BisectInstrument bisect(BisectInstrument::unlimited);
    PassContext ctx{
        {.instruments = {timing, PrintIRInstrument::before({"ExpToLog"}, printed),
                         PrintChangedInstrument(changed), dump, VerifyWellFormedInstrument(),
                         ImmutableInputInstrument(), bisect}}};
    static_cast<void>(pipeline(unary_module("exp"), ctx));
    CHECK(timing.records().size() == 1);
    CHECK(dump.files().size() == 4);
    CHECK(bisect.count() == 2);
  }
  CHECK(printed.str() == "# IR before pass ExpToLog\n" + exp_text);
  CHECK(changed.str().starts_with("# IR changed by pass ExpToLog\n"));
  CHECK(dumped_pass.str() == "# start\n" + exp_text);
}
