// ctir-opt's command line: a table of options, read from argv into Options.
#include "options.hpp"

#include "emit.hpp"

#include <ctir/core/detail/names.hpp>

#include <charconv>
#include <cstdint>
#include <limits>
#include <set>
#include <system_error>

namespace ctir_opt {
namespace {

/// One option: its long name (`--opt-level`), an optional short name (`-p`), the name of
/// its value in messages (empty: a flag without value), and what it does.
struct OptionSpec {
  std::string_view name;
  std::string_view short_name;
  std::string_view value_name;
  /// Single-valued options may be given once; list options and flags any number of times.
  bool once;
  /// The value may be left out (`--time-passes`; it is then empty); given, it follows `=`
  /// (`--time-passes=json`), never as the next argument.
  bool value_optional;
  void (*apply)(Options& options, std::string_view flag, std::string_view value);
};

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

/// A whole-string integer, or nullopt ("+1", " 1", "1x" and out-of-range values are not).
template <class T>
std::optional<T> parse_integer(std::string_view text) {
  T value{};
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, error] = std::from_chars(first, last, value);
  if (text.empty() || error != std::errc() || end != last) {
    return std::nullopt;
  }
  return value;
}

void append_names(std::vector<std::string>& list, std::string_view value) {
  for (std::string& name : split_names(value)) {
    list.push_back(std::move(name));
  }
}

/// -O0 .. -O3: the level is the flag's digit; two different levels contradict each other.
void set_optimize(Options& options, std::string_view flag, std::string_view) {
  const int level = flag.back() - '0';
  if (options.optimize && *options.optimize != level) {
    throw UsageError("options " + quoted("-O" + std::to_string(*options.optimize)) + " and " +
                     quoted(flag) + " ask for different optimization levels; give one");
  }
  options.optimize = level;
}

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = {
      {"--pipeline", "-p", "PIPELINE", true, false,
       [](Options& o, std::string_view, std::string_view v) { o.pipeline = std::string(v); }},
      {"--output", "-o", "FILE", true, false,
       [](Options& o, std::string_view, std::string_view v) {
         o.output = std::string(v);
         o.output_given = true;
       }},
      {"--opt-level", "", "N", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         const std::optional<int> level = parse_integer<int>(v);
         if (!level || *level < 0) {
           throw UsageError("option " + quoted(flag) + " expects a non-negative integer, not " +
                            quoted(v));
         }
         o.opt_level = *level;
         o.opt_level_given = true;
       }},
      {"-O0", "", "", false, false, set_optimize},
      {"-O1", "", "", false, false, set_optimize},
      {"-O2", "", "", false, false, set_optimize},
      {"-O3", "", "", false, false, set_optimize},
      {"--disable", "", "NAME,...", false, false,
       [](Options& o, std::string_view, std::string_view v) { append_names(o.disabled, v); }},
      {"--required", "", "NAME,...", false, false,
       [](Options& o, std::string_view, std::string_view v) { append_names(o.required, v); }},
      {"--config", "", "KEY=VALUE", false, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         const std::size_t equals = v.find('=');
         if (equals == std::string_view::npos || equals == 0) {
           throw UsageError("option " + quoted(flag) + " expects KEY=VALUE, not " + quoted(v));
         }
         o.config.emplace_back(std::string(v.substr(0, equals)), std::string(v.substr(equals + 1)));
       }},
      {"--print-ir-before", "", "NAME,...|all", false, false,
       [](Options& o, std::string_view, std::string_view v) { append_names(o.print_before, v); }},
      {"--print-ir-after", "", "NAME,...|all", false, false,
       [](Options& o, std::string_view, std::string_view v) { append_names(o.print_after, v); }},
      {"--print-changed", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.print_changed = true; }},
      {"--time-passes", "", "text|json", false, true,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v.empty() || v == "text") {
           o.time_passes = TimeReport::text;
         } else if (v == "json") {
           o.time_passes = TimeReport::json;
         } else {
           throw UsageError("option " + quoted(flag) + " expects 'text' or 'json', not " +
                            quoted(v));
         }
       }},
      {"--time-trace", "", "FILE", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v.empty()) {
           throw UsageError("option " + quoted(flag) + " expects a file name, not an empty name");
         }
         o.time_trace = std::string(v);
       }},
      {"--print-pipeline", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.print_pipeline = true; }},
      {"--verify-each", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.verify_each = true; }},
      {"--dump-ir", "", "DIR", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v.empty()) {
           throw UsageError("option " + quoted(flag) + " expects a folder, not an empty name");
         }
         o.dump_dir = std::string(v);
       }},
      {"--bisect-limit", "", "N", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v == "-1") {
           o.bisect_limit = std::numeric_limits<std::size_t>::max();
           return;
         }
         const std::optional<std::uint64_t> limit = parse_integer<std::uint64_t>(v);
         if (!limit || *limit >= std::numeric_limits<std::size_t>::max()) {
           throw UsageError("option " + quoted(flag) +
                            " expects a non-negative integer (or -1 for no limit), not " +
                            quoted(v));
         }
         o.bisect_limit = static_cast<std::size_t>(*limit);
       }},
      {"--emit", "", "KIND", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (find_emitter(v) == nullptr) {
           throw UsageError("option " + quoted(flag) + " expects " + emitter_names() + ", not " +
                            quoted(v));
         }
         o.emit = std::string(v);
       }},
      // Kept for scripts written before --emit: the same choice, text and tree only.
      {"--format", "", "text|tree", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v != "text" && v != "tree") {
           throw UsageError("option " + quoted(flag) + " expects 'text' or 'tree', not " +
                            quoted(v));
         }
         o.emit = std::string(v);
       }},
      {"--run", "", "FUNC", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         const std::string_view name = v.starts_with('@') ? v.substr(1) : v;
         if (name.empty()) {
           throw UsageError("option " + quoted(flag) + " expects a function name, not " +
                            quoted(v));
         }
         o.run = std::string(name);
       }},
      {"--inputs", "", "random:SEED", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         constexpr std::string_view scheme = "random:";
         const std::optional<std::uint64_t> seed =
             v.starts_with(scheme) ? parse_integer<std::uint64_t>(v.substr(scheme.size()))
                                   : std::nullopt;
         if (!seed) {
           throw UsageError("option " + quoted(flag) +
                            " expects random:SEED (the only kind of inputs; SEED an unsigned "
                            "decimal integer below 2^64, e.g. random:0), not " +
                            quoted(v));
         }
         o.input_seed = *seed;
         o.inputs_given = true;
       }},
      {"--backend", "", "interpreter|compiled", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v != "interpreter" && v != "compiled") {
           throw UsageError("option " + quoted(flag) +
                            " expects 'interpreter' or 'compiled', not " + quoted(v));
         }
         o.compiled_backend = v == "compiled";
       }},
      {"--reproducer", "", "FILE", true, false,
       [](Options& o, std::string_view flag, std::string_view v) {
         if (v.empty() || v == "-") {
           throw UsageError("option " + quoted(flag) + " expects a file name, not " + quoted(v));
         }
         o.reproducer = std::string(v);
       }},
      {"--run-reproducer", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.run_reproducer = true; }},
      {"--list-passes", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.list_passes = true; }},
      {"--list-configs", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.list_configs = true; }},
      {"--help", "-h", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.help = true; }},
      {"--version", "", "", false, false,
       [](Options& o, std::string_view, std::string_view) { o.version = true; }},
  };
  return table;
}

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& spec : option_table()) {
    if (spec.name == name || (!spec.short_name.empty() && spec.short_name == name)) {
      return &spec;
    }
  }
  return nullptr;
}

