// Sequentials built at run time: a list of Pass, requirements resolved through the
// pipeline and the registry when the sequential is made.
#pragma once

#include <ctir/core/detail/names.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/requirements.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/runtime/pass/erased.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ctir {
namespace detail {

/// The pass behind `sequential(std::vector<Pass>)`; see Sequential for the semantics.
class RuntimeSequential {
public:
  RuntimeSequential(PassInfo info, std::vector<Pass> passes, bool implicit,
                    const PassRegistry& registry)
      : info_(stable_info(info)), passes_(std::move(passes)), implicit_(implicit) {
    plan(registry);
  }

  const PassInfo& info() const noexcept { return info_; }
  bool is_sequential() const noexcept { return true; }
  const std::vector<Pass>& passes() const noexcept { return passes_; }
  /// The passes made from the registry to provide requirements nothing in the list provides.
  const std::vector<Pass>& providers() const noexcept { return providers_; }

  IRModule transform_module(IRModule mod, const PassContext& ctx) const {
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

  /// `sequential(A,B)`, `sequential{name=O2}(A,B)`, or `A,B` for the implicit top level of a
  /// pipeline string.
  void print_pipeline(std::string& out) const {
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

private:
  const Pass& entry(std::size_t index) const noexcept {
    return index < passes_.size() ? passes_[index] : providers_[index - passes_.size()];
  }

  IRModule step(std::size_t index, IRModule mod, const PassContext& ctx, RequirementState& state,
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

  /// Finds a provider for every requirement: a pass of the list (not a nested sequential),
  /// else a registered pass of that name, made with default options and resolved in turn.
  void plan(const PassRegistry& registry) {
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

  PassInfo info_;
  std::vector<Pass> passes_;
  std::vector<Pass> providers_;
  std::vector<std::array<std::int16_t, NameList::capacity>> plan_;
  bool tracking_ = false;
  bool implicit_ = false;
};

} // namespace detail

/// A sequential of passes chosen at run time (same semantics as the static Sequential).
/// Requirements are resolved now: by the passes in the list, else by passes of that name
/// in `registry`; a requirement nobody provides, or a cycle, throws PipelineError naming
/// the passes.
inline Pass sequential(std::vector<Pass> passes, PassInfo info = {.name = "sequential"},
                       const PassRegistry& registry = PassRegistry::global()) {
  return Pass(detail::RuntimeSequential(info, std::move(passes), false, registry));
}

namespace detail {
/// The implicit sequential of a pipeline string's top level (printed without a wrapper).
inline Pass implicit_sequential(std::vector<Pass> passes, const PassRegistry& registry) {
  return Pass(RuntimeSequential({.name = "sequential"}, std::move(passes), true, registry));
}
} // namespace detail

} // namespace ctir
