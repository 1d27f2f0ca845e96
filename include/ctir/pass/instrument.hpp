// Pass instruments: hooks around pass contexts and pass runs, static (any type) or erased.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <concepts>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ctir {

/// The hooks an instrument may have (all optional; a missing hook does nothing, a missing
/// `should_run` says yes). Calls happen in this order:
///
///     enter_pass_ctx()                             when its PassContext is entered
///     for every pass run:
///       should_run(mod, info) -> bool              every instrument is asked (AND); skipped
///                                                  for passes the context lists as required
///       run_before_pass(mod, info)                 if all said yes
///       <the pass>
///       run_after_pass(new_mod, info)              if the pass returned
///       run_after_pass_failed(mod, info, error)    if the pass threw (mod is its input)
///     exit_pass_ctx()                              when the context is left
///
/// Hooks of several instruments run in the order the instruments were given. An
/// exception from a hook stops that round of hooks and reaches the caller as an
/// InstrumentError (see PassContext for what happens to the context).
template <class I>
concept has_enter_pass_ctx = requires(I& i) {
  i.enter_pass_ctx();
};
template <class I>
concept has_exit_pass_ctx = requires(I& i) {
  i.exit_pass_ctx();
};
template <class I>
concept has_should_run = requires(I& i, const IRModule& mod, const PassInfo& info) {
  { i.should_run(mod, info) } -> std::convertible_to<bool>;
};
template <class I>
concept has_run_before_pass = requires(I& i, const IRModule& mod, const PassInfo& info) {
  i.run_before_pass(mod, info);
};
template <class I>
concept has_run_after_pass = requires(I& i, const IRModule& mod, const PassInfo& info) {
  i.run_after_pass(mod, info);
};
template <class I>
concept has_run_after_pass_failed = requires(I& i, const IRModule& mod, const PassInfo& info,
                                             const Error& error) {
  i.run_after_pass_failed(mod, info, error);
};

/// A class with at least one instrument hook.
template <class I>
concept has_instrument_hook = has_enter_pass_ctx<I> || has_exit_pass_ctx<I> || has_should_run<I> ||
    has_run_before_pass<I> || has_run_after_pass<I> || has_run_after_pass_failed<I>;

/// A static pass instrument: a copyable class with at least one instrument hook.
// copy_constructible comes last: it looks at converting constructors, which may in turn ask
// whether something is an instrument (Instrument itself has one).
template <class I>
concept pass_instrument =
    std::is_class_v<I> && has_instrument_hook<I> && std::copy_constructible<I>;

namespace detail {

template <class I>
std::string instrument_name(const I& instrument) {
  if constexpr (requires { std::string(instrument.name()); }) {
    return std::string(instrument.name());
  } else {
    static_cast<void>(instrument);
    return "instrument";
  }
}

// The hook calls, with the defaults for missing hooks.
template <class I>
void call_enter_pass_ctx(I& i) {
  if constexpr (has_enter_pass_ctx<I>) {
    i.enter_pass_ctx();
  }
}
template <class I>
void call_exit_pass_ctx(I& i) {
  if constexpr (has_exit_pass_ctx<I>) {
    i.exit_pass_ctx();
  }
}
template <class I>
bool call_should_run(I& i, const IRModule& mod, const PassInfo& info) {
  if constexpr (has_should_run<I>) {
    return static_cast<bool>(i.should_run(mod, info));
  } else {
    return true;
  }
}
template <class I>
void call_run_before_pass(I& i, const IRModule& mod, const PassInfo& info) {
  if constexpr (has_run_before_pass<I>) {
    i.run_before_pass(mod, info);
  }
}
template <class I>
void call_run_after_pass(I& i, const IRModule& mod, const PassInfo& info) {
  if constexpr (has_run_after_pass<I>) {
    i.run_after_pass(mod, info);
  }
}
template <class I>
void call_run_after_pass_failed(I& i, const IRModule& mod, const PassInfo& info,
                                const Error& error) {
  if constexpr (has_run_after_pass_failed<I>) {
    i.run_after_pass_failed(mod, info, error);
  }
}

/// The identity of a type without RTTI: the address of this variable.
template <class T>
inline constexpr char type_tag = 0;

struct InstrumentConcept {
  InstrumentConcept() = default;
  InstrumentConcept(const InstrumentConcept&) = delete;
  InstrumentConcept& operator=(const InstrumentConcept&) = delete;
  virtual ~InstrumentConcept();
  virtual std::string name() const = 0;
  virtual void enter_pass_ctx() = 0;
  virtual void exit_pass_ctx() = 0;
  virtual bool should_run(const IRModule& mod, const PassInfo& info) = 0;
  virtual void run_before_pass(const IRModule& mod, const PassInfo& info) = 0;
  virtual void run_after_pass(const IRModule& mod, const PassInfo& info) = 0;
  virtual void run_after_pass_failed(const IRModule& mod, const PassInfo& info,
                                     const Error& error) = 0;
  virtual void* target(const void* tag) noexcept = 0;
};

/// Holds the instrument (Owning) or points at one that lives elsewhere.
template <class I, bool Owning>
class InstrumentModel final : public InstrumentConcept {
public:
  explicit InstrumentModel(I instrument) requires Owning : instrument_(std::move(instrument)) {}
  explicit InstrumentModel(I& instrument) requires(!Owning) : instrument_(&instrument) {}