/// Fails for an unknown option, suggesting the nearest option names (or, for an
/// abbreviation such as `--dump`, the options it begins).
[[noreturn]] void unknown_option(std::string_view name) {
  if (name.starts_with("-O")) {
    throw UsageError("unknown option " + quoted(name) +
                     "; the optimization levels are -O0, -O1, -O2 and -O3 (--opt-level N "
                     "sets any opt_level)");
  }
  std::vector<std::string> candidates;
  for (const OptionSpec& spec : option_table()) {
    candidates.emplace_back(spec.name);
  }
  std::vector<std::string> suggestions = ctir::detail::nearest_names(name, candidates);
  if (suggestions.empty() && name.size() > 2) {
    for (const std::string& candidate : candidates) {
      if (candidate.starts_with(name) && suggestions.size() < 3) {
        suggestions.push_back(candidate);
      }
    }
  }
  throw UsageError("unknown option " + quoted(name) + ctir::detail::did_you_mean(suggestions));
}

} // namespace

std::vector<std::string> split_names(std::string_view text) {
  std::vector<std::string> names;
  while (true) {
    const std::size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) {
      name.remove_prefix(1);
    }
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) {
      name.remove_suffix(1);
    }
    if (!name.empty()) {
      names.emplace_back(name);
    }
    if (comma == std::string_view::npos) {
      return names;
    }
    text.remove_prefix(comma + 1);
  }
}

