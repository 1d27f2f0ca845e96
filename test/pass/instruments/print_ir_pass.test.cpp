// Tests of ctir/pass/print_ir_pass.hpp: the PrintIR pass, static and from pipeline strings.
#include <ctir/pass/print_ir_pass.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/text/printer.hpp>

#include <doctest/doctest.h>
#include <instrument_testing.hpp>
#include <pass_testing.hpp>

#include <cstdio>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Captures what is written to a standard C stream (PrintIR writes through <cstdio>) by
/// pointing its file descriptor at a temporary file while the capture lives.
class StdioCapture {
public:
  explicit StdioCapture(std::FILE* stream)
      : stream_(stream), file_(std::tmpfile()), saved_(::dup(::fileno(stream))) {
    REQUIRE(file_ != nullptr);
    REQUIRE(saved_ >= 0);
    std::fflush(stream_);
    ::dup2(::fileno(file_), ::fileno(stream_));
  }
  StdioCapture(const StdioCapture&) = delete;
  StdioCapture& operator=(const StdioCapture&) = delete;
  ~StdioCapture() {
    restore();
    std::fclose(file_);
  }

  /// What was written so far; the stream is restored first.
  std::string str() {
    restore();
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    std::size_t read = 0;
    while ((read = std::fread(buffer, 1, sizeof(buffer), file_)) > 0) {
      text.append(buffer, read);
    }
    return text;
  }

private:
  void restore() {
    if (saved_ >= 0) {
      std::fflush(stream_);
      ::dup2(saved_, ::fileno(stream_));
      ::close(saved_);
      saved_ = -1;
    }
  }

  std::FILE* stream_;
  std::FILE* file_;
  int saved_;
};

} // namespace

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
    StdioCapture err(stderr);
    const IRModule result = parse_pipeline("PrintIR")(mod);
    CHECK(result.same_as(mod));
    CHECK(err.str() == exp_text);
  }
  {
    const Pass pass = parse_pipeline("PrintIR{header=\"before all\",stream=stdout}");
    CHECK(pass.str() == "PrintIR{header=\"before all\",stream=stdout}");
    StdioCapture out(stdout);
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
