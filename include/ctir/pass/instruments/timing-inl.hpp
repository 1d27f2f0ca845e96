// Definitions of <ctir/pass/instruments/timing.hpp>.
#pragma once

#include <ctir/pass/instruments/timing.hpp>

#include <ctir/pass/instruments/trace.hpp>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

namespace detail::timing {

CTIR_INLINE std::string format_row(std::string_view name, std::string_view total,
                                   std::string_view self, std::string_view percent_total,
                                   std::string_view percent_parent) {
  std::string row(name);
  const std::size_t name_width = 30;
  row.append(row.size() < name_width ? name_width - row.size() : 1, ' ');
  const auto right = [&row](std::string_view text, std::size_t width) {
    row.append(text.size() < width ? width - text.size() : 1, ' ');
    row += text;
  };
  right(total, 12);
  right(self, 12);
  right(percent_total, 9);
  right(percent_parent, 9);
  row += '\n';
  return row;
}

CTIR_INLINE std::string milliseconds(TimingInstrument::clock::duration d) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3f ms",
                std::chrono::duration<double, std::milli>(d).count());
  return buffer;
}

CTIR_INLINE std::string percent(TimingInstrument::clock::duration part,
                                TimingInstrument::clock::duration whole) {
  char buffer[32];
  const double ratio = whole.count() > 0 ? 100.0 * static_cast<double>(part.count()) /
                                               static_cast<double>(whole.count())
                                         : 100.0;
  std::snprintf(buffer, sizeof(buffer), "%.1f%%", ratio);
  return buffer;
}

CTIR_INLINE void render_record(const TimingInstrument::Record& record, std::size_t depth,
                               TimingInstrument::clock::duration all,
                               TimingInstrument::clock::duration parent, std::string& out) {
  std::string label(2 * depth, ' ');
  label += record.name;
  if (record.failed) {
    label += " (failed)";
  }
  out += format_row(label, milliseconds(record.total), milliseconds(record.self()),
                    percent(record.total, all), percent(record.total, parent));
  for (const TimingInstrument::Record& child : record.children) {
    render_record(child, depth + 1, all, record.total, out);
  }
}

CTIR_INLINE std::string json_number(double value, const char* format) {
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

CTIR_INLINE double ratio(TimingInstrument::clock::duration part,
                         TimingInstrument::clock::duration whole) {
  return whole.count() > 0
             ? 100.0 * static_cast<double>(part.count()) / static_cast<double>(whole.count())
             : 100.0;
}

CTIR_INLINE std::string ms_number(TimingInstrument::clock::duration d) {
  return json_number(std::chrono::duration<double, std::milli>(d).count(), "%.6f");
}

CTIR_INLINE void render_json_record(const TimingInstrument::Record& record, std::size_t depth,
                                    TimingInstrument::clock::duration all,
                                    TimingInstrument::clock::duration parent, std::string& out) {
  const std::string indent(2 * depth + 4, ' ');
  out += indent + "{\"pass\":" + detail::json_string(record.name) +
         ",\"total\":" + ms_number(record.total) + ",\"self\":" + ms_number(record.self()) +
         ",\"percent_total\":" + json_number(ratio(record.total, all), "%.2f") +
         ",\"percent_parent\":" + json_number(ratio(record.total, parent), "%.2f") +
         ",\"failed\":" + (record.failed ? "true" : "false") + ",\"children\":[";
  if (record.children.empty()) {
    out += "]}";
    return;
  }
  for (std::size_t i = 0; i < record.children.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    render_json_record(record.children[i], depth + 1, all, record.total, out);
  }
  out += "\n" + indent + "]}";
}

} // namespace detail::timing

struct TimingInstrument::State {
  struct Open {
    Record record;
    clock::time_point start;
  };
  std::vector<Record> roots;
  std::vector<Open> open;
};

CTIR_INLINE TimingInstrument::clock::duration TimingInstrument::Record::self() const noexcept {
  clock::duration nested{};
  for (const Record& child : children) {
    nested += child.total;
  }
  return total > nested ? total - nested : clock::duration{};
}

CTIR_INLINE TimingInstrument::TimingInstrument() : state_(std::make_shared<State>()) {}

CTIR_INLINE void TimingInstrument::run_before_pass(const IRModule&, const PassInfo& info) const {
  state_->open.push_back({Record{std::string(info.name), {}, false, {}}, clock::now()});
}

CTIR_INLINE void TimingInstrument::run_after_pass(const IRModule&, const PassInfo& info) const {
  close(info.name, false);
}

CTIR_INLINE void TimingInstrument::run_after_pass_failed(const IRModule&, const PassInfo& info,
                                                         const Error&) const {
  close(info.name, true);
}

CTIR_INLINE const std::vector<TimingInstrument::Record>&
TimingInstrument::records() const noexcept {
  return state_->roots;
}

CTIR_INLINE void TimingInstrument::clear() const noexcept {
  state_->roots.clear();
  state_->open.clear();
}

CTIR_INLINE std::string TimingInstrument::render() const {
  if (state_->roots.empty()) {
    return {};
  }
  clock::duration all{};
  for (const Record& root : state_->roots) {
    all += root.total;
  }
  std::string out = detail::timing::format_row("pass", "total", "self", "%total", "%parent");
  for (const Record& root : state_->roots) {
    detail::timing::render_record(root, 0, all, all, out);
  }
  return out;
}

CTIR_INLINE std::string TimingInstrument::render_json() const {
  clock::duration all{};
  for (const Record& root : state_->roots) {
    all += root.total;
  }
  std::string out = "{\"unit\":\"ms\",\"passes\":[";
  for (std::size_t i = 0; i < state_->roots.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    detail::timing::render_json_record(state_->roots[i], 0, all, all, out);
  }
  out += state_->roots.empty() ? "]}\n" : "\n]}\n";
  return out;
}

CTIR_INLINE void TimingInstrument::close(std::string_view name, bool failed) const {
  std::vector<State::Open>& open = state_->open;
  std::size_t match = open.size();
  while (match > 0 && open[match - 1].record.name != name) {
    --match;
  }
  if (match == 0) {
    return; // opened before this instrument entered the context: nothing to time
  }
  const clock::time_point now = clock::now();
  while (open.size() >= match) {
    State::Open finished = std::move(open.back());
    open.pop_back();
    finished.record.total = now - finished.start;
    finished.record.failed = failed || open.size() + 1 > match;
    std::vector<Record>& parent = open.empty() ? state_->roots : open.back().record.children;
    parent.push_back(std::move(finished.record));
  }
}

CTIR_INLINE TimingInstrument make_timing_instrument() { return TimingInstrument(); }

} // namespace ctir
