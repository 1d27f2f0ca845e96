// Pass bisection: run only the first N optional passes, to find the pass that breaks a program.
#pragma once

#include <ctir/core/linkage.hpp>
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

  explicit BisectInstrument(std::size_t limit, BisectOptions options = {});

  static std::string_view name() noexcept { return "PassBisect"; }

  void enter_pass_ctx() const noexcept { reset(); }
  bool should_run(const IRModule& mod, const PassInfo& info) const;
  void run_before_pass(const IRModule& mod, const PassInfo& info) const;

  std::size_t limit() const noexcept;
  /// Every counted pass so far, in order.
  const std::vector<Decision>& decisions() const noexcept;
  /// How many optional passes were counted.
  std::size_t count() const noexcept;
  /// The last optional pass that ran, if any.
  std::optional<Decision> last_run() const;
  /// The first optional pass that was vetoed, if any.
  std::optional<Decision> first_skipped() const;
  /// `ran 2 of 5 optional passes (limit 2); the last pass run was (2) Inline; the first pass
  /// not run was (3) FoldConstant`.
  std::string report() const;
  /// Forgets the count and the decisions.
  void reset() const noexcept;

private:
  struct State;

  std::shared_ptr<State> state_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/bisect-inl.hpp>
#endif
