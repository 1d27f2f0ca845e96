// Definitions of <ctir/pass/instruments/print_changed.hpp>.
#pragma once

#include <ctir/pass/instruments/print_changed.hpp>

#include <ctir/pass/detail/line_diff.hpp>
#include <ctir/pass/detail/open_runs.hpp>

#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace ctir {

CTIR_INLINE PrintChangedInstrument::PrintChangedInstrument() : out_(nullptr) {}

CTIR_INLINE PrintChangedInstrument::PrintChangedInstrument(std::ostream& out,
                                                           PrintChangedOptions options)
    : options_(std::move(options)), out_(&out) {}

CTIR_INLINE void PrintChangedInstrument::exit_pass_ctx() noexcept { open_.clear(); }

CTIR_INLINE void PrintChangedInstrument::run_before_pass(const IRModule& mod,
                                                         const PassInfo& info) {
  if (!open_.empty()) {
    open_.back().nested = true;
  }
  open_.push_back({std::string(info.name), mod, false});
}

CTIR_INLINE void PrintChangedInstrument::run_after_pass(const IRModule& mod, const PassInfo& info) {
  Open run;
  if (!close(info.name, run)) {
    return; // started before this instrument was installed
  }
  if (!options_.passes.matches(info.name) || (run.nested && options_.passes.is_all()) ||
      mod.same_as(run.input)) {
    return;
  }
  const std::string before = detail::module_text_or_reason(run.input);
  const std::string after = detail::module_text_or_reason(mod);
  const std::string pass_name(info.name);
  const std::string diff = detail::unified_diff(before, after, "before " + pass_name,
                                                "after " + pass_name, options_.context);
  if (diff.empty()) {
    return; // a new module object with the same text
  }
  detail::write_and_flush(out_, "# IR changed by pass " + pass_name + "\n" + diff);
}

CTIR_INLINE void PrintChangedInstrument::run_after_pass_failed(const IRModule&,
                                                               const PassInfo& info, const Error&) {
  Open run;
  close(info.name, run);
}

CTIR_INLINE bool PrintChangedInstrument::close(std::string_view name, Open& run) {
  return detail::take_open_run(open_, name, run);
}

} // namespace ctir
