// PassContext: opt_level, required/disabled passes, typed config, diagnostics and instruments,
// with a thread-local stack of entered contexts.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/detail/hooks.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instrument.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace ctir {

/// A message a pass reports without failing (or before failing), about a node if any.
struct Diagnostic {
  enum class Severity { note, warning, error };
  Severity severity = Severity::error;
  std::string message;
  /// The node the message is about; may be null.
  ObjectRef node = {};
  /// The pass (or instrument) that reported it; may be empty.
  std::string source = {};
};

/// Called for every diagnostic a context receives (printing them, say).
using DiagnosticHandler = std::function<void(const Diagnostic&)>;

/// One `key = value` of a context's configuration.
struct ConfigSetting {
  std::string key;
  ConfigValue value;
};

/// The settings of a PassContext, for designated initialisers:
///
///     PassContext ctx{{.opt_level = 3, .disabled = {"EliminateCommonSubexpr"}}};
struct PassContextOptions {
  /// Sequentials run a pass only if this is at least the pass's opt_level.
  int opt_level = 2;
  /// Passes a sequential runs whatever their opt_level (and whose should_run is not asked).
  std::vector<std::string> required = {};
  /// Passes a sequential never runs (this wins over `required`).
  std::vector<std::string> disabled = {};
  /// Instruments, called in this order.
  std::vector<Instrument> instruments = {};
  /// Values of registered config keys; checked when the context is made.
  std::vector<ConfigSetting> config = {};
  DiagnosticHandler on_diagnostic = {};
};

class PassContext;
class PassContextScope;

namespace detail {
/// The innermost entered context of this thread (contexts link to the one they hide).
inline thread_local PassContext* current_context = nullptr;
struct context_access;

/// Diagnostics held back while a function pass runs one function on some thread, to be
/// emitted in function order afterwards (see run_function_tasks).
struct DiagnosticBuffer {
  const PassContext* context = nullptr;
  std::vector<Diagnostic> diagnostics;
};
/// Where this thread's diagnostics for `context` go instead of the context, if set.
inline thread_local DiagnosticBuffer* diagnostic_buffer = nullptr;
} // namespace detail

/// Everything a pass may consult while it runs, and the instruments around it.
///
/// A context is a plain object: entering it (`auto scope = ctx.enter();`) makes it
/// `PassContext::current()` on this thread until the scope ends; each thread starts at its
/// own default context. A context must outlive its scope and must not be entered twice at
/// once. Copies are independent (instruments are handles, so copies share instruments).
///
/// Instruments and exceptions, as in TVM:
/// - enter(): each instrument's enter_pass_ctx in order; if one throws, the ones already
///   entered are exited (in reverse), the context's instruments are cleared, the context is
///   not entered, and the error propagates.
/// - end of scope: the context is popped, then each exit_pass_ctx in order; if one throws,
///   the rest are skipped, the instruments are cleared, and the error propagates, unless
///   the scope ends because of another exception (then it is recorded as a diagnostic:
///   an exception never ends the program).
/// - override_instruments(new): exit_pass_ctx of the current instruments, then
///   enter_pass_ctx of the new ones; on an exception the list is left empty.
class PassContext {
public:
  PassContext() = default;
  /// A context with the given settings; throws ConfigError for a bad config entry.
  PassContext(PassContextOptions options); // NOLINT(google-explicit-constructor)
  /// Copies the settings and the runtime instruments; the copy is not entered and has no
  /// diagnostics yet.
  PassContext(const PassContext& other);
  PassContext(PassContext&& other);
  /// Takes the settings and runtime instruments of `other` (without calling any hook: use
  /// override_instruments to switch the instruments of an entered context).
  PassContext& operator=(const PassContext& other);
  PassContext& operator=(PassContext&& other);
  ~PassContext();

  /// The innermost entered context of this thread, or the thread's default context.
  static PassContext& current() noexcept;

  /// Enters the context (see the class comment for instrument calls); the returned scope
  /// leaves it. Throws Error if the context is already entered.
  [[nodiscard]] PassContextScope enter();
  /// Whether the context is entered (on some thread).
  bool entered() const noexcept { return entered_; }

  int opt_level() const noexcept { return opt_level_; }
  void set_opt_level(int opt_level) noexcept { opt_level_ = opt_level; }
  const std::vector<std::string>& required() const noexcept { return required_; }
  const std::vector<std::string>& disabled() const noexcept { return disabled_; }
  void set_required(std::vector<std::string> names);
  void set_disabled(std::vector<std::string> names);
  bool is_required(std::string_view name) const noexcept;
  bool is_disabled(std::string_view name) const noexcept;

