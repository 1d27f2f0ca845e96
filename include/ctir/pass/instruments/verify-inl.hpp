// Definitions of <ctir/pass/instruments/verify.hpp>.
#pragma once

#include <ctir/pass/instruments/verify.hpp>

#include <ctir/text/printer.hpp>

#include <string>
#include <utility>
#include <vector>

namespace ctir {

CTIR_INLINE WellFormedError::WellFormedError(std::string message,
                                             std::vector<WellFormedDiagnostic> diagnostics,
                                             std::string pass_name)
    : NodeError(diagnostics.empty() ? ObjectRef() : diagnostics.front().node, message),
      diagnostics_(std::move(diagnostics)), pass_name_(std::move(pass_name)) {}

namespace detail::well_formed {

/// The error message for `diagnostics`: `headline`, each diagnostic on its own line, and
/// the printed module with an offending node underlined.
CTIR_INLINE std::string describe(const std::string& headline, const IRModule& mod,
                                 const std::vector<WellFormedDiagnostic>& diagnostics) {
  std::string message = headline + " (" + std::to_string(diagnostics.size()) +
                        (diagnostics.size() == 1 ? " problem" : " problems") + "):";
  for (const WellFormedDiagnostic& diagnostic : diagnostics) {
    message += "\n  " + diagnostic.str();
  }
  // A variable prints at each of its sites and its text cannot tell a second definition
  // from the first: underline the first problem that is not a duplicate definition.
  for (const WellFormedDiagnostic& diagnostic : diagnostics) {
    if (diagnostic.kind == WellFormedDiagnostic::Kind::duplicate_definition ||
        !diagnostic.node.defined()) {
      continue;
    }
    try {
      const std::string marked = print_with_ranges(mod).underline(diagnostic.node.get(), 2);
      if (!marked.empty()) {
        message += "\n" + diagnostic.location + " in the printed module:\n" + marked;
      }
    } catch (const Error&) {
      static_cast<void>(0); // a module the text format cannot print: the paths must do
    }
    break;
  }
  return message;
}

} // namespace detail::well_formed

CTIR_INLINE void check_well_formed(const IRModule& mod, WellFormedOptions options) {
  std::vector<WellFormedDiagnostic> diagnostics = verify_well_formed(mod, options);
  if (!diagnostics.empty()) {
    std::string message =
        detail::well_formed::describe("ctir: the module is not well-formed", mod, diagnostics);
    throw WellFormedError(std::move(message), std::move(diagnostics));
  }
}

CTIR_INLINE VerifyWellFormedInstrument::VerifyWellFormedInstrument(VerifyWellFormedOptions options)
    : options_(options) {}

CTIR_INLINE void VerifyWellFormedInstrument::exit_pass_ctx() noexcept { verified_.reset(); }

CTIR_INLINE void VerifyWellFormedInstrument::run_before_pass(const IRModule& mod,
                                                             const PassInfo& info) {
  if (options_.check_input) {
    verify(mod, info,
           "ctir: the module given to pass '" + std::string(info.name) +
               "' is not well-formed, so it was broken before that pass ran");
  }
}

CTIR_INLINE void VerifyWellFormedInstrument::run_after_pass(const IRModule& mod,
                                                            const PassInfo& info) {
  verify(mod, info, "ctir: pass '" + std::string(info.name) + "' broke the IR");
}

CTIR_INLINE void VerifyWellFormedInstrument::verify(const IRModule& mod, const PassInfo& info,
                                                    const std::string& headline) {
  if (verified_ && verified_->same_as(mod)) {
    return;
  }
  std::vector<WellFormedDiagnostic> diagnostics = verify_well_formed(mod, options_.verifier);
  if (!diagnostics.empty()) {
    std::string message = detail::well_formed::describe(headline, mod, diagnostics);
    throw WellFormedError(std::move(message), std::move(diagnostics), std::string(info.name));
  }
  // Kept (not just its address) so that the node cannot be freed and its address reused,
  // and cannot be changed in place, since a shared module is copied on write.
  verified_ = mod;
}

} // namespace ctir
