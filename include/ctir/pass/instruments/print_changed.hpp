// The print-changed instrument: after a pass that changed the module, a diff of its text.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instruments/print_ir.hpp>

#include <cstddef>
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
/// LLVM's -print-changed=diff. Prints to the standard error stream, or to a stream that
/// must outlive the instrument.
class PrintChangedInstrument {
public:
  explicit PrintChangedInstrument();
  explicit PrintChangedInstrument(std::ostream& out, PrintChangedOptions options = {});

  static std::string_view name() noexcept { return "PrintChanged"; }

  void exit_pass_ctx() noexcept;
  void run_before_pass(const IRModule& mod, const PassInfo& info);
  void run_after_pass(const IRModule& mod, const PassInfo& info);
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error);

  const PrintChangedOptions& options() const noexcept { return options_; }

private:
  struct Open {
    std::string name;
    IRModule input;
    bool nested = false; ///< whether other passes ran inside this one
  };

  /// Takes the innermost open run of `name` (runs opened after it and never closed, when an
  /// instrument threw between their hooks, are dropped). False if there is none.
  bool close(std::string_view name, Open& run);

  PrintChangedOptions options_;
  std::ostream* out_; ///< null: the standard error stream
  std::vector<Open> open_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/print_changed-inl.hpp>
#endif
