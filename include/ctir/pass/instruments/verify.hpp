// Well-formedness checked by a pass instrument: after every pass (and the error that names
// the pass). The analysis itself is <ctir/ir/analysis/well_formed.hpp>.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/ir/analysis/well_formed.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

/// The module is not well-formed: the diagnostics, and the printed module with an offending
/// node underlined. `node()` is the node of the first diagnostic.
class WellFormedError : public NodeError {
public:
  WellFormedError(std::string message, std::vector<WellFormedDiagnostic> diagnostics,
                  std::string pass_name = {});
  const std::vector<WellFormedDiagnostic>& diagnostics() const noexcept { return diagnostics_; }
  /// The pass after (or before) which the module was checked; empty when checked directly.
  const std::string& pass_name() const noexcept { return pass_name_; }

private:
  std::vector<WellFormedDiagnostic> diagnostics_;
  std::string pass_name_;
};

/// Throws a WellFormedError listing the problems if `mod` is not well-formed.
void check_well_formed(const IRModule& mod, WellFormedOptions options = {});

/// Settings of VerifyWellFormedInstrument.
struct VerifyWellFormedOptions {
  /// Also verify the module a pass receives, unless it is the output of a pass already
  /// verified, so that a module broken before the pipeline is not blamed on its first pass.
  bool check_input = true;
  WellFormedOptions verifier = {};
};

/// Verifies the module after every pass (verify_well_formed) and throws a WellFormedError
/// naming the pass that broke it, with the problems and where they are; through a
/// PassContext the caller gets it as an InstrumentError (the WellFormedError is its
/// `original()`):
///
///     Error in instrument VerifyWellFormed (run_after_pass of pass Inline): ctir: pass
///     'Inline' broke the IR (1 problem):
///       @main.body.args[0]: variable '%y' is used but not defined (at <root>...)
///
/// A module is verified once: the output of one pass, given to the next, is not checked
/// again.
class VerifyWellFormedInstrument {
public:
  explicit VerifyWellFormedInstrument(VerifyWellFormedOptions options = {});

  static std::string_view name() noexcept { return "VerifyWellFormed"; }

  void exit_pass_ctx() noexcept;
  void run_before_pass(const IRModule& mod, const PassInfo& info);
  void run_after_pass(const IRModule& mod, const PassInfo& info);

  const VerifyWellFormedOptions& options() const noexcept { return options_; }

private:
  void verify(const IRModule& mod, const PassInfo& info, const std::string& headline);

  VerifyWellFormedOptions options_;
  std::optional<IRModule> verified_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/verify-inl.hpp>
#endif
