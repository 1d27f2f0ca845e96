// ctir-opt: reads a module in the ctir text format, runs a pass pipeline on it, writes it back
// (or runs one of its functions).
#include "context.hpp"
#include "diagnostics.hpp"
#include "emit.hpp"
#include "huge_pages.hpp"
#include "io.hpp"
#include "listing.hpp"
#include "options.hpp"
#include "passes.hpp"
#include "pipeline.hpp"
#include "reproducer.hpp"
#include "run.hpp"
#include "version.hpp"

#include <ctir/eval/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/runtime/pass/resolve.hpp>
#include <ctir/text/install_printer.hpp>
#include <ctir/text/parser.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace ctir_opt {
namespace {

/// The config key of RemoveUnusedFunctions' entry functions.
constexpr std::string_view entry_functions_key = "transform.entry_functions";

int usage_error(std::string_view message) {
  std::cerr << format_error(message) << "Run 'ctir-opt --help' for usage.\n";
  return exit_usage;
}

/// What the instruments that report at the end found (read inside the context: the
/// timing instrument forgets its records when the context is left).
std::string collect_reports(const ContextSetup& setup) {
  std::string reports;
  if (setup.bisect) {
    reports += "ctir-opt: bisect: " + setup.bisect->report() + "\n";
  }
  if (setup.timing && setup.time_report == TimeReport::json) {
    reports += setup.timing->render_json();
  } else if (setup.timing) {
    const std::string table = setup.timing->render();
    reports += table.empty() ? std::string("ctir-opt: time-passes: no pass ran\n") : table;
  }
  return reports;
}

/// --time-trace: writes the trace of the run (also of a failed one: it shows where the time
/// went before the failure). A file that cannot be written is an error of the run.
void write_trace(const ContextSetup& setup) {
  if (setup.trace) {
    write_output(setup.trace_path, setup.trace->json());
  }
}

/// Runs `pipeline` on `mod` in a context made from `setup`; the reports of the timing and
/// bisection instruments are appended to `reports` whether or not the run succeeds.
ctir::IRModule run_in_context(const ctir::Pass& pipeline, ctir::IRModule mod, ContextSetup& setup,
                              std::string& reports,
                              const std::optional<ReproducerInstrument>& reproducer) {
  ctir::PassContext ctx(std::move(setup.options));
  ctir::PassContextScope scope = ctx.enter();
  try {
    std::shared_ptr<void> signal_handlers;
    if (reproducer) {
      reproducer->start(mod);
      signal_handlers = reproducer->catch_fatal_signals();
    }
    mod = run_pipeline(pipeline, std::move(mod), ctx);
  } catch (...) {
    reports += collect_reports(setup);
    try {
      write_trace(setup);
    } catch (const std::exception& error) {
      reports += describe_exception(error); // the pass's error is the one to report first
    }
    throw;
  }
  reports += collect_reports(setup);
  write_trace(setup);
  scope.exit(); // an instrument failing as the context is left is an error of the run
  return mod;
}

/// With --run FUNC, FUNC is the entry function RemoveUnusedFunctions keeps (unless the
/// command line sets the entry functions itself): the function run is what matters.
void use_run_function_as_entry(Options& options) {
  for (const auto& setting : options.config) {
    if (setting.first == entry_functions_key) {
      return;
    }
  }
  options.config.emplace_back(std::string(entry_functions_key), *options.run);
}

/// The entry functions RemoveUnusedFunctions keeps under `options`.
std::string entry_functions(const Options& options) {
  std::string value = "main";
  for (const auto& setting : options.config) {
    if (setting.first == entry_functions_key) {
      value = setting.second;
    }
  }
  return value;
}

/// --run: evaluates `name` of the resulting module `mod` and prints its inputs and outputs.
int run_function_of(const ctir::IRModule& mod, const Options& options, const InputText& input,
                    bool after_pipeline) {
  const std::string& name = *options.run;
  try {
    if (after_pipeline) {
      check_run_function_kept(mod, name, entry_functions(options));
    }
    run_function(mod, name, options.input_seed, std::cout, options.compiled_backend);
  } catch (const RunError& error) {
    std::cerr << format_error(error.what());
    return exit_failure;
  } catch (const ctir::eval::EvalError& error) {
    std::cerr << describe_eval_error(error, input, mod);
    return exit_failure;
  } catch (const std::exception& error) {
    std::cerr << describe_exception(error);
    return exit_failure;
  }
  if (!std::cout) {
    std::cerr << format_error("cannot write the standard output");
    return exit_failure;
  }
  return exit_success;
}

/// Whether `a` and `b` name one existing file.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  return std::filesystem::equivalent(a, b, error) && !error;
}