  std::string name() const override { return instrument_name(get()); }
  void enter_pass_ctx() override { call_enter_pass_ctx(get()); }
  void exit_pass_ctx() override { call_exit_pass_ctx(get()); }
  bool should_run(const IRModule& mod, const PassInfo& info) override {
    return call_should_run(get(), mod, info);
  }
  void run_before_pass(const IRModule& mod, const PassInfo& info) override {
    call_run_before_pass(get(), mod, info);
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) override {
    call_run_after_pass(get(), mod, info);
  }
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info,
                             const Error& error) override {
    call_run_after_pass_failed(get(), mod, info, error);
  }
  void* target(const void* tag) noexcept override {
    return tag == &type_tag<I> ? static_cast<void*>(&get()) : nullptr;
  }

private:
  I& get() const noexcept {
    if constexpr (Owning) {
      return instrument_;
    } else {
      return *instrument_;
    }
  }
  mutable std::conditional_t<Owning, I, I*> instrument_;
};

} // namespace detail

/// A pass instrument chosen at run time: any static instrument, type-erased.
///
/// Copies share the instrument (like a Python object), so an instrument that collects
/// data (timing, say) can be read back through the handle kept by the caller or through
/// `target<T>()`.
class Instrument {
public:
  /// Wraps (a copy of) `instrument`.
  template <class I>
  requires(!std::same_as<std::decay_t<I>, Instrument> && pass_instrument<std::decay_t<I>>)
      Instrument(
          I&& instrument) // NOLINT(google-explicit-constructor): lists of instruments read well
      : self_(std::make_shared<detail::InstrumentModel<std::decay_t<I>, true>>(
            std::forward<I>(instrument))) {}

  /// An Instrument that calls `instrument` in place; it must outlive every copy.
  template <pass_instrument I>
  static Instrument reference(I& instrument) {
    return Instrument(std::make_shared<detail::InstrumentModel<I, false>>(instrument));
  }

  std::string name() const;
  void enter_pass_ctx() const;
  void exit_pass_ctx() const;
  bool should_run(const IRModule& mod, const PassInfo& info) const;
  void run_before_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error) const;

  /// The wrapped instrument if it is a T, else null.
  template <class T>
  T* target() const noexcept {
    return static_cast<T*>(self_->target(&detail::type_tag<T>));
  }
  /// Whether both handles share one instrument.
  bool same_as(const Instrument& other) const noexcept { return self_ == other.self_; }

private:
  explicit Instrument(std::shared_ptr<detail::InstrumentConcept> self);
  std::shared_ptr<detail::InstrumentConcept> self_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instrument-inl.hpp>
#endif
