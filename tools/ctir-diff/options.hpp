// ctir-diff's command line: two module files and how to compare them.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ctir_diff {

/// The process exit statuses of ctir-diff (those of diff and cmp).
enum ExitCode : int {
  /// The modules are structurally equal.
  exit_equal = 0,
  /// They differ.
  exit_different = 1,
  /// Bad usage, an unreadable file or a parse error.
  exit_error = 2,
};

struct Options {
  /// The two files ("-" is standard input, for one of them).
  std::string lhs;
  std::string rhs;
  /// Pair up free variables on first encounter instead of requiring the same object.
  bool map_free_vars = false;
  bool help = false;
};

/// A command line ctir-diff cannot run; `what()` says why.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads the arguments after the program name; throws UsageError.
Options parse_command_line(const std::vector<std::string_view>& args);

/// The text `--help` prints.
std::string usage_text();

} // namespace ctir_diff