  /// TVM's PassEnabled: disabled wins, then required, then `opt_level() >= info.opt_level`.
  /// Only sequentials consult it; calling a pass directly runs it.
  bool pass_enabled(const PassInfo& info) const noexcept {
    if (has_pass_lists_) [[unlikely]] {
      if (is_disabled(info.name)) {
        return false;
      }
      if (is_required(info.name)) {
        return true;
      }
    }
    return opt_level_ >= info.opt_level;
  }

  /// The instruments in call order (an InstrumentedPassContext's static ones first).
  const std::vector<Instrument>& instruments() const noexcept { return instruments_; }
  bool has_instruments() const noexcept { return has_instruments_; }
  /// Neither required/disabled lists nor instruments: a sequential's fast path.
  bool is_plain() const noexcept { return plain_; }
  /// How many leading instruments stand for static instruments of an
  /// InstrumentedPassContext (0 for a plain context, and once instruments were cleared).
  std::size_t static_instrument_count() const noexcept { return static_count_; }
  /// Replaces the runtime instruments: exit_pass_ctx of the old ones, then enter_pass_ctx
  /// of the new ones (whether or not the context is entered, as TVM does). On an
  /// exception the runtime instruments are cleared and the error propagates.
  void override_instruments(std::vector<Instrument> instruments);

  /// Calls `f(instrument)` for each instrument in order (the static layer's
  /// InstrumentedPassContext hides this with direct calls to its static instruments).
  template <class F>
  void for_each_instrument(F&& f) const {
    for_each_runtime_instrument(0, f);
  }
  /// Calls `f` for the instruments from position `first` on, refusing (in
  /// override_instruments) to change the list meanwhile.
  template <class F>
  void for_each_runtime_instrument(std::size_t first, F& f) const {
    if (first >= instruments_.size()) {
      return;
    }
    ++hook_depth_;
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{hook_depth_};
    for (std::size_t i = first; i < instruments_.size(); ++i) {
      f(instruments_[i]);
    }
  }
  /// Whether the context has required or disabled lists.
  bool has_pass_lists() const noexcept { return has_pass_lists_; }

  /// The value of config key `key` as a T: the one set in this context, else the
  /// registered default. Throws ConfigError if the key is unknown or is not a T.
  template <config_value_type T>
  T config(std::string_view key) const {
    if (const ConfigValue* value = find_config(key)) {
      return read_config<T>(key, *value);
    }
    return read_config<T>(key, PassConfigRegistry::global().lookup(key)->default_value);
  }
  template <config_value_type T>
  T config(ConfigKey<T> key) const {
    return config<T>(key.key);
  }
  /// The value set in this context for `key`, or null (the default is not consulted).
  const ConfigValue* find_config(std::string_view key) const noexcept;
  /// Sets `key`; throws ConfigError if it is not registered or `value` has the wrong type
  /// (integers convert to wider integers and to floating point).
  void set_config(std::string_view key, ConfigValue value);
  template <config_value_type T>
  void set_config(ConfigKey<T> key, T value) {
    set_config(key.key, ConfigValue(std::move(value)));
  }
  /// Sets `key` from text (a command line: `-c tensor.UnrollLoop.max_extent=4`).
  void set_config_from_string(std::string_view key, std::string_view text);
  /// The settings made in this context, in the order they were first set.
  const std::vector<ConfigSetting>& config_settings() const noexcept { return config_; }

  /// Records a diagnostic (thread-safe) and passes it to the handler, if any. While a
  /// function pass runs functions on several threads, the diagnostics of each function are
  /// held back and emitted, on the thread that runs the pass, in function order.
  void emit(Diagnostic diagnostic) const;
  void warning(std::string message, ObjectRef node = {}, std::string source = {}) const;
  void note(std::string message, ObjectRef node = {}, std::string source = {}) const;
  /// The diagnostics received so far, in order.
  std::vector<Diagnostic> diagnostics() const;
  void clear_diagnostics();
  void set_diagnostic_handler(DiagnosticHandler handler);

protected:
  /// Puts `views` (Instruments that refer to a derived context's static instruments) in
  /// front of the runtime instruments.
  void set_static_views(std::vector<Instrument> views);
  /// How many leading instruments are views of static instruments (0 once cleared).
  std::size_t static_count_ = 0;

private:
  friend class PassContextScope;
  friend struct detail::context_access;

  template <class T>
  static T read_config(std::string_view key, const ConfigValue& value) {
    if (!value.holds<T>()) {
      throw ConfigError("ctir: pass config option '" + std::string(key) + "' has type " +
                        std::string(value.type_name()) + ", but it was read as " +
                        std::string(config_traits<T>::name));
    }
    return value.get<T>();
  }
  std::vector<Instrument>::iterator runtime_instruments_begin() noexcept;
  std::vector<Instrument>::const_iterator runtime_instruments_begin() const noexcept;
  void update_flags() noexcept;
  void clear_instruments() noexcept;
  /// Records an exception that could not propagate (a hook failed during cleanup).
  void record_swallowed(const std::string& what) const noexcept;
  void enter_instruments();
  void exit_instruments(bool unwinding);
  void exit_scope(bool unwinding);
  void unlink() noexcept;

