// ctir-opt's PassContext: opt level, pass lists, config and instruments from the options.
#include "context.hpp"

#include <ctir/core/detail/names.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/instruments/dump_ir.hpp>
#include <ctir/pass/instruments/print_changed.hpp>
#include <ctir/pass/instruments/print_ir.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <algorithm>
#include <utility>

namespace ctir_opt {
namespace {

/// Every name a pass list may use: the registered passes and the pipeline's own names.
std::vector<std::string> known_pass_names(const std::vector<std::string>& pipeline_names) {
  std::vector<std::string> known = ctir::PassRegistry::global().names();
  for (const std::string& name : pipeline_names) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      known.push_back(name);
    }
  }
  if (std::find(known.begin(), known.end(), "sequential") == known.end()) {
    known.emplace_back("sequential");
  }
  return known;
}

void check_names(std::string_view flag, const std::vector<std::string>& names,
                 const std::vector<std::string>& known, bool allow_all) {
  for (const std::string& name : names) {
    if (allow_all && (name == "all" || name == "*")) {
      continue;
    }
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw UsageError("unknown pass '" + name + "' in " + std::string(flag) +
                       ctir::detail::did_you_mean(ctir::detail::nearest_names(name, known)) +
                       " (not registered and not in the pipeline)");
    }
  }
}

/// The passes a --print-ir-before/after list selects.
ctir::PassFilter filter_of(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (name == "all" || name == "*") {
      return ctir::PassFilter::all();
    }
  }
  return ctir::PassFilter(names);
}

std::vector<ctir::ConfigSetting>
parse_config(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::vector<ctir::ConfigSetting> config;
  for (const auto& [key, text] : settings) {
    try {
      config.push_back({key, ctir::PassConfigRegistry::global().parse(key, text)});
    } catch (const ctir::ConfigError& error) {
      std::string_view message = error.what();
      if (message.starts_with("ctir: ")) {
        message.remove_prefix(6);
      }
      throw UsageError("--config " + key + "=" + text + ": " + std::string(message));
    }
  }
  return config;
}

} // namespace

ContextSetup make_context_setup(const Options& options,
                                const std::vector<std::string>& pipeline_names, std::ostream& log) {
  const std::vector<std::string> known = known_pass_names(pipeline_names);
  check_names("--disable", options.disabled, known, false);
  check_names("--required", options.required, known, false);
  check_names("--print-ir-before", options.print_before, known, true);
  check_names("--print-ir-after", options.print_after, known, true);

  ContextSetup setup;
  setup.options.opt_level = options.opt_level;
  setup.options.disabled = options.disabled;
  setup.options.required = options.required;
  setup.options.config = parse_config(options.config);

  std::vector<ctir::Instrument>& instruments = setup.options.instruments;
  if (options.bisect_limit) {
    setup.bisect.emplace(*options.bisect_limit, ctir::BisectOptions{.log = &log});
    instruments.emplace_back(*setup.bisect);
  }
  if (!options.print_before.empty() || !options.print_after.empty()) {
    instruments.emplace_back(ctir::PrintIRInstrument(filter_of(options.print_before),
                                                     filter_of(options.print_after), log));
  }
  if (options.print_changed) {
    instruments.emplace_back(ctir::PrintChangedInstrument(log));
  }
  if (options.dump_dir) {
    instruments.emplace_back(ctir::DumpIRInstrument(*options.dump_dir));
  }
  if (options.verify_each) {
    // ctir-opt verifies the parsed module itself, and each pass's output is the next one's
    // input: checking inputs again would only repeat work.
    instruments.emplace_back(ctir::VerifyWellFormedInstrument({.check_input = false}));
  }
  if (options.time_trace) {
    setup.trace.emplace();
    setup.trace_path = *options.time_trace;
    instruments.emplace_back(*setup.trace);
    ++setup.timers;
  }
  setup.time_report = options.time_passes;
  if (options.time_passes != TimeReport::none) {
    setup.timing.emplace();
    instruments.emplace_back(*setup.timing);
    ++setup.timers;
  }
  return setup;
}

} // namespace ctir_opt
