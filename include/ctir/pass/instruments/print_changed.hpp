// The print-changed instrument: after a pass that changed the module, a diff of its text.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/detail/line_diff.hpp>
#include <ctir/pass/detail/open_runs.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instruments/print_ir.hpp>

#include <cstddef>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

/// Settings of PrintChangedInstrument.
struct PrintChangedOptions {
  /// The passes to report on. With all(), a pass that ran other passes (a sequential) is
  /// not reported: the passes inside it already showed its changes.
  PassFilter passes = PassFilter::all();
  /// Unchanged lines shown around each change.
  std::size_t context = 3;
};

/// After each pass that changed the module, prints a unified diff of the module's text
/// before and after it; prints nothing for a pass that returned the module unchanged (the
/// same object, or one that prints the same):
///
///     # IR changed by pass FoldConstant
///     --- before FoldConstant
///     +++ after FoldConstant
///     @@ -1,3 +1,3 @@
///      def @main(%x: Tensor[(2), float32]) {
///     -  add(1f, 2f)
///     +  3f
///      }
///
/// LLVM's -print-changed=diff. The stream must outlive the instrument.
class PrintChangedInstrument {
public:
  explicit PrintChangedInstrument(std::ostream& out = std::cerr, PrintChangedOptions options = {})
      : options_(std::move(options)), out_(&out) {}

  static std::string_view name() noexcept { return "PrintChanged"; }

  void exit_pass_ctx() noexcept { open_.clear(); }
  void run_before_pass(const IRModule& mod, const PassInfo& info) {
    if (!open_.empty()) {
      open_.back().nested = true;
    }
    open_.push_back({std::string(info.name), mod, false});
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) {
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
    *out_ << "# IR changed by pass " + pass_name + "\n" + diff;
    out_->flush();
  }
  void run_after_pass_failed(const IRModule&, const PassInfo& info, const Error&) {
    Open run;
    close(info.name, run);
  }

  const PrintChangedOptions& options() const noexcept { return options_; }

private:
  struct Open {
    std::string name;
    IRModule input;
    bool nested = false; ///< whether other passes ran inside this one
  };

  /// Takes the innermost open run of `name` (runs opened after it and never closed, when an
  /// instrument threw between their hooks, are dropped). False if there is none.
  bool close(std::string_view name, Open& run) { return detail::take_open_run(open_, name, run); }

  PrintChangedOptions options_;
  std::ostream* out_;
  std::vector<Open> open_;
};

} // namespace ctir
