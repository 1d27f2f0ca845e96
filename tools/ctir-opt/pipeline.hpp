// ctir-opt's pipeline: the -p string parsed into a pass, and the pass names it mentions.
#pragma once

#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/runtime/pass/erased.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ctir_opt {

/// The pipeline string parsed by the registry's pipeline parser, as a sequential: a single
/// element (a pass, or an explicit `sequential(...)`) is wrapped in one, so that
/// --opt-level, --disable, --required and the instruments apply to it as to each element
/// of a longer pipeline. Throws ctir::PipelineError (an unknown pass with the
/// nearest registered names, a syntax error with its column, a bad pass option).
ctir::Pass load_pipeline(std::string_view text);

/// The names of the passes in `pipeline` and in every sequential nested in it (the
/// sequentials' own names too), in order, without repeats.
std::vector<std::string> pipeline_pass_names(const ctir::Pass& pipeline);

/// Runs the passes of `pipeline` on `mod` under `ctx`: each with the context's instruments
/// and PassEnabled check, the top-level sequential itself without (it only sequences the
/// command line, so timings and dumps show the passes, not a wrapper).
ctir::IRModule run_pipeline(const ctir::Pass& pipeline, ctir::IRModule mod,
                            const ctir::PassContext& ctx);

} // namespace ctir_opt
