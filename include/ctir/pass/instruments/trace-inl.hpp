// Definitions of <ctir/pass/instruments/trace.hpp>.
#pragma once

#include <ctir/pass/instruments/trace.hpp>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

namespace detail {

CTIR_INLINE std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof(buffer), "\\u%04x", static_cast<unsigned>(c));
        out += buffer;
      } else {
        out += c;
      }
    }
  }
  out += '"';
  return out;
}

} // namespace detail

namespace detail::trace {

/// Microseconds with nanosecond precision, as the trace format's ts and dur want them.
CTIR_INLINE std::string microseconds(TraceInstrument::clock::duration d) {
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%.3f",
                std::chrono::duration<double, std::micro>(d).count());
  return buffer;
}

} // namespace detail::trace

struct TraceInstrument::State {
  /// Every run begun, finished or not, in start order; `open` indexes the unfinished ones.
  std::vector<Event> events;
  std::vector<bool> finished;
  std::vector<std::size_t> open;
  std::optional<clock::time_point> origin;
};

CTIR_INLINE TraceInstrument::TraceInstrument() : state_(std::make_shared<State>()) {}

CTIR_INLINE void TraceInstrument::run_before_pass(const IRModule&, const PassInfo& info) const {
  State& state = *state_;
  const clock::time_point now = clock::now();
  if (!state.origin) {
    state.origin = now;
  }
  state.open.push_back(state.events.size());
  state.events.push_back(Event{
      std::string(info.name), info.opt_level, now - *state.origin, {}, state.open.size() - 1});
  state.finished.push_back(false);
}

CTIR_INLINE void TraceInstrument::run_after_pass(const IRModule&, const PassInfo& info) const {
  close(info.name, false);
}

CTIR_INLINE void TraceInstrument::run_after_pass_failed(const IRModule&, const PassInfo& info,
                                                        const Error&) const {
  close(info.name, true);
}

CTIR_INLINE void TraceInstrument::close(std::string_view name, bool failed) const {
  State& state = *state_;
  std::size_t match = state.open.size();
  while (match > 0 && state.events[state.open[match - 1]].name != name) {
    --match;
  }
  if (match == 0) {
    return; // begun before this instrument was in the context: nothing to trace
  }
  const clock::duration now = clock::now() - *state.origin;
  // Runs begun after the matching one and never closed (an instrument threw between their
  // hooks) end now too, as failed.
  while (state.open.size() >= match) {
    const std::size_t index = state.open.back();
    state.open.pop_back();
    Event& event = state.events[index];
    event.duration = now - event.start;
    event.failed = failed || state.open.size() + 1 > match;
    state.finished[index] = true;
  }
}

CTIR_INLINE std::vector<TraceInstrument::Event> TraceInstrument::events() const {
  std::vector<Event> done;
  for (std::size_t i = 0; i < state_->events.size(); ++i) {
    if (state_->finished[i]) {
      done.push_back(state_->events[i]);
    }
  }
  return done;
}

CTIR_INLINE void TraceInstrument::clear() const noexcept {
  state_->events.clear();
  state_->finished.clear();
  state_->open.clear();
  state_->origin.reset();
}

CTIR_INLINE std::string TraceInstrument::json() const {
  std::string out = "{\"traceEvents\":[";
  bool first = true;
  for (const Event& event : events()) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"name\":" + detail::json_string(event.name) +
           ",\"cat\":\"pass\",\"ph\":\"X\",\"ts\":" + detail::trace::microseconds(event.start) +
           ",\"dur\":" + detail::trace::microseconds(event.duration) +
           ",\"pid\":1,\"tid\":1,\"args\":{\"opt_level\":" + std::to_string(event.opt_level) +
           (event.failed ? ",\"failed\":true" : "") + "}}";
  }
  out += "\n],\"displayTimeUnit\":\"ms\"}\n";
  return out;
}

} // namespace ctir
