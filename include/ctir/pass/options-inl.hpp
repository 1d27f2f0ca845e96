// Definitions of <ctir/pass/options.hpp>.
#pragma once

#include <ctir/pass/options.hpp>

#include <ctir/core/detail/names.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

CTIR_INLINE void throw_bad_pass_option_value(std::string_view pass_name, std::string_view name,
                                             std::string_view type, std::string_view text) {
  throw PipelineError("ctir: option '" + std::string(name) + "' of pass '" +
                      std::string(pass_name) + "' has type " + std::string(type) + "; '" +
                      std::string(text) + "' is not a valid " + std::string(type));
}

CTIR_INLINE void throw_unknown_pass_option(std::string_view pass_name, std::string_view name,
                                           const std::vector<std::string>& names) {
  throw PipelineError("ctir: pass '" + std::string(pass_name) + "' has no option '" +
                      std::string(name) + "'" + did_you_mean(nearest_names(name, names)) +
                      (names.empty() ? std::string(" (it takes no options)")
                                     : " (its options: " + quoted_list(names) + ")"));
}

} // namespace ctir::detail