  int opt_level_ = 2;
  std::vector<std::string> required_;
  std::vector<std::string> disabled_;
  std::vector<Instrument> instruments_;
  std::vector<ConfigSetting> config_;
  DiagnosticHandler handler_;
  mutable std::mutex diagnostics_mutex_;
  mutable std::vector<Diagnostic> diagnostics_;
  bool has_pass_lists_ = false;
  bool has_instruments_ = false;
  bool plain_ = true;
  bool entered_ = false;
  PassContext* prev_ = nullptr;
  /// Depth of instrument hooks running for this context (override_instruments refuses
  /// to change the list under a running hook).
  mutable int hook_depth_ = 0;
};

/// The RAII scope of an entered PassContext; leaving it exits the context.
///
/// The destructor throws an exit_pass_ctx error only when no other exception is in
/// flight; `exit()` leaves the context early and always throws.
class [[nodiscard]] PassContextScope {
public:
  PassContextScope(const PassContextScope&) = delete;
  PassContextScope& operator=(const PassContextScope&) = delete;
  ~PassContextScope() noexcept(false);
  /// Leaves the context now (the destructor then does nothing).
  void exit();
  /// The entered context (null after exit()).
  PassContext* context() const noexcept { return ctx_; }

private:
  friend class PassContext;
  explicit PassContextScope(PassContext& ctx) noexcept;
  PassContext* ctx_;
  int uncaught_;
};

namespace detail {

/// What the pass runner needs from a context beyond its public interface.
struct context_access {
  static void record_swallowed(const PassContext& ctx, const std::string& what) noexcept;
};

inline PassContext& thread_default_context() noexcept {
  thread_local PassContext context;
  return context;
}

} // namespace detail

// Inline: a pipeline run without a context starts here, and a pipeline whose passes are
// all enabled makes no other call into the library.
inline PassContext& PassContext::current() noexcept {
  PassContext* top = detail::current_context;
  return top != nullptr ? *top : detail::thread_default_context();
}

/// A PassContext with instruments chosen at compile time (called directly, no virtual
/// call, when the context is passed to a pass by its own type), followed by runtime
/// instruments as in any PassContext:
///
///     InstrumentedPassContext ctx{{.opt_level = 3}, Recorder{log}};
///     mod = pipeline(mod, ctx);
///
/// Through a plain `PassContext&` (PassContext::current(), say) the static instruments
/// are still called, through Instrument views. A plain PassContext copy keeps only the
/// runtime instruments.
template <pass_instrument... Is>
class InstrumentedPassContext : public PassContext {
public:
  explicit InstrumentedPassContext(PassContextOptions options, Is... instruments)
      : PassContext(std::move(options)), statics_(std::move(instruments)...) {
    install_views();
  }
  explicit InstrumentedPassContext(Is... instruments) requires(sizeof...(Is) > 0)
      : InstrumentedPassContext(PassContextOptions{}, std::move(instruments)...) {}
  InstrumentedPassContext(const InstrumentedPassContext& other)
      : PassContext(other), statics_(other.statics_) {
    install_views();
  }
  InstrumentedPassContext(InstrumentedPassContext&& other)
      : PassContext(std::move(other)), statics_(std::move(other.statics_)) {
    install_views();
  }
  InstrumentedPassContext& operator=(const InstrumentedPassContext&) = delete;
  InstrumentedPassContext& operator=(InstrumentedPassContext&&) = delete;
  ~InstrumentedPassContext() = default;

  /// The I-th static instrument.
  template <std::size_t I>
  auto& instrument() const noexcept {
    return std::get<I>(statics_);
  }

  /// Static instruments first (direct calls; skipped once the instruments were cleared),
  /// then the runtime ones.
  template <class F>
  void for_each_instrument(F&& f) const {
    if (static_count_ != 0) {
      std::apply([&](auto&... instrument) { (f(instrument), ...); }, statics_);
    }
    this->for_each_runtime_instrument(static_count_, f);
  }

  /// Whether a failure hook may need the input of a failed pass.
  static constexpr bool has_failure_hooks = (has_run_after_pass_failed<Is> || ...);

private:
  void install_views() {
    std::vector<Instrument> views;
    views.reserve(sizeof...(Is));
    std::apply(
        [&](auto&... instrument) { (views.push_back(Instrument::reference(instrument)), ...); },
        statics_);
    set_static_views(std::move(views));
  }

  mutable std::tuple<Is...> statics_;
};

template <class... Is>
InstrumentedPassContext(PassContextOptions, Is...) -> InstrumentedPassContext<Is...>;

/// A context type: PassContext or a class derived from it (InstrumentedPassContext).
template <class C>
concept pass_context = std::derived_from<C, PassContext>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/context-inl.hpp>
#endif
