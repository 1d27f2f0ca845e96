// Name helpers for diagnostics: edit distance, "did you mean" suggestions, quoted lists.
#pragma once

#include <ctir/core/linkage.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::detail {

/// Case-insensitive Levenshtein distance; small inputs only (names, keys).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// How rank_names picks plausible typos: the two suggestion styles of ctir's messages.
struct NameRanking {
  /// A candidate is close when within max(2, length / threshold_divisor) edits.
  std::size_t threshold_divisor = 4;
  /// Also close: the same last dotted segment (`relu` for `nn.relu`), ranked at the threshold.
  bool namespaced_twins = false;
  /// Keep only candidates at most one edit worse than the best.
  bool within_one_of_best = true;
  /// Never suggest `name` itself.
  bool exclude_exact = false;
};

/// The candidates close to `name` under `ranking` (at most `limit`, best first, ties in
/// candidate order): the one matcher behind every "did you mean".
std::vector<std::string> rank_names(std::string_view name,
                                    const std::vector<std::string_view>& candidates,
                                    std::size_t limit, NameRanking ranking);

/// The candidates closest to `name` (at most `limit`, best first): plausible typos (within a
/// quarter of the name's length, or 2 edits) no more than one edit worse than the best.
std::vector<std::string> nearest_names(std::string_view name,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

/// `'a', 'b', 'c'` — names quoted and joined for a message.
std::string quoted_list(const std::vector<std::string>& names);

/// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
std::string quoted_alternatives(const std::vector<std::string>& names);

/// "; did you mean 'x' or 'y'?" (empty when there is no suggestion).
std::string did_you_mean(const std::vector<std::string>& suggestions);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/core/detail/names-inl.hpp>
#endif
