// The errors of the pass infrastructure: a pass failed, an instrument failed, a pipeline is wrong.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>

#include <exception>
#include <string>
#include <string_view>
#include <utility>

namespace ctir {

/// An exception thrown inside a pass, as it reaches the caller: `Error in pass <name>: ...`.
///
/// It is thrown once, by the innermost pass the exception crossed; enclosing sequentials
/// let it through unchanged. The original exception stays reachable through `original()`.
class PassError : public Error {
public:
  PassError(std::string pass_name, std::string message, std::string location = {},
            std::exception_ptr original = {});

  /// The name of the pass that threw.
  const std::string& pass_name() const noexcept { return pass_name_; }
  /// The original error message.
  const std::string& message() const noexcept { return message_; }
  /// Where the offending node is: its source span and/or the printed IR with the node
  /// marked; empty when the error named no node or the node has no location.
  const std::string& location() const noexcept { return location_; }
  /// The exception the pass threw.
  const std::exception_ptr& original() const noexcept { return original_; }

private:
  static std::string compose(const std::string& pass_name, const std::string& message,
                             const std::string& location);

  std::string pass_name_;
  std::string message_;
  std::string location_;
  std::exception_ptr original_;
};

/// An exception thrown by a pass instrument hook:
/// `Error in instrument <name> (<hook>[ of pass <pass>]): ...`.
class InstrumentError : public Error {
public:
  InstrumentError(std::string instrument, std::string hook, std::string pass_name,
                  std::string message, std::exception_ptr original = {});

  const std::string& instrument() const noexcept { return instrument_; }
  /// "enter_pass_ctx", "should_run", "run_before_pass", ...
  const std::string& hook() const noexcept { return hook_; }
  /// The pass the hook was called for (empty for enter_pass_ctx and exit_pass_ctx).
  const std::string& pass_name() const noexcept { return pass_name_; }
  const std::string& message() const noexcept { return message_; }
  const std::exception_ptr& original() const noexcept { return original_; }

private:
  static std::string compose(const std::string& instrument, const std::string& hook,
                             const std::string& pass_name, const std::string& message);

  std::string instrument_;
  std::string hook_;
  std::string pass_name_;
  std::string message_;
  std::exception_ptr original_;
};

/// A pipeline that cannot run: an unknown pass, a requirement no pass provides, a cycle
/// of requirements, a malformed pipeline string, a bad pass option.
class PipelineError : public Error {
public:
  using Error::Error;
};

/// A bad pass configuration: unknown key, wrong value type, conflicting registration.
class ConfigError : public Error {
public:
  using Error::Error;
};

/// Prints `node` inside `root` with the node marked (the text layer installs one; see
/// `set_pass_error_printer`). `root` is the pass's input module node when it is still
/// available, else the node itself.
using pass_error_printer_fn = std::string (*)(const ObjectRef& root, const ObjectRef& node);

/// Installs the function that prints the IR around a node named by a `NodeError` thrown
/// in a pass (the text layer does this, so that pass/ does not depend on text/).
/// Returns the previous printer; null removes it.
pass_error_printer_fn set_pass_error_printer(pass_error_printer_fn printer) noexcept;

namespace detail {

/// The source span of an expression or statement node, if it has one.
std::string node_span(const ObjectRef& node);

/// The location text of a PassError about `node`: "  at <span>" and the printed IR.
std::string node_location(const ObjectRef& node, const ObjectRef& root);

/// Rethrows the exception in flight as a PassError of pass `pass_name`, unless it already
/// is one (a nested pass reported it) or is an InstrumentError. Call from a catch block.
[[noreturn]] void rethrow_as_pass_error(std::string_view pass_name, const ObjectRef& root = {});

} // namespace detail
} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/error-inl.hpp>
#endif
