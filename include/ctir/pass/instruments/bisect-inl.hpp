// Definitions of <ctir/pass/instruments/bisect.hpp>.
#pragma once

#include <ctir/pass/instruments/bisect.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ctir {

struct BisectInstrument::State {
  std::size_t limit = unlimited;
  BisectOptions options;
  std::vector<Decision> decisions;
  std::size_t pending = 0;  ///< the decision allowed last, until its run starts (0: none)
  std::size_t last_run = 0; ///< the last allowed decision whose run started (0: none)
};

CTIR_INLINE BisectInstrument::BisectInstrument(std::size_t limit, BisectOptions options)
    : state_(std::make_shared<State>()) {
  state_->limit = limit;
  state_->options = std::move(options);
}

CTIR_INLINE bool BisectInstrument::should_run(const IRModule&, const PassInfo& info) const {
  State& state = *state_;
  for (const std::string& name : state.options.uncounted) {
    if (name == info.name) {
      return true;
    }
  }
  const std::size_t index = state.decisions.size() + 1;
  const bool allowed = index <= state.limit;
  state.decisions.push_back({index, std::string(info.name), allowed});
  if (state.options.log != nullptr) {
    *state.options.log << (allowed ? "BISECT: running pass (" : "BISECT: NOT running pass (")
                       << index << ") " << info.name << '\n';
  }
  state.pending = allowed ? index : 0;
  return allowed;
}

CTIR_INLINE void BisectInstrument::run_before_pass(const IRModule&, const PassInfo& info) const {
  State& state = *state_;
  // The pass that was just allowed has started (another instrument could have vetoed it).
  if (state.pending != 0 && state.decisions[state.pending - 1].name == info.name) {
    state.last_run = state.pending;
  }
  state.pending = 0;
}

CTIR_INLINE std::size_t BisectInstrument::limit() const noexcept { return state_->limit; }

CTIR_INLINE const std::vector<BisectInstrument::Decision>&
BisectInstrument::decisions() const noexcept {
  return state_->decisions;
}

CTIR_INLINE std::size_t BisectInstrument::count() const noexcept {
  return state_->decisions.size();
}

CTIR_INLINE std::optional<BisectInstrument::Decision> BisectInstrument::last_run() const {
  if (state_->last_run == 0) {
    return std::nullopt;
  }
  return state_->decisions[state_->last_run - 1];
}

CTIR_INLINE std::optional<BisectInstrument::Decision> BisectInstrument::first_skipped() const {
  for (const Decision& decision : state_->decisions) {
    if (!decision.allowed) {
      return decision;
    }
  }
  return std::nullopt;
}

CTIR_INLINE std::string BisectInstrument::report() const {
  const State& state = *state_;
  std::size_t ran = 0;
  for (const Decision& decision : state.decisions) {
    ran += decision.allowed ? 1U : 0U;
  }
  std::string text =
      "ran " + std::to_string(ran) + " of " + std::to_string(state.decisions.size()) +
      " optional passes (limit " +
      (state.limit == unlimited ? std::string("none") : std::to_string(state.limit)) + ")";
  if (const std::optional<Decision> last = last_run()) {
    text += "; the last pass run was (" + std::to_string(last->index) + ") " + last->name;
  } else {
    text += "; no optional pass ran";
  }
  if (const std::optional<Decision> skipped = first_skipped()) {
    text +=
        "; the first pass not run was (" + std::to_string(skipped->index) + ") " + skipped->name;
  }
  return text;
}

CTIR_INLINE void BisectInstrument::reset() const noexcept {
  state_->decisions.clear();
  state_->pending = 0;
  state_->last_run = 0;
}

} // namespace ctir
