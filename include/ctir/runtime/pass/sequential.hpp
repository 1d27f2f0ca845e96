// Sequentials built at run time: a list of Pass, requirements resolved through the
// pipeline and the registry when the sequential is made.
#pragma once

#include <ctir/core/linkage.hpp>
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
                    const PassRegistry& registry);

  const PassInfo& info() const noexcept { return info_; }
  bool is_sequential() const noexcept { return true; }
  const std::vector<Pass>& passes() const noexcept { return passes_; }
  /// The passes made from the registry to provide requirements nothing in the list provides.
  const std::vector<Pass>& providers() const noexcept { return providers_; }

  IRModule transform_module(IRModule mod, const PassContext& ctx) const;

  /// Whether the sequential tracks requirements (a pass of its list requires something).
  bool tracks_requirements() const noexcept { return tracking_; }
  /// Entry `index`: the passes of the list, then the providers.
  const Pass& entry_at(std::size_t index) const noexcept { return entry(index); }
  /// The entry that provides requirement `k` of entry `index`.
  std::size_t provider_of(std::size_t index, std::size_t k) const noexcept {
    return static_cast<std::size_t>(plan_[index][k]);
  }

  /// `sequential(A,B)`, `sequential{name=O2}(A,B)`, or `A,B` for the implicit top level of a
  /// pipeline string.
  void print_pipeline(std::string& out) const;

private:
  const Pass& entry(std::size_t index) const noexcept;

  IRModule step(std::size_t index, IRModule mod, const PassContext& ctx, RequirementState& state,
                bool check_enabled) const;

  /// Finds a provider for every requirement: a pass of the list (not a nested sequential),
  /// else a registered pass of that name, made with default options and resolved in turn.
  void plan(const PassRegistry& registry);

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
Pass sequential(std::vector<Pass> passes, PassInfo info = {.name = "sequential"},
                const PassRegistry& registry = PassRegistry::global());

namespace detail {
/// The implicit sequential of a pipeline string's top level (printed without a wrapper).
Pass implicit_sequential(std::vector<Pass> passes, const PassRegistry& registry);
} // namespace detail

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/sequential-inl.hpp>
#endif
