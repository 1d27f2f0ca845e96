// The pass trace instrument: every pass run as a Chrome trace event (chrome://tracing,
// Perfetto).
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

/// Records every pass run with its start and duration, nested as the runs nest (a
/// sequential contains the passes it runs), and writes them in the Chrome trace event
/// format that chrome://tracing and Perfetto open.
///
/// A handle: copies share the events, so keep one and put a copy in the context:
///
///     TraceInstrument trace;
///     PassContext ctx{{.instruments = {trace}}};
///     mod = pipeline(mod, ctx);
///     std::ofstream("passes.json") << trace.json();
///
/// Unlike TimingInstrument, the events outlive the context (a trace is usually written
/// after the run); `clear()` forgets them. Not thread-safe: give each thread its own.
class TraceInstrument {
public:
  using clock = std::chrono::steady_clock;

  /// One pass run: a "complete" trace event.
  struct Event {
    std::string name;
    int opt_level = 0;
    /// From the first event this instrument recorded (or the last clear()).
    clock::duration start{};
    clock::duration duration{};
    /// How many runs enclose this one.
    std::size_t depth = 0;
    bool failed = false;
  };

  TraceInstrument();

  static std::string_view name() noexcept { return "PassTrace"; }

  void enter_pass_ctx() const noexcept {}
  void exit_pass_ctx() const noexcept {}
  void run_before_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error) const;

  /// The finished runs in the order they started (a run before the runs nested in it).
  std::vector<Event> events() const;
  /// Forgets every event; the next one starts at time 0.
  void clear() const noexcept;

  /// The trace as a JSON object `{"traceEvents":[...],"displayTimeUnit":"ms"}`: one event
  /// `{"name":..,"cat":"pass","ph":"X","ts":..,"dur":..,"pid":1,"tid":1,"args":{..}}` per
  /// finished run, ts and dur in microseconds, args holding the pass's opt_level (and
  /// `"failed":true` for a run that threw).
  std::string json() const;

private:
  struct State;

  void close(std::string_view name, bool failed) const;

  std::shared_ptr<State> state_;
};

namespace detail {
/// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);
} // namespace detail

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/trace-inl.hpp>
#endif