/// --run-reproducer: the command line with the reproducer line of the input in front, read
/// again; `input` keeps the text read (standard input cannot be read twice).
Options with_reproducer_line(const std::vector<std::string_view>& args, const Options& given,
                             std::optional<InputText>& input) {
  if (given.pipeline || given.optimize) {
    throw UsageError("--run-reproducer runs the pipeline of the input's reproducer line; do not "
                     "give " +
                     std::string(given.pipeline ? "-p" : "-O" + std::to_string(*given.optimize)));
  }
  input = read_input(given.input);
  const std::vector<std::string> words = reproducer_arguments(input->text, input->name);
  std::vector<std::string_view> merged(words.begin(), words.end());
  merged.insert(merged.end(), args.begin(), args.end());
  return parse_command_line(merged);
}

/// --print-pipeline: the pipeline as it will run under the context of the command line,
/// then a line `# not run: ...` naming the passes it leaves out, if any.
int print_resolved_pipeline(const std::optional<ctir::Pass>& pipeline, const ContextSetup& setup) {
  if (!pipeline) {
    throw UsageError("--print-pipeline prints the pipeline of -p or -O0..-O3; give one");
  }
  ctir::PassContextOptions settings = setup.options;
  settings.instruments.clear(); // nothing runs: the instruments have nothing to see
  const ctir::PassContext ctx(std::move(settings));
  const ctir::ResolvedPipeline resolved = ctir::resolve_pipeline(*pipeline, ctx);
  std::cout << resolved.pipeline << '\n';
  if (!resolved.skipped.empty()) {
    std::cout << "# not run:";
    for (std::size_t i = 0; i < resolved.skipped.size(); ++i) {
      const ctir::SkippedPass& skipped = resolved.skipped[i];
      std::cout << (i == 0 ? " " : ", ") << skipped.pass << " (" << skipped.reason << ')';
    }
    std::cout << '\n';
  }
  return exit_success;
}

