// The pipeline as it will run: a pass's requirements resolved and the context's choices
// applied, in pipeline syntax.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/runtime/pass/erased.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <string>
#include <vector>

namespace ctir {

/// A pass of a pipeline that will not run, and why.
struct SkippedPass {
  /// The pass in pipeline syntax (`FoldConstant`, `sequential{name=Heavy}(...)`).
  std::string pass;
  /// `disabled`, or `opt_level 3 > 2` (the pass's level above the context's).
  std::string reason;
};

/// What resolve_pipeline found.
struct ResolvedPipeline {
  /// The passes that will run, in order and nested as they run, in pipeline syntax: the
  /// required passes resolution adds appear where they run, the passes the context
  /// disables or its opt_level gates are left out. Run under the same context, this string
  /// runs the same passes in the same order.
  std::string pipeline;
  /// The passes of the pipeline that will not run, in pipeline order.
  std::vector<SkippedPass> skipped;
};

/// The passes `pipeline.transform_module(mod, ctx)` runs, found without running any:
/// PassEnabled, transitive requirements and the results that stay valid are applied as a
/// run applies them. A sequential of the pipeline prints with its passes; a static
/// sequential (such as DefaultPipeline) is resolved as the runtime sequential of its
/// printed form, which runs the same passes, so every pass in it must be in `registry`. A
/// top-level sequential prints as its passes alone (it is called, not checked). Instruments
/// are not consulted: an instrument's should_run (pass bisection) may skip more. Throws
/// PipelineError as parse_pipeline does.
ResolvedPipeline resolve_pipeline(const Pass& pipeline, const PassContext& ctx,
                                  const PassRegistry& registry = PassRegistry::global());

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/resolve-inl.hpp>
#endif
