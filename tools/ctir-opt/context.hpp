// ctir-opt's PassContext: opt level, pass lists, config and instruments from the options.
#pragma once

#include "options.hpp"

#include <ctir/pass/context.hpp>
#include <ctir/pass/instruments/bisect.hpp>
#include <ctir/pass/instruments/timing.hpp>
#include <ctir/pass/instruments/trace.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ctir_opt {

/// The settings of the run's PassContext, and the instruments whose results ctir-opt
/// reports after the run.
struct ContextSetup {
  ctir::PassContextOptions options;
  /// Set with --time-passes.
  std::optional<ctir::TimingInstrument> timing;
  /// Set with --time-trace, and the file it is written to.
  std::optional<ctir::TraceInstrument> trace;
  std::string trace_path;
  /// How --time-passes reports.
  TimeReport time_report = TimeReport::none;
  /// How many instruments at the end of the list measure time (timing, trace): they stay
  /// closest to the pass.
  std::size_t timers = 0;
  /// Set with --bisect-limit.
  std::optional<ctir::BisectInstrument> bisect;
};

/// Builds the context settings from the command line. Pass names given to --disable,
/// --required and --print-ir-before/after must be registered or appear in the pipeline
/// (`pipeline_names`); config values are parsed to their registered key's type. Throws
/// UsageError otherwise. Instruments print to `log` (stderr), in this order: bisection
/// (asked first whether a pass runs), print-IR, print-changed, dump-IR, verification
/// (after the printers, so the IR that failed is shown), tracing and timing (closest to
/// the pass).
ContextSetup make_context_setup(const Options& options,
                                const std::vector<std::string>& pipeline_names, std::ostream& log);

} // namespace ctir_opt