int run(const std::vector<std::string_view>& args) {
  Options options;
  std::optional<InputText> read;
  try {
    options = parse_command_line(args);
    if (options.run_reproducer && !options.help && !options.version && !options.list_passes &&
        !options.list_configs) {
      options = with_reproducer_line(args, options, read);
    }
    if (options.reproducer && options.input != "-" &&
        same_file(options.input, *options.reproducer)) {
      throw UsageError("the reproducer file '" + *options.reproducer +
                       "' is the input file; a failing pass would overwrite it");
    }
  } catch (const UsageError& error) {
    return usage_error(error.what());
  } catch (const IoError& error) {
    std::cerr << format_error(error.what());
    return exit_failure;
  }
  if (options.help) {
    std::cout << usage_text();
    return exit_success;
  }
  if (options.version) {
    std::cout << "ctir-opt " << ctir_version() << '\n';
    return exit_success;
  }
  if (options.list_passes || options.list_configs) {
    std::cout << (options.list_passes ? list_passes() : std::string())
              << (options.list_passes && options.list_configs ? "\n" : "")
              << (options.list_configs ? list_configs() : std::string());
    return exit_success;
  }

  // Everything the command line names is checked before the input is read.
  std::optional<ctir::Pass> pipeline;
  ContextSetup setup;
  try {
    std::vector<std::string> pipeline_names;
    if (options.pipeline) {
      pipeline = load_pipeline(*options.pipeline);
    } else if (options.optimize) {
      pipeline = load_pipeline("DefaultPipeline"); // -ON without -p
    }
    if (pipeline) {
      pipeline_names = pipeline_pass_names(*pipeline);
    }
    if (options.run) {
      use_run_function_as_entry(options);
    }
    setup = make_context_setup(options, pipeline_names, std::cerr);
    if (options.print_pipeline) {
      return print_resolved_pipeline(pipeline, setup);
    }
  } catch (const UsageError& error) {
    return usage_error(error.what());
  } catch (const ctir::Error& error) {
    return usage_error(error.what()); // the pipeline string: an unknown pass, a bad option
  }

  ctir::IRModule mod;
  InputText input;
  try {
    input = read ? std::move(*read) : read_input(options.input);
    mod = ctir::parse_module(input.text, input.name);
  } catch (const std::exception& error) {
    std::cerr << describe_exception(error);
    return exit_failure;
  }
  const std::string& input_name = input.name;
  if (options.run) {
    // Before the pipeline runs: a misspelt name fails at once.
    try {
      check_run_function(mod, *options.run, input_name);
    } catch (const RunError& error) {
      std::cerr << format_error(error.what());
      return exit_failure;
    }
  }

  // After the verifier: a verifier failing after a pass stops the round of hooks before
  // this one sees the pass return, so the pass is still the one that failed. Before the
  // timing instrument (the last one), so that printing the module is not timed as the pass.
  std::optional<ReproducerInstrument> reproducer;
  if (options.reproducer && pipeline) {
    reproducer.emplace(*options.reproducer, *pipeline, reproducer_flags(options));
    std::vector<ctir::Instrument>& instruments = setup.options.instruments;
    instruments.insert(instruments.end() - static_cast<std::ptrdiff_t>(setup.timers), *reproducer);
  }

  install_pass_error_printer();
  int errors = 0;
  setup.options.on_diagnostic = [&errors](const ctir::Diagnostic& diagnostic) {
    std::cerr << format_diagnostic(diagnostic);
    errors += diagnostic.severity == ctir::Diagnostic::Severity::error ? 1 : 0;
  };

  std::string reports;
  int status = exit_success;
  try {
    if (options.verify_each) {
      try {
        ctir::check_well_formed(mod);
      } catch (const ctir::WellFormedError& error) {
        std::cerr << format_error(input_name + ": " +
                                  std::string(without_library_prefix(error.what())));
        return exit_failure;
      }
    }
    if (pipeline) {
      mod = run_in_context(*pipeline, std::move(mod), setup, reports, reproducer);
    }
  } catch (const std::exception& error) {
    std::cerr << describe_exception(error);
    status = exit_failure;
    if (reproducer) {
      std::cerr << reproducer->write();
    }
  }
  std::cerr << reports;
  if (status != exit_success) {
    return status;
  }
  if (errors > 0) {
    std::cerr << format_error("a pass reported " + std::to_string(errors) +
                              (errors == 1 ? " error" : " errors"));
    return exit_failure;
  }

  // With --run the module is written only where -o says.
  if (!options.run || options.output_given) {
    try {
      write_output(options.output, emit_module(mod, options.emit));
    } catch (const std::exception& error) {
      std::cerr << describe_exception(error);
      return exit_failure;
    }
  }
  if (options.run) {
    return run_function_of(mod, options, input, pipeline.has_value());
  }
  return exit_success;
}

} // namespace
} // namespace ctir_opt

int main(int argc, char** argv) {
  ctir_opt::restart_with_huge_pages(argv);
  try {
    ctir_opt::register_passes();
    ctir::install_printer();
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    return ctir_opt::run(args);
  } catch (const std::exception& error) {
    std::cerr << ctir_opt::format_error(error.what());
  } catch (...) {
    std::cerr << ctir_opt::format_error("unknown exception");
  }
  return ctir_opt::exit_failure;
}
