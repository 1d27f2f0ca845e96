// Definitions of <ctir/runtime/pass/sequential.hpp>.
#pragma once

#include <ctir/runtime/pass/sequential.hpp>

#include <ctir/core/detail/names.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {
namespace detail {

CTIR_INLINE RuntimeSequential::RuntimeSequential(PassInfo info, std::vector<Pass> passes,
                                                 bool implicit, const PassRegistry& registry)
    : info_(stable_info(sequential_info(info))), passes_(std::move(passes)), implicit_(implicit) {
  plan(registry);
}

CTIR_INLINE IRModule RuntimeSequential::transform_module(IRModule mod,
                                                         const PassContext& ctx) const {
  RequirementState* outer = active_requirements;
  if (!tracking_ && outer == nullptr) [[likely]] {
    for (const Pass& pass : passes_) {
      if (ctx.is_plain()) [[likely]] {
        if (ctx.opt_level() >= pass.info().opt_level) {
          mod = invoke_checked(pass, std::move(mod), ctx);
        }
      } else if (ctx.pass_enabled(pass.info())) {
        bool ran = false;
        mod = run_pass_reporting(pass, std::move(mod), ctx, ran);
      }
    }
    return mod;
  }
  RequirementState local;
  RequirementState& state = outer != nullptr ? *outer : local;
  ActiveRequirements active(&state);
  for (std::size_t i = 0; i < passes_.size(); ++i) {
    mod = step(i, std::move(mod), ctx, state, true);
  }
  return mod;
}

CTIR_INLINE void RuntimeSequential::print_pipeline(std::string& out) const {
  if (!implicit_) {
    print_sequential_head(info_, out);
    out += '(';
  }
  for (std::size_t i = 0; i < passes_.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    passes_[i].print_pipeline(out);
  }
  if (!implicit_) {
    out += ')';
  }
}

CTIR_INLINE const Pass& RuntimeSequential::entry(std::size_t index) const noexcept {
  return index < passes_.size() ? passes_[index] : providers_[index - passes_.size()];
}

CTIR_INLINE IRModule RuntimeSequential::step(std::size_t index, IRModule mod,
                                             const PassContext& ctx, RequirementState& state,
                                             bool check_enabled) const {
  const Pass& pass = entry(index);
  const PassInfo& info = pass.info();
  if (check_enabled && !ctx.pass_enabled(info)) {
    return mod;
  }
  for (std::size_t k = 0; k < info.required.size(); ++k) {
    if (!state.contains(info.required[k])) {
      mod = step(static_cast<std::size_t>(plan_[index][k]), std::move(mod), ctx, state, false);
    }
  }
  bool ran = false;
  mod = run_pass_reporting(pass, std::move(mod), ctx, ran);
  if (ran) {
    state.apply(info);
  }
  return mod;
}

CTIR_INLINE void RuntimeSequential::plan(const PassRegistry& registry) {
  std::vector<PassInfo> infos;
  std::vector<char> can_provide;
  for (const Pass& pass : passes_) {
    infos.push_back(pass.info());
    can_provide.push_back(pass.is_sequential() ? 0 : 1);
    tracking_ = tracking_ || !pass.info().required.empty();
  }
  for (std::size_t e = 0; e < infos.size(); ++e) {
    for (std::size_t k = 0; k < infos[e].required.size(); ++k) {
      const std::string_view result = infos[e].required[k];
      bool provided = false;
      for (std::size_t p = 0; p < infos.size() && !provided; ++p) {
        provided = can_provide[p] != 0 && infos[p].establishes_result(result);
      }
      if (provided) {
        continue;
      }
      if (!registry.contains(result)) {
        std::vector<std::string> known = registry.names();
        for (const PassInfo& info : infos) {
          known.emplace_back(info.name);
        }
        throw PipelineError("ctir: pass '" + std::string(infos[e].name) + "' requires '" +
                            std::string(result) +
                            "', which no pass in this pipeline provides and no registered "
                            "pass is named" +
                            did_you_mean(nearest_names(result, known)));
      }
      Pass provider = registry.create(result);
      infos.push_back(provider.info());
      can_provide.push_back(1);
      providers_.push_back(std::move(provider));
    }
  }
  plan_.resize(infos.size());
  std::vector<std::size_t> color(infos.size());
  std::vector<std::size_t> stack(infos.size());
  std::vector<std::size_t> next(infos.size());
  const PlanProblem problem = plan_requirements(infos, can_provide, plan_, color, stack, next);
  if (problem.kind != PlanProblem::Kind::none) {
    throw PipelineError(describe_problem(problem, infos));
  }
}

} // namespace detail

CTIR_INLINE Pass sequential(std::vector<Pass> passes, PassInfo info, const PassRegistry& registry) {
  return Pass(detail::RuntimeSequential(info, std::move(passes), false, registry));
}

namespace detail {
CTIR_INLINE Pass implicit_sequential(std::vector<Pass> passes, const PassRegistry& registry) {
  return Pass(RuntimeSequential({.name = "sequential"}, std::move(passes), true, registry));
}
} // namespace detail

} // namespace ctir