Options parse_command_line(const std::vector<std::string_view>& args) {
  Options options;
  bool input_given = false;
  bool options_ended = false;
  std::set<std::string_view> seen;
  const auto add_input = [&](std::string_view file) {
    if (input_given) {
      throw UsageError("more than one input file: " + quoted(options.input) + " and " +
                       quoted(file));
    }
    options.input = std::string(file);
    input_given = true;
  };

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (options_ended || arg == "-" || !arg.starts_with('-')) {
      add_input(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    // `--name=value` carries its value; `--name value` and `-p value` take the next one.
    std::string_view name = arg;
    std::optional<std::string_view> value;
    if (arg.starts_with("--")) {
      if (const std::size_t equals = arg.find('='); equals != std::string_view::npos) {
        name = arg.substr(0, equals);
        value = arg.substr(equals + 1);
      }
    }
    const OptionSpec* spec = find_option(name);
    if (spec == nullptr) {
      unknown_option(name);
    }
    if (spec->value_name.empty()) {
      if (value) {
        throw UsageError("option " + quoted(name) + " takes no value");
      }
    } else if (!value && !spec->value_optional) {
      if (i + 1 == args.size()) {
        throw UsageError("option " + quoted(name) + " needs a value (" +
                         std::string(spec->value_name) + ")");
      }
      value = args[++i];
    }
    if (spec->once && !seen.insert(spec->name).second) {
      throw UsageError("option " + quoted(name) + " is given more than once");
    }
    spec->apply(options, name, value.value_or(std::string_view{}));
  }

  if (options.optimize) {
    const int level = *options.optimize;
    if (options.opt_level_given && options.opt_level != level) {
      throw UsageError("option " + quoted("-O" + std::to_string(level)) + " sets opt_level " +
                       std::to_string(level) + ", but '--opt-level' asks for " +
                       std::to_string(options.opt_level) + "; give one of them");
    }
    options.opt_level = level;
  }
  if (options.inputs_given && !options.run) {
    throw UsageError("option '--inputs' needs '--run FUNC': it chooses the inputs of the "
                     "function --run evaluates");
  }
  return options;
}

std::string usage_text() {
  return R"usage(USAGE: ctir-opt [options] [FILE|-]

Reads a module in the ctir text format (from standard input when FILE is - or
absent), runs the pass pipeline given with -p (or, with -O0..-O3 and no -p,
the DefaultPipeline) inside a PassContext built from the options, and writes
the resulting module. Without a pipeline it parses, checks and prints the
module in canonical form. With --run it evaluates a function of the resulting
module instead of printing the module.

Options:
  -p, --pipeline PIPELINE    passes to run, by registered name:
                             "A,B{option=value},sequential(C,D)"
  -O0, -O1, -O2, -O3         set the opt_level to 0..3 and, without -p, run the
                             DefaultPipeline (the standard passes that level
                             enables)
  -o, --output FILE          write the module to FILE (default: standard output)
      --emit KIND            write the module as KIND: text (the text format, the
                             default), tree (a tree of nodes and fields), dot
                             (the graph-level functions' dataflow as Graphviz)
                             or c (the C of the tensor-level functions, what
                             --backend compiled compiles)
      --format text|tree     the same as --emit text|tree
      --opt-level N          the PassContext's opt_level (default 2): a pass runs
                             only if N is at least its opt_level
      --disable NAME,...     never run these passes (wins over --required)
      --required NAME,...    run these passes whatever their opt_level
      --config KEY=VALUE     set a registered pass config option (repeatable)
      --print-ir-before NAME,...|all
                             print the module before these passes (to stderr)
      --print-ir-after NAME,...|all
                             print the module after these passes (to stderr)
      --print-changed        print a diff of the module after each pass that
                             changed it (to stderr)
      --time-passes[=text|json]
                             print the time of each pass (to stderr): a table,
                             or JSON for scripts
      --time-trace FILE      write the pass runs to FILE as a Chrome trace
                             (open it in chrome://tracing or Perfetto)
      --print-pipeline       print the pipeline as it will run (with the
                             passes requirements add, without the ones the
                             context skips; those follow on a '# not run:'
                             line) and exit
      --verify-each          verify the input and the module after each pass
      --dump-ir DIR          write the module before and after each pass to
                             numbered .ctir files in DIR
      --bisect-limit N       run only the first N optional passes (-1: all), and
                             report which ran (to stderr)
      --run FUNC             evaluate the global function FUNC (graph- or
                             tensor-level) of the resulting module with the
                             reference interpreter and print its inputs and
                             outputs, one line each; the module is written
                             only with -o. FUNC is the entry function that
                             RemoveUnusedFunctions keeps, unless --config
                             transform.entry_functions=... names others
      --inputs random:SEED   the inputs of --run: deterministic random values
                             for FUNC's parameter types from the unsigned
                             integer SEED (default random:0)
      --backend interpreter|compiled
                             how --run runs FUNC: the reference interpreter
                             (default) or native code compiled through C
                             (the C compiler is $CC or the configured one)
      --reproducer FILE      when a pass fails (an error, a --verify-each
                             failure or a fatal signal), write to FILE the
                             module as that pass received it, under a comment
                             line holding the pipeline from that pass on and
                             the options that change what it does
      --run-reproducer       run the pipeline and options of the input's
                             '# ctir-opt reproducer:' line (a file written by
                             --reproducer); -p and -ON are then not allowed
      --list-passes          list the registered passes and exit
      --list-configs         list the registered config options and exit
  -h, --help                 print this help and exit
      --version              print the version and exit
      --                     end of options (a file name may then start with -)

Exit status: 0 on success, 1 on a parse, verification, pass, evaluation or
I/O error (or a --run function the module does not define), 2 on bad usage
(unknown option or pass, malformed value, conflicting options).
)usage";
}

} // namespace ctir_opt
