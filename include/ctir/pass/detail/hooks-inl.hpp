// Definitions of <ctir/pass/detail/hooks.hpp>.
#pragma once

#include <ctir/pass/detail/hooks.hpp>

#include <exception>
#include <string>
#include <string_view>

namespace ctir::detail {

CTIR_INLINE std::string current_exception_message() {
  try {
    throw;
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "unknown exception (not derived from std::exception)";
  }
}

CTIR_INLINE void rethrow_as_instrument_error(const std::string& instrument, std::string_view hook,
                                             std::string_view pass_name) {
  std::exception_ptr original = std::current_exception();
  try {
    throw;
  } catch (const InstrumentError&) {
    throw;
  } catch (...) {
    throw InstrumentError(instrument, std::string(hook), std::string(pass_name),
                          current_exception_message(), original);
  }
}

} // namespace ctir::detail
