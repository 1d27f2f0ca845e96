// The differential pipeline fuzzer: generated modules through random textual pipelines of
// the registered passes, checked by ctir::testing::check_case (test/support/differential.hpp):
// the verifier after every pass, the round-trip law on the result, the input unchanged,
// the result well-formed, and the same results under the interpreter on random inputs.
//
// Two builds of one file:
// - a libFuzzer target (clang++ -fsanitize=fuzzer, see run_diff_fuzzer.sh): the first 8
//   bytes seed the module generator, the rest choose the pipeline; a failure aborts;
// - with CTIR_DIFF_FUZZ_GENERATOR, a plain program over a range of seeds that minimizes
//   each failure and can save it under test/data/regressions:
//
//       diff_fuzzer [--first N] [--count N] [--save DIR] [--verbose]
//
//   It prints one line per failure and a summary; its exit status is 1 if any case failed.
#include <ctir/passes/register.hpp>

#include <differential.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

void register_once() {
  static const bool registered = [] {
    ctir::passes::register_standard_passes();
    return true;
  }();
  static_cast<void>(registered);
}

} // namespace

#ifndef CTIR_DIFF_FUZZ_GENERATOR

/// One case from the bytes; any failure is a finding (the case is printed, then abort).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  register_once();
  ctir::testing::DiffCase c;
  try {
    c = ctir::testing::random_case(data, size);
  } catch (const ctir::Error& error) {
    std::fprintf(stderr, "diff_fuzzer: the generated module does not read back: %s\n",
                 error.what());
    std::abort();
  }
  const ctir::testing::DiffResult result = ctir::testing::check_case(c, {.seeds = 1});
  if (result.failed()) {
    std::fprintf(stderr, "diff_fuzzer: %s: %s\n--- case:\n%s\n",
                 std::string(ctir::testing::to_string(result.kind)).c_str(), result.message.c_str(),
                 ctir::testing::case_file_text(c, {}).c_str());
    std::abort();
  }
  return 0;
}

#else

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

int main(int argc, char** argv) {
  std::uint64_t first = 1;
  std::uint64_t count = 100;
  std::string save_dir;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--first" && i + 1 < argc) {
      first = std::stoull(argv[++i]);
    } else if (arg == "--count" && i + 1 < argc) {
      count = std::stoull(argv[++i]);
    } else if (arg == "--save" && i + 1 < argc) {
      save_dir = argv[++i];
    } else if (arg == "--verbose") {
      verbose = true;
    } else {
      std::fprintf(stderr, "usage: diff_fuzzer [--first N] [--count N] [--save DIR] [--verbose]\n");
      return 2;
    }
  }
  register_once();
  using ctir::testing::DiffResult;
  std::map<DiffResult::Kind, std::size_t> tally;
  std::size_t compared = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t seed = first; seed < first + count; ++seed) {
    ctir::testing::DiffCase c;
    DiffResult result;
    try {
      c = ctir::testing::random_case(seed);
      result = ctir::testing::check_case(c);
    } catch (const std::exception& error) {
      result = {DiffResult::Kind::unexpected, error.what()};
    }
    ++tally[result.kind];
    compared += static_cast<std::size_t>(result.compared);
    if (verbose && !result.failed()) {
      std::printf("seed %llu: %s %s\n", static_cast<unsigned long long>(seed),
                  std::string(to_string(result.kind)).c_str(),
                  ctir::testing::detail::first_line(result.message).c_str());
    }
    if (!result.failed()) {
      continue;
    }
    std::printf("seed %llu: %s: %s\n", static_cast<unsigned long long>(seed),
                std::string(to_string(result.kind)).c_str(),
                ctir::testing::detail::first_line(result.message).c_str());
    const ctir::testing::DiffCase small = ctir::testing::minimize(c, result.kind);
    const DiffResult again = ctir::testing::check_case(small);
    const std::string text = ctir::testing::case_file_text(
        small, {"diff_fuzzer seed " + std::to_string(seed) +
                ", minimized: " + std::string(to_string(again.kind)) + ": " +
                ctir::testing::detail::first_line(again.message)});
    std::printf("%s\n", text.c_str());
    if (verbose) {
      std::printf("%s\n", again.message.c_str());
    }
    if (!save_dir.empty()) {
      const std::filesystem::path path =
          std::filesystem::path(save_dir) / ("diff_seed_" + std::to_string(seed) + ".ctir");
      std::ofstream(path) << text;
      std::printf("saved %s\n", path.string().c_str());
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::size_t failures = 0;
  std::printf("diff_fuzzer: %llu cases in %.1f s, %zu function runs compared:",
              static_cast<unsigned long long>(count), seconds, compared);
  for (const auto& [kind, n] : tally) {
    std::printf(" %s %zu;", std::string(to_string(kind)).c_str(), n);
    if (DiffResult{kind, {}, 0}.failed()) {
      failures += n;
    }
  }
  std::printf("\n");
  return failures == 0 ? 0 : 1;
}

#endif
