// The pass timing instrument: a tree of pass runs with total and self time, as a table.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

/// Times every pass run, nested as the runs nest (a sequential and the passes in it).
///
/// A handle: copies share the records, so keep one and put a copy in the context:
///
///     TimingInstrument timing;
///     PassContext::current().override_instruments({timing});
///     mod = pipeline(mod);
///     std::cout << timing.render();
///
/// As in TVM, the records are cleared when the instrument leaves its context
/// (exit_pass_ctx), so render inside the context.
class TimingInstrument {
public:
  using clock = std::chrono::steady_clock;

  /// One pass run and the runs nested in it.
  struct Record {
    std::string name;
    clock::duration total{};
    bool failed = false;
    std::vector<Record> children;

    /// Total minus the time of the nested runs.
    clock::duration self() const noexcept;
  };

  TimingInstrument();

  static std::string_view name() noexcept { return "PassTiming"; }

  void enter_pass_ctx() const noexcept {}
  void exit_pass_ctx() const noexcept { clear(); }
  void run_before_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error) const;

  /// The finished top-level runs, in order.
  const std::vector<Record>& records() const noexcept;
  /// Forgets every record.
  void clear() const noexcept;

  /// A table of the runs, nested by indentation; empty when nothing was recorded.
  ///
  ///     pass                              total        self   %total  %parent
  ///     sequential                     1.234 ms    0.010 ms   100.0%   100.0%
  ///       FoldConstant                 0.800 ms    0.800 ms    64.8%    64.8%
  std::string render() const;

  /// The same report as JSON for scripts: `{"unit":"ms","passes":[...]}`, each run an
  /// object `{"pass":..,"total":..,"self":..,"percent_total":..,"percent_parent":..,
  /// "failed":..,"children":[...]}` with times in milliseconds; `"passes":[]` when nothing
  /// was recorded.
  std::string render_json() const;

private:
  struct State;

  /// Ends the innermost open run of `name`. Runs opened after it and never closed (an
  /// instrument threw between their hooks) are closed first, as failed.
  void close(std::string_view name, bool failed) const;

  std::shared_ptr<State> state_;
};

/// A new timing instrument (for option lists: `{.instruments = {make_timing_instrument()}}`;
/// keep a copy to render it).
TimingInstrument make_timing_instrument();

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/timing-inl.hpp>
#endif
