// Calling instrument hooks: an exception from a hook leaves as an InstrumentError naming it.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/instrument.hpp>

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ctir::detail {

/// The display name of an instrument, static or erased.
template <class I>
std::string display_name(const I& instrument) {
  if constexpr (std::is_same_v<std::remove_cv_t<I>, Instrument>) {
    return instrument.name();
  } else {
    return instrument_name(instrument);
  }
}

/// The message of the exception in flight (call from a catch block).
std::string current_exception_message();

/// Rethrows the exception in flight as an InstrumentError (unless it already is one).
[[noreturn]] void rethrow_as_instrument_error(const std::string& instrument, std::string_view hook,
                                              std::string_view pass_name);

/// Runs one hook call `f`; an exception leaves as an InstrumentError naming the hook.
template <class I, class F>
decltype(auto) guard_hook(const I& instrument, std::string_view hook, std::string_view pass_name,
                          F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (...) {
    rethrow_as_instrument_error(display_name(instrument), hook, pass_name);
  }
}

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/detail/hooks-inl.hpp>
#endif
