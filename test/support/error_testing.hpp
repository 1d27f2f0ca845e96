// Checking errors in tests: the message a call throws, and looking for words in it.
#pragma once

#include <ctir/core/error.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace ctir::testing {

/// The what() of the ctir::Error `f` throws ("<no error>" if it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const Error& error) {
    return error.what();
  }
  return "<no error>";
}

/// Whether `part` occurs in `text`.
inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

} // namespace ctir::testing
