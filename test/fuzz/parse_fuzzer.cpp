// libFuzzer target: any bytes through parse_module; what parses must print canonically.
//
// Build and run with run_fuzzer.sh (clang++ -fsanitize=fuzzer,address,undefined).
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void report(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "parse_fuzzer: %s\n--- first:\n%s\n--- second:\n%s\n", what, a.c_str(),
               b.c_str());
  std::abort();
}

} // namespace

/// Parses the input; a ParseError is the expected outcome for most inputs. When it
/// parses, printing is canonical: the printed text parses again and prints the same.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ctir::IRModule module;
  try {
    module = ctir::parse_module(text, "fuzz.ctir");
  } catch (const ctir::ParseError&) {
    return 0;
  }
  // Anything else escaping (another exception, a crash) is a finding.
  const std::string printed = ctir::print(module);
  ctir::IRModule again;
  try {
    again = ctir::parse_module(printed, "printed.ctir");
  } catch (const ctir::ParseError& error) {
    report("the printed text does not parse", std::string(text), printed + "\n" + error.what());
  }
  const std::string reprinted = ctir::print(again);
  if (reprinted != printed) {
    report("print(parse(print(m))) != print(m)", printed, reprinted);
  }
  return 0;
}
