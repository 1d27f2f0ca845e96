// ctir-opt's crash reproducer: the module before a failing pass and the rest of the pipeline,
// written to one .ctir file that `ctir-opt FILE --run-reproducer` runs again.
#pragma once

#include "options.hpp"

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/runtime/pass/erased.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ctir_opt {

/// The start of the comment line that carries a reproducer's command line.
inline constexpr std::string_view reproducer_marker = "# ctir-opt reproducer:";

/// The options of `options` that change what a pipeline does, as arguments in the order a
/// reproducer line lists them: --opt-level, --disable, --required, --config, --verify-each.
/// (Instruments that only report, --run and --bisect-limit are not among them.)
std::vector<std::string> reproducer_flags(const Options& options);

/// The arguments of the reproducer line of `text` (the file `file_name`): the comment line
/// starting with `# ctir-opt reproducer:` among the comment lines that open the file, split
/// into words as a POSIX shell would (single and double quotes, backslashes). Throws
/// UsageError when there is no such line, a quote is not closed, or the line holds anything
/// but the options reproducer_flags writes and -p.
std::vector<std::string> reproducer_arguments(std::string_view text, std::string_view file_name);

/// A pass instrument that keeps, while each pass runs, the text of the reproducer of its
/// failure: the module the pass received, printed, under a reproducer line with the flags
/// and the pipeline from that pass on. Printing the module before every pass costs a print
/// per pass (a module a pass returns unchanged is printed once); it is why the reproducer
/// is an option.
///
/// The position of a pass in the pipeline is known by the identity of its PassInfo: each
/// element of a pipeline parsed at run time has its own. The passes of a sequential compiled
/// statically (DefaultPipeline) share theirs with every instance, so they are placed by name
/// among the elements of the sequential's pipeline text, in order. A pass the instrument
/// cannot place (one a sequential runs to provide a requirement) is reproduced from the
/// element after the last one that started.
///
/// A handle: copies share the state, so that ctir-opt keeps one and gives the context one.
class ReproducerInstrument {
public:
  /// `pipeline` is the top-level sequential ctir-opt runs; `flags` the reproducer_flags.
  ReproducerInstrument(std::string path, ctir::Pass pipeline, std::vector<std::string> flags);

  static std::string_view name() noexcept { return "Reproducer"; }

  /// Records `input`, the module the pipeline starts from: a failure outside any pass the
  /// instrument sees is reproduced by the whole pipeline on it.
  void start(const ctir::IRModule& input) const;

  void run_before_pass(const ctir::IRModule& mod, const ctir::PassInfo& info) const;
  void run_after_pass(const ctir::IRModule& mod, const ctir::PassInfo& info) const;
  void run_after_pass_failed(const ctir::IRModule& mod, const ctir::PassInfo& info,
                             const ctir::Error& error) const;

  /// After the pipeline threw: writes the reproducer of the pass that failed (the innermost
  /// one) and returns the note to print on stderr, which says where it went, or why no
  /// reproducer could be written.
  std::string write() const;

  /// Makes a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) write the reproducer of
  /// the pass running, then end the process by the same signal, until the returned object is
  /// destroyed. The handler runs on its own stack (so that a stack overflow can be reported)
  /// and only calls open, write and close on text prepared before the pass ran. (To test
  /// it, the environment variable CTIR_OPT_TEST_CRASH_IN_PASS=NAME raises SIGSEGV as the
  /// pass NAME starts; NAME:stack-overflow makes it overflow the stack there.)
  [[nodiscard]] std::shared_ptr<void> catch_fatal_signals() const;

private:
  struct State;
  std::shared_ptr<State> state_;
};

} // namespace ctir_opt
