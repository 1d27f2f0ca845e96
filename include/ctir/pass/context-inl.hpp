// Definitions of <ctir/pass/context.hpp>.
#pragma once

#include <ctir/pass/context.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <iterator>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

namespace detail {

CTIR_INLINE bool contains_name(const std::vector<std::string>& names,
                               std::string_view name) noexcept {
  return std::find(names.begin(), names.end(), name) != names.end();
}

CTIR_INLINE void context_access::record_swallowed(const PassContext& ctx,
                                                  const std::string& what) noexcept {
  ctx.record_swallowed(what);
}

} // namespace detail

CTIR_INLINE PassContext::PassContext(PassContextOptions options)
    : opt_level_(options.opt_level), required_(std::move(options.required)),
      disabled_(std::move(options.disabled)), instruments_(std::move(options.instruments)),
      handler_(std::move(options.on_diagnostic)) {
  update_flags();
  for (ConfigSetting& setting : options.config) {
    set_config(setting.key, std::move(setting.value));
  }
}

CTIR_INLINE PassContext::PassContext(const PassContext& other)
    : opt_level_(other.opt_level_), required_(other.required_), disabled_(other.disabled_),
      instruments_(other.runtime_instruments_begin(), other.instruments_.end()),
      config_(other.config_), handler_(other.handler_) {
  update_flags();
}

CTIR_INLINE PassContext::PassContext(PassContext&& other)
    : opt_level_(other.opt_level_), required_(std::move(other.required_)),
      disabled_(std::move(other.disabled_)), config_(std::move(other.config_)),
      handler_(std::move(other.handler_)) {
  instruments_.assign(std::make_move_iterator(other.runtime_instruments_begin()),
                      std::make_move_iterator(other.instruments_.end()));
  other.instruments_.erase(other.runtime_instruments_begin(), other.instruments_.end());
  update_flags();
  other.update_flags();
}

CTIR_INLINE PassContext& PassContext::operator=(const PassContext& other) {
  if (this != &other) {
    PassContext copy(other);
    *this = std::move(copy);
  }
  return *this;
}

CTIR_INLINE PassContext& PassContext::operator=(PassContext&& other) {
  if (this != &other) {
    opt_level_ = other.opt_level_;
    required_ = std::move(other.required_);
    disabled_ = std::move(other.disabled_);
    config_ = std::move(other.config_);
    handler_ = std::move(other.handler_);
    instruments_.erase(runtime_instruments_begin(), instruments_.end());
    instruments_.insert(instruments_.end(),
                        std::make_move_iterator(other.runtime_instruments_begin()),
                        std::make_move_iterator(other.instruments_.end()));
    other.instruments_.erase(other.runtime_instruments_begin(), other.instruments_.end());
    update_flags();
    other.update_flags();
  }
  return *this;
}

CTIR_INLINE PassContext::~PassContext() {
  // A context destroyed inside its scope (a bug in the caller) must not stay current.
  if (entered_) {
    unlink();
  }
}

CTIR_INLINE void PassContext::set_required(std::vector<std::string> names) {
  required_ = std::move(names);
  update_flags();
}

CTIR_INLINE void PassContext::set_disabled(std::vector<std::string> names) {
  disabled_ = std::move(names);
  update_flags();
}

CTIR_INLINE bool PassContext::is_required(std::string_view name) const noexcept {
  return detail::contains_name(required_, name);
}

CTIR_INLINE bool PassContext::is_disabled(std::string_view name) const noexcept {
  return detail::contains_name(disabled_, name);
}

CTIR_INLINE const ConfigValue* PassContext::find_config(std::string_view key) const noexcept {
  for (const ConfigSetting& setting : config_) {
    if (setting.key == key) {
      return &setting.value;
    }
  }
  return nullptr;
}

