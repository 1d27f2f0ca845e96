// Tests of ctir/pass/instruments/dump_ir.hpp: numbered .ctir files, one per pipeline step.
#include <ctir/pass/instruments/dump_ir.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <instrument_testing.hpp>
#include <pass_testing.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::set<std::string> file_names(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

} // namespace

TEST_CASE("dump writes the input and the module after each pass as numbered files") {
  TempDir dir("ctir_dump_ir_test_");
  const std::filesystem::path folder = dir.path() / "nested" / "dumps"; // created on demand
  InstrumentedPassContext ctx{{}, DumpIRInstrument(folder)};
  const auto pipeline = sequential(keep_pass("Keep"), exp_to_log_pass("ExpToLog"));
  static_cast<void>(pipeline(unary_module("exp"), ctx));

  CHECK(file_names(folder) == std::set<std::string>{"000_before.ctir", "001_Keep.ctir",
                                                    "002_ExpToLog.ctir", "003_sequential.ctir"});
  CHECK(read_file(folder / "000_before.ctir") == "# ctir IR before pass sequential\n" + exp_text);
  CHECK(read_file(folder / "001_Keep.ctir") == "# ctir IR after pass Keep\n" + exp_text);
  CHECK(read_file(folder / "002_ExpToLog.ctir") == "# ctir IR after pass ExpToLog\n" + log_text);
  CHECK(read_file(folder / "003_sequential.ctir") ==
        "# ctir IR after pass sequential\n" + log_text);
  const DumpIRInstrument& dump = ctx.instrument<0>();
  REQUIRE(dump.files().size() == 4);
  CHECK(dump.files()[0] == folder / "000_before.ctir");
  CHECK(dump.files()[3] == folder / "003_sequential.ctir");
}

TEST_CASE("dump with skip_unchanged writes no file for a pass that returned its input") {
  TempDir dir("ctir_dump_ir_test_");
  DumpIRInstrument dump(dir.path(), {.skip_unchanged = true});
  PassContext ctx{{.instruments = {dump}}};
  static_cast<void>(
      sequential(keep_pass("Keep"), exp_to_log_pass("ExpToLog"))(unary_module("exp"), ctx));
  CHECK(file_names(dir.path()) ==
        std::set<std::string>{"000_before.ctir", "001_ExpToLog.ctir", "002_sequential.ctir"});
  CHECK(dump.files().size() == 3); // a handle: the copy in the context shares the list
}

TEST_CASE("dump numbers files on across pipelines and writes a module that did not come from "
          "the last pass as a new before file") {
  TempDir dir("ctir_dump_ir_test_");
  DumpIRInstrument dump(dir.path());
  PassContext ctx{{.instruments = {dump}}};
  IRModule mod = exp_to_log_pass("First")(unary_module("exp"), ctx);
  mod = keep_pass("Second")(mod, ctx);                             // continues from the last file
  static_cast<void>(keep_pass("Third")(unary_module("exp"), ctx)); // another module
  CHECK(file_names(dir.path()) == std::set<std::string>{"000_before.ctir", "001_First.ctir",
                                                        "002_Second.ctir", "003_before_Third.ctir",
                                                        "004_Third.ctir"});
  CHECK(read_file(dir.path() / "003_before_Third.ctir") ==
        "# ctir IR before pass Third\n" + exp_text);
}

TEST_CASE("dump writes nothing for a failed pass and names files by a sanitized pass name") {
  TempDir dir("ctir_dump_ir_test_");
  EventLog log;
  PassContext ctx{{.instruments = {DumpIRInstrument(dir.path())}}};
  CHECK_THROWS_AS(throwing_pass("Broken", log)(unary_module("exp"), ctx), PassError);
  static_cast<void>(keep_pass("a/b c")(unary_module("exp"), ctx));
  CHECK(file_names(dir.path()) ==
        std::set<std::string>{"000_before.ctir", "001_before_a_b_c.ctir", "002_a_b_c.ctir"});
  CHECK(DumpIRInstrument::file_name_part("Fold.Constant-2") == "Fold.Constant-2");
  CHECK(DumpIRInstrument::file_name_part("..") == "pass");
  CHECK(DumpIRInstrument::file_name_part("") == "pass");
}

TEST_CASE("dump into a folder that cannot be created is an error naming the folder") {
  TempDir dir("ctir_dump_ir_test_");
  std::filesystem::create_directories(dir.path());
  const std::filesystem::path blocker = dir.path() / "file";
  std::ofstream(blocker) << "not a folder";
  PassContext ctx{{.instruments = {DumpIRInstrument(blocker / "dumps")}}};
  const std::string message = error_of([&] { keep_pass("Keep")(unary_module("exp"), ctx); });
  CHECK(contains(message, "Error in instrument DumpIR (run_before_pass of pass Keep)"));
  CHECK(contains(message, "DumpIR cannot create the folder"));
  CHECK(contains(message, (blocker / "dumps").string()));
}
