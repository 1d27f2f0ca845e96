// ctir-opt's command line: the options it takes, and how they are read from argv.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir_opt {

/// The process exit statuses of ctir-opt.
enum ExitCode : int {
  exit_success = 0,
  /// A parse, verification, pass or I/O error.
  exit_failure = 1,
  /// Bad usage: an unknown flag, a missing or malformed argument, an unknown pass or config key.
  exit_usage = 2,
};

/// How --time-passes reports.
enum class TimeReport { none, text, json };

/// Everything the command line asked for.
struct Options {
  /// The input file; "-" is standard input.
  std::string input = "-";
  /// The pipeline string given with -p, if any.
  std::optional<std::string> pipeline;
  /// The output file; "-" is standard output.
  std::string output = "-";
  /// Whether -o was given (with --run the module is written only then).
  bool output_given = false;
  /// The PassContext's opt_level: --opt-level N, or the N of -ON.
  int opt_level = 2;
  /// Whether --opt-level was given.
  bool opt_level_given = false;
  /// The N of -O0 .. -O3: run the DefaultPipeline (when there is no -p) at opt_level N.
  std::optional<int> optimize;
  std::vector<std::string> disabled;
  std::vector<std::string> required;
  /// `--config KEY=VALUE`, in command-line order.
  std::vector<std::pair<std::string, std::string>> config;
  /// Passes to print the IR before / after; "all" selects every pass.
  std::vector<std::string> print_before;
  std::vector<std::string> print_after;
  bool print_changed = false;
  /// `--time-passes[=text|json]`.
  TimeReport time_passes = TimeReport::none;
  /// `--time-trace FILE`: where the Chrome trace of the pass runs is written.
  std::optional<std::string> time_trace;
  /// `--print-pipeline`: print the pipeline as it will run and exit.
  bool print_pipeline = false;
  bool verify_each = false;
  std::optional<std::string> dump_dir;
  /// `--bisect-limit N` (-1 on the command line: no limit, SIZE_MAX here); nullopt: none.
  std::optional<std::size_t> bisect_limit;
  /// What the resulting module is written as (`--emit KIND`; see emit.hpp).
  std::string emit = "text";
  /// `--run FUNC`: the global function to evaluate on random inputs (without its `@`).
  std::optional<std::string> run;
  /// The SEED of `--inputs random:SEED` (0 when --inputs is absent).
  std::uint64_t input_seed = 0;
  /// Whether --inputs was given.
  bool inputs_given = false;
  /// `--backend compiled`: --run compiles the module to native code (default: interpreter).
  bool compiled_backend = false;
  /// `--reproducer FILE`: where the reproducer of a failing pass is written.
  std::optional<std::string> reproducer;
  /// `--run-reproducer`: the pipeline and its options come from the input's reproducer line.
  bool run_reproducer = false;
  bool list_passes = false;
  bool list_configs = false;
  bool help = false;
  bool version = false;
};

/// A command line ctir-opt cannot run; `what()` says why (without a program name prefix).
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads the arguments after the program name. Throws UsageError for an unknown option
/// (suggesting the nearest ones), a missing or malformed value, a second input file, -ON
/// with a different --opt-level or another -OM, and --inputs without --run.
Options parse_command_line(const std::vector<std::string_view>& args);

/// The text `--help` prints.
std::string usage_text();

/// Splits `NAME,NAME,...` into names, dropping blanks around them and empty names.
std::vector<std::string> split_names(std::string_view text);

} // namespace ctir_opt
