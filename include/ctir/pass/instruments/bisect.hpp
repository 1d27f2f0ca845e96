// Pass bisection: run only the first N optional passes, to find the pass that breaks a program.
#pragma once

#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

/// Settings of BisectInstrument.
struct BisectOptions {
  /// Passes that are neither counted nor vetoed: containers whose own work is running other
  /// passes (vetoing one would veto everything inside it).
  std::vector<std::string> uncounted = {"sequential"};
  /// Where to write one line per decision (`BISECT: running pass (2) FoldConstant`), or
  /// null for none. Must outlive the instrument.
  std::ostream* log = nullptr;
};

/// Lets only the first `limit` optional passes run and vetoes the rest (through should_run),
/// like LLVM's -opt-bisect-limit. Optional passes are those should_run is asked about: the
/// passes the PassContext lists as required always run and are not counted; nor are the
/// passes named in BisectOptions::uncounted (sequentials).
///
/// To find the pass that breaks a program: run once with `unlimited` to learn the number of
/// optional passes, then bisect on `limit` until N works and N + 1 fails; the last pass run
/// at N + 1 is the culprit:
///
///     BisectInstrument bisect(limit);
///     PassContext ctx{{.instruments = {bisect}}};
///     mod = pipeline(mod, ctx);
///     std::cout << bisect.report();  // ran 2 of 5 optional passes; the last was (2) Inline
///
/// Counting starts again when the instrument enters a context. A handle: copies share the
/// count and the record of decisions.
class BisectInstrument {
public:
  static constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();

  /// One counted pass and whether it was allowed to run.
  struct Decision {
    std::size_t index = 0; ///< 1-based, in the order should_run was asked
    std::string name;
    bool allowed = false;
  };

  explicit BisectInstrument(std::size_t limit, BisectOptions options = {})
      : state_(std::make_shared<State>()) {
    state_->limit = limit;
    state_->options = std::move(options);
  }

  static std::string_view name() noexcept { return "PassBisect"; }

  void enter_pass_ctx() const noexcept { reset(); }
  bool should_run(const IRModule&, const PassInfo& info) const {
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
  void run_before_pass(const IRModule&, const PassInfo& info) const {
    State& state = *state_;
    // The pass that was just allowed has started (another instrument could have vetoed it).
    if (state.pending != 0 && state.decisions[state.pending - 1].name == info.name) {
      state.last_run = state.pending;
    }
    state.pending = 0;
  }

  std::size_t limit() const noexcept { return state_->limit; }
  /// Every counted pass so far, in order.
  const std::vector<Decision>& decisions() const noexcept { return state_->decisions; }
  /// How many optional passes were counted.
  std::size_t count() const noexcept { return state_->decisions.size(); }
  /// The last optional pass that ran, if any.
  std::optional<Decision> last_run() const {
    if (state_->last_run == 0) {
      return std::nullopt;
    }
    return state_->decisions[state_->last_run - 1];
  }
  /// The first optional pass that was vetoed, if any.
  std::optional<Decision> first_skipped() const {
    for (const Decision& decision : state_->decisions) {
      if (!decision.allowed) {
        return decision;
      }
    }
    return std::nullopt;
  }
  /// `ran 2 of 5 optional passes (limit 2); the last pass run was (2) Inline; the first pass
  /// not run was (3) FoldConstant`.
  std::string report() const {
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
  /// Forgets the count and the decisions.
  void reset() const noexcept {
    state_->decisions.clear();
    state_->pending = 0;
    state_->last_run = 0;
  }

private:
  struct State {
    std::size_t limit = unlimited;
    BisectOptions options;
    std::vector<Decision> decisions;
    std::size_t pending = 0;  ///< the decision allowed last, until its run starts (0: none)
    std::size_t last_run = 0; ///< the last allowed decision whose run started (0: none)
  };

  std::shared_ptr<State> state_;
};

} // namespace ctir