CTIR_INLINE void PassContext::set_config(std::string_view key, ConfigValue value) {
  ConfigValue checked = PassConfigRegistry::global().validate(key, value);
  for (ConfigSetting& setting : config_) {
    if (setting.key == key) {
      setting.value = std::move(checked);
      return;
    }
  }
  config_.push_back({std::string(key), std::move(checked)});
}

CTIR_INLINE void PassContext::set_config_from_string(std::string_view key, std::string_view text) {
  set_config(key, PassConfigRegistry::global().parse(key, text));
}

CTIR_INLINE void PassContext::emit(Diagnostic diagnostic) const {
  if (detail::DiagnosticBuffer* buffer = detail::diagnostic_buffer;
      buffer != nullptr && buffer->context == this) {
    buffer->diagnostics.push_back(std::move(diagnostic));
    return;
  }
  DiagnosticHandler handler;
  {
    std::lock_guard lock(diagnostics_mutex_);
    diagnostics_.push_back(diagnostic);
    handler = handler_;
  }
  if (handler) {
    handler(diagnostic);
  }
}

CTIR_INLINE void PassContext::warning(std::string message, ObjectRef node,
                                      std::string source) const {
  emit({Diagnostic::Severity::warning, std::move(message), std::move(node), std::move(source)});
}

CTIR_INLINE void PassContext::note(std::string message, ObjectRef node, std::string source) const {
  emit({Diagnostic::Severity::note, std::move(message), std::move(node), std::move(source)});
}

CTIR_INLINE std::vector<Diagnostic> PassContext::diagnostics() const {
  std::lock_guard lock(diagnostics_mutex_);
  return diagnostics_;
}

CTIR_INLINE void PassContext::clear_diagnostics() {
  std::lock_guard lock(diagnostics_mutex_);
  diagnostics_.clear();
}

CTIR_INLINE void PassContext::set_diagnostic_handler(DiagnosticHandler handler) {
  std::lock_guard lock(diagnostics_mutex_);
  handler_ = std::move(handler);
}

CTIR_INLINE void PassContext::set_static_views(std::vector<Instrument> views) {
  instruments_.erase(instruments_.begin(), runtime_instruments_begin());
  static_count_ = views.size();
  instruments_.insert(instruments_.begin(), std::make_move_iterator(views.begin()),
                      std::make_move_iterator(views.end()));
  update_flags();
}

CTIR_INLINE std::vector<Instrument>::iterator PassContext::runtime_instruments_begin() noexcept {
  return instruments_.begin() + static_cast<std::ptrdiff_t>(static_count_);
}

CTIR_INLINE std::vector<Instrument>::const_iterator
PassContext::runtime_instruments_begin() const noexcept {
  return instruments_.begin() + static_cast<std::ptrdiff_t>(static_count_);
}

CTIR_INLINE void PassContext::update_flags() noexcept {
  has_pass_lists_ = !required_.empty() || !disabled_.empty();
  has_instruments_ = !instruments_.empty();
  plain_ = !has_pass_lists_ && !has_instruments_;
}

CTIR_INLINE void PassContext::clear_instruments() noexcept {
  instruments_.clear();
  static_count_ = 0;
  update_flags();
}

CTIR_INLINE void PassContext::record_swallowed(const std::string& what) const noexcept {
  try {
    emit({Diagnostic::Severity::error, what, {}, "pass infrastructure"});
  } catch (...) {
    // Nothing more can be done without ending the program.
    static_cast<void>(0);
  }
}

CTIR_INLINE void PassContext::unlink() noexcept {
  PassContext** link = &detail::current_context;
  while (*link != nullptr && *link != this) {
    link = &(*link)->prev_;
  }
  if (*link == this) {
    *link = prev_;
  }
  prev_ = nullptr;
  entered_ = false;
}

