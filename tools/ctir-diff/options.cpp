// ctir-diff's command line: two module files and how to compare them.
#include "options.hpp"

#include <ctir/core/detail/names.hpp>

namespace ctir_diff {

Options parse_command_line(const std::vector<std::string_view>& args) {
  Options options;
  std::vector<std::string_view> files;
  bool options_ended = false;
  for (const std::string_view arg : args) {
    if (options_ended || arg == "-" || !arg.starts_with('-')) {
      files.push_back(arg);
    } else if (arg == "--") {
      options_ended = true;
    } else if (arg == "--map-free-vars") {
      options.map_free_vars = true;
    } else if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else {
      throw UsageError("unknown option '" + std::string(arg) + "'" +
                       ctir::detail::did_you_mean(
                           ctir::detail::nearest_names(arg, {"--map-free-vars", "--help"})));
    }
  }
  if (options.help) {
    return options;
  }
  if (files.size() != 2) {
    throw UsageError("expected two module files, got " + std::to_string(files.size()));
  }
  if (files[0] == "-" && files[1] == "-") {
    throw UsageError("only one of the two files can be the standard input ('-')");
  }
  options.lhs = std::string(files[0]);
  options.rhs = std::string(files[1]);
  return options;
}

std::string usage_text() {
  return R"usage(USAGE: ctir-diff [--map-free-vars] A.ctir B.ctir

Compares two modules in the ctir text format by structure: they are equal when
they are the same program up to the names of the variables they define
(alpha-equivalence; function names, literals, types, attributes and the sharing
of graph-level nodes must match). When they differ, prints where they first
differ, as an access path on each side, and both functions with the node that
differs underlined. Either file may be - (standard input).

Options:
      --map-free-vars   pair up free variables on first use instead of requiring
                        the very same variable
  -h, --help            print this help and exit
      --                end of options (a file name may then start with -)

Exit status: 0 if the modules are equal, 1 if they differ, 2 on an error (bad
usage, a file that cannot be read, a parse error).
)usage";
}

} // namespace ctir_diff
