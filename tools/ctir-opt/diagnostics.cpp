// How ctir-opt reports errors and pass diagnostics on stderr.
#include "diagnostics.hpp"

#include <ctir/pass/error.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/text/diagnostic.hpp>
#include <ctir/text/printer.hpp>

#include <optional>

namespace ctir_opt {
namespace {

std::string with_newline(std::string text) {
  if (text.empty() || text.back() != '\n') {
    text += '\n';
  }
  return text;
}

/// The message of the WellFormedError behind an instrument error, if it is one.
std::optional<std::string> well_formed_message(const std::exception_ptr& original) {
  if (!original) {
    return std::nullopt;
  }
  try {
    std::rethrow_exception(original);
  } catch (const ctir::WellFormedError& error) {
    return std::string(error.what());
  } catch (...) {
    return std::nullopt;
  }
}

std::string print_node_in(const ctir::ObjectRef& root, const ctir::ObjectRef& node) {
  return ctir::print_with_ranges(root).underline(node.get(), 2);
}

} // namespace

std::string_view without_library_prefix(std::string_view message) {
  constexpr std::string_view prefix = "ctir: ";
  if (message.starts_with(prefix)) {
    message.remove_prefix(prefix.size());
  }
  return message;
}

std::string format_error(std::string_view message) {
  return with_newline("ctir-opt: error: " + std::string(without_library_prefix(message)));
}

std::string describe_exception(const std::exception& error) {
  if (dynamic_cast<const ctir::ParseError*>(&error) != nullptr) {
    return with_newline(error.what());
  }
  if (const auto* pass_error = dynamic_cast<const ctir::PassError*>(&error)) {
    std::string text = "ctir-opt: error in pass " + pass_error->pass_name() + ": " +
                       std::string(without_library_prefix(pass_error->message()));
    if (!pass_error->location().empty()) {
      text += '\n' + pass_error->location();
    }
    return with_newline(std::move(text));
  }
  if (const auto* instrument_error = dynamic_cast<const ctir::InstrumentError*>(&error)) {
    // A module that fails --verify-each: the verifier's report names the pass already.
    if (const std::optional<std::string> broken =
            well_formed_message(instrument_error->original())) {
      return format_error(*broken);
    }
    std::string text = "ctir-opt: error in instrument " + instrument_error->instrument() + " (" +
                       instrument_error->hook();
    if (!instrument_error->pass_name().empty()) {
      text += " of pass " + instrument_error->pass_name();
    }
    text += "): " + std::string(without_library_prefix(instrument_error->message()));
    return with_newline(std::move(text));
  }
  return format_error(error.what());
}

std::string format_diagnostic(const ctir::Diagnostic& diagnostic) {
  std::string text = "ctir-opt: ";
  switch (diagnostic.severity) {
  case ctir::Diagnostic::Severity::note:
    text += "note: ";
    break;
  case ctir::Diagnostic::Severity::warning:
    text += "warning: ";
    break;
  case ctir::Diagnostic::Severity::error:
    text += "error: ";
    break;
  }
  if (!diagnostic.source.empty()) {
    text += diagnostic.source + ": ";
  }
  text += without_library_prefix(diagnostic.message);
  if (const std::string span = ctir::detail::node_span(diagnostic.node); !span.empty()) {
    text += " (at " + span + ")";
  }
  return with_newline(std::move(text));
}

void install_pass_error_printer() { ctir::set_pass_error_printer(&print_node_in); }

} // namespace ctir_opt