CTIR_INLINE void PassContext::enter_instruments() {
  std::size_t entered = 0;
  try {
    for (; entered < instruments_.size(); ++entered) {
      const Instrument& instrument = instruments_[entered];
      detail::guard_hook(instrument, "enter_pass_ctx", {}, [&] { instrument.enter_pass_ctx(); });
    }
  } catch (...) {
    // Undo the instruments already entered, latest first; their own failures are
    // recorded, since the enter error is the one to report.
    for (std::size_t i = entered; i-- > 0;) {
      try {
        instruments_[i].exit_pass_ctx();
      } catch (...) {
        record_swallowed("instrument " + instruments_[i].name() +
                         " failed in exit_pass_ctx after a failed enter: " +
                         detail::current_exception_message());
      }
    }
    clear_instruments();
    throw;
  }
}

CTIR_INLINE void PassContext::exit_instruments(bool unwinding) {
  try {
    for (const Instrument& instrument : instruments_) {
      detail::guard_hook(instrument, "exit_pass_ctx", {}, [&] { instrument.exit_pass_ctx(); });
    }
  } catch (...) {
    clear_instruments();
    if (!unwinding) {
      throw;
    }
    record_swallowed(detail::current_exception_message() +
                     " (while leaving a PassContext because of another exception)");
  }
}

CTIR_INLINE PassContextScope PassContext::enter() {
  if (entered_) {
    throw Error("ctir: this PassContext is already entered; leave it first, or enter a copy");
  }
  enter_instruments();
  prev_ = detail::current_context;
  detail::current_context = this;
  entered_ = true;
  return PassContextScope(*this);
}

CTIR_INLINE void PassContext::exit_scope(bool unwinding) {
  unlink();
  exit_instruments(unwinding);
}

CTIR_INLINE void PassContext::override_instruments(std::vector<Instrument> instruments) {
  if (hook_depth_ > 0) {
    throw Error("ctir: override_instruments was called from inside an instrument hook of the "
                "same PassContext; change the instruments between pass runs");
  }
  const auto first = static_cast<std::ptrdiff_t>(static_count_);
  try {
    for (auto it = instruments_.begin() + first; it != instruments_.end(); ++it) {
      const Instrument& instrument = *it;
      detail::guard_hook(instrument, "exit_pass_ctx", {}, [&] { instrument.exit_pass_ctx(); });
    }
  } catch (...) {
    instruments_.erase(instruments_.begin() + first, instruments_.end());
    update_flags();
    throw;
  }
  instruments_.erase(instruments_.begin() + first, instruments_.end());
  instruments_.insert(instruments_.end(), std::make_move_iterator(instruments.begin()),
                      std::make_move_iterator(instruments.end()));
  update_flags();
  std::size_t entered = static_count_;
  try {
    for (; entered < instruments_.size(); ++entered) {
      const Instrument& instrument = instruments_[entered];
      detail::guard_hook(instrument, "enter_pass_ctx", {}, [&] { instrument.enter_pass_ctx(); });
    }
  } catch (...) {
    for (std::size_t i = entered; i-- > static_count_;) {
      try {
        instruments_[i].exit_pass_ctx();
      } catch (...) {
        record_swallowed("instrument " + instruments_[i].name() +
                         " failed in exit_pass_ctx after a failed enter: " +
                         detail::current_exception_message());
      }
    }
    instruments_.erase(instruments_.begin() + first, instruments_.end());
    update_flags();
    throw;
  }
}

CTIR_INLINE PassContextScope::PassContextScope(PassContext& ctx) noexcept
    : ctx_(&ctx), uncaught_(std::uncaught_exceptions()) {}

CTIR_INLINE PassContextScope::~PassContextScope() noexcept(false) {
  if (PassContext* ctx = std::exchange(ctx_, nullptr)) {
    ctx->exit_scope(std::uncaught_exceptions() > uncaught_);
  }
}

CTIR_INLINE void PassContextScope::exit() {
  if (PassContext* ctx = std::exchange(ctx_, nullptr)) {
    ctx->exit_scope(false);
  }
}

} // namespace ctir
