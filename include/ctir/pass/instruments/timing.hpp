// The pass timing instrument: a tree of pass runs with total and self time, as a table.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <chrono>
#include <cstdio>
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
    clock::duration self() const noexcept {
      clock::duration nested{};
      for (const Record& child : children) {
        nested += child.total;
      }
      return total > nested ? total - nested : clock::duration{};
    }
  };

  TimingInstrument() : state_(std::make_shared<State>()) {}

  static std::string_view name() noexcept { return "PassTiming"; }

  void enter_pass_ctx() const noexcept {}
  void exit_pass_ctx() const noexcept { clear(); }
  void run_before_pass(const IRModule&, const PassInfo& info) const {
    state_->open.push_back({Record{std::string(info.name), {}, false, {}}, clock::now()});
  }
  void run_after_pass(const IRModule&, const PassInfo& info) const { close(info.name, false); }
  void run_after_pass_failed(const IRModule&, const PassInfo& info, const Error&) const {
    close(info.name, true);
  }

  /// The finished top-level runs, in order.
  const std::vector<Record>& records() const noexcept { return state_->roots; }
  /// Forgets every record.
  void clear() const noexcept {
    state_->roots.clear();
    state_->open.clear();
  }

  /// A table of the runs, nested by indentation; empty when nothing was recorded.
  ///
  ///     pass                              total        self   %total  %parent
  ///     sequential                     1.234 ms    0.010 ms   100.0%   100.0%
  ///       FoldConstant                 0.800 ms    0.800 ms    64.8%    64.8%
  std::string render() const {
    if (state_->roots.empty()) {
      return {};
    }
    clock::duration all{};
    for (const Record& root : state_->roots) {
      all += root.total;
    }
    std::string out = format_row("pass", "total", "self", "%total", "%parent");
    for (const Record& root : state_->roots) {
      render_record(root, 0, all, all, out);
    }
    return out;
  }

private:
  struct Open {
    Record record;
    clock::time_point start;
  };
  struct State {
    std::vector<Record> roots;
    std::vector<Open> open;
  };

  /// Ends the innermost open run of `name`. Runs opened after it and never closed (an
  /// instrument threw between their hooks) are closed first, as failed.
  void close(std::string_view name, bool failed) const {
    std::vector<Open>& open = state_->open;
    std::size_t match = open.size();
    while (match > 0 && open[match - 1].record.name != name) {
      --match;
    }
    if (match == 0) {
      return; // opened before this instrument entered the context: nothing to time
    }
    const clock::time_point now = clock::now();
    while (open.size() >= match) {
      Open finished = std::move(open.back());
      open.pop_back();
      finished.record.total = now - finished.start;
      finished.record.failed = failed || open.size() + 1 > match;
      std::vector<Record>& parent = open.empty() ? state_->roots : open.back().record.children;
      parent.push_back(std::move(finished.record));
    }
  }

  static std::string format_row(std::string_view name, std::string_view total,
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
  static std::string milliseconds(clock::duration d) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.3f ms",
                  std::chrono::duration<double, std::milli>(d).count());
    return buffer;
  }
  static std::string percent(clock::duration part, clock::duration whole) {
    char buffer[32];
    const double ratio = whole.count() > 0 ? 100.0 * static_cast<double>(part.count()) /
                                                 static_cast<double>(whole.count())
                                           : 100.0;
    std::snprintf(buffer, sizeof(buffer), "%.1f%%", ratio);
    return buffer;
  }
  static void render_record(const Record& record, std::size_t depth, clock::duration all,
                            clock::duration parent, std::string& out) {
    std::string label(2 * depth, ' ');
    label += record.name;
    if (record.failed) {
      label += " (failed)";
    }
    out += format_row(label, milliseconds(record.total), milliseconds(record.self()),
                      percent(record.total, all), percent(record.total, parent));
    for (const Record& child : record.children) {
      render_record(child, depth + 1, all, record.total, out);
    }
  }

  std::shared_ptr<State> state_;
};

/// A new timing instrument (for option lists: `{.instruments = {make_timing_instrument()}}`;
/// keep a copy to render it).
inline TimingInstrument make_timing_instrument() { return TimingInstrument(); }

} // namespace ctir
