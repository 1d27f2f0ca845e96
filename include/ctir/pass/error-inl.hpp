// Definitions of <ctir/pass/error.hpp>.
#pragma once

#include <ctir/pass/error.hpp>

#include <ctir/ir/expr_base.hpp>

#include <atomic>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

namespace ctir {

CTIR_INLINE PassError::PassError(std::string pass_name, std::string message, std::string location,
                                 std::exception_ptr original)
    : Error(compose(pass_name, message, location)), pass_name_(std::move(pass_name)),
      message_(std::move(message)), location_(std::move(location)), original_(std::move(original)) {
}

CTIR_INLINE std::string PassError::compose(const std::string& pass_name, const std::string& message,
                                           const std::string& location) {
  std::string text = "Error in pass " + pass_name + ": " + message;
  if (!location.empty()) {
    text += '\n';
    text += location;
  }
  return text;
}

CTIR_INLINE InstrumentError::InstrumentError(std::string instrument, std::string hook,
                                             std::string pass_name, std::string message,
                                             std::exception_ptr original)
    : Error(compose(instrument, hook, pass_name, message)), instrument_(std::move(instrument)),
      hook_(std::move(hook)), pass_name_(std::move(pass_name)), message_(std::move(message)),
      original_(std::move(original)) {}

CTIR_INLINE std::string InstrumentError::compose(const std::string& instrument,
                                                 const std::string& hook,
                                                 const std::string& pass_name,
                                                 const std::string& message) {
  std::string text = "Error in instrument " + instrument + " (" + hook;
  if (!pass_name.empty()) {
    text += " of pass " + pass_name;
  }
  return text + "): " + message;
}

namespace detail {
CTIR_INLINE std::atomic<pass_error_printer_fn>& pass_error_printer_slot() noexcept {
  static std::atomic<pass_error_printer_fn> slot{nullptr};
  return slot;
}
} // namespace detail

CTIR_INLINE pass_error_printer_fn set_pass_error_printer(pass_error_printer_fn printer) noexcept {
  return detail::pass_error_printer_slot().exchange(printer);
}

namespace detail {

CTIR_INLINE std::string node_span(const ObjectRef& node) {
  const Span* span = nullptr;
  if (const auto* expr = node.as<ExprNode>()) {
    span = &expr->span;
  } else if (const auto* stmt = node.as<StmtNode>()) {
    span = &stmt->span;
  }
  return span != nullptr && span->defined() ? span->str() : std::string();
}

CTIR_INLINE std::string node_location(const ObjectRef& node, const ObjectRef& root) {
  if (!node.defined()) {
    return {};
  }
  std::string out;
  if (std::string span = node_span(node); !span.empty()) {
    out += "  at " + span;
  }
  if (pass_error_printer_fn printer = pass_error_printer_slot().load()) {
    std::string printed;
    try {
      printed = printer(root.defined() ? root : node, node);
    } catch (...) {
      // The report must not fail because the printer did; the message is still useful.
      printed.clear();
    }
    if (!printed.empty()) {
      if (!out.empty()) {
        out += '\n';
      }
      out += printed;
    }
  }
  return out;
}

CTIR_INLINE void rethrow_as_pass_error(std::string_view pass_name, const ObjectRef& root) {
  std::exception_ptr original = std::current_exception();
  try {
    throw;
  } catch (const PassError&) {
    throw;
  } catch (const InstrumentError&) {
    throw;
  } catch (const NodeError& error) {
    throw PassError(std::string(pass_name), error.what(), node_location(error.node(), root),
                    original);
  } catch (const std::exception& error) {
    throw PassError(std::string(pass_name), error.what(), {}, original);
  } catch (...) {
    throw PassError(std::string(pass_name), "unknown exception (not derived from std::exception)",
                    {}, original);
  }
}

} // namespace detail
} // namespace ctir
