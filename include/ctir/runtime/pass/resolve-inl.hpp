// Definitions of <ctir/runtime/pass/resolve.hpp>.
#pragma once

#include <ctir/runtime/pass/resolve.hpp>

#include <ctir/pass/requirements.hpp>
#include <ctir/runtime/pass/detail/model.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/sequential.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ctir {
namespace detail::resolve {

/// Walks a pipeline as RuntimeSequential::transform_module runs it, appending the passes
/// that would run instead of running them.
class Resolver {
public:
  Resolver(const PassContext& ctx, std::vector<SkippedPass>& skipped)
      : ctx_(ctx), skipped_(skipped) {}

  /// The passes of `seq` that run, separated by commas; `outer` is the requirement state
  /// of the enclosing tracked sequential, if any.
  void sequential_body(const RuntimeSequential& seq, RequirementState* outer, std::string& out) {
    if (!seq.tracks_requirements() && outer == nullptr) {
      for (const Pass& pass : seq.passes()) {
        if (ctx_.pass_enabled(pass.info())) {
          run(pass, nullptr, out);
        } else {
          skip(pass);
        }
      }
      return;
    }
    RequirementState local;
    RequirementState& state = outer != nullptr ? *outer : local;
    for (std::size_t i = 0; i < seq.passes().size(); ++i) {
      step(seq, i, state, true, out);
    }
  }

private:
  void step(const RuntimeSequential& seq, std::size_t index, RequirementState& state,
            bool check_enabled, std::string& out) {
    const Pass& pass = seq.entry_at(index);
    const PassInfo& info = pass.info();
    if (check_enabled && !ctx_.pass_enabled(info)) {
      skip(pass);
      return;
    }
    for (std::size_t k = 0; k < info.required.size(); ++k) {
      if (!state.contains(info.required[k])) {
        step(seq, seq.provider_of(index, k), state, false, out);
      }
    }
    run(pass, &state, out);
    state.apply(info);
  }

  void run(const Pass& pass, RequirementState* state, std::string& out) {
    if (!out.empty() && out.back() != '(') {
      out += ',';
    }
    const auto* seq = pass.target<RuntimeSequential>();
    if (seq == nullptr) {
      pass.print_pipeline(out);
      return;
    }
    print_sequential_head(seq->info(), out);
    out += '(';
    sequential_body(*seq, state, out);
    out += ')';
  }

  void skip(const Pass& pass) {
    const PassInfo& info = pass.info();
    std::string reason = ctx_.is_disabled(info.name)
                             ? std::string("disabled")
                             : "opt_level " + std::to_string(info.opt_level) + " > " +
                                   std::to_string(ctx_.opt_level());
    skipped_.push_back({pass.str(), std::move(reason)});
  }

  const PassContext& ctx_;
  std::vector<SkippedPass>& skipped_;
};

} // namespace detail::resolve

CTIR_INLINE ResolvedPipeline resolve_pipeline(const Pass& pipeline, const PassContext& ctx,
                                              const PassRegistry& registry) {
  ResolvedPipeline resolved;
  detail::resolve::Resolver resolver(ctx, resolved.skipped);
  // Parsed from its printed form, every sequential in it is a runtime one, whose plan of
  // requirements the resolver can follow.
  const Pass top = parse_pipeline(pipeline.str(), registry);
  if (const auto* seq = top.target<detail::RuntimeSequential>()) {
    resolver.sequential_body(*seq, nullptr, resolved.pipeline);
  } else {
    top.print_pipeline(resolved.pipeline); // called directly, a pass runs
  }
  return resolved;
}

} // namespace ctir
