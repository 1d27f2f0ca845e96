// Name helpers for diagnostics: edit distance, "did you mean" suggestions, quoted lists.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// Case-insensitive Levenshtein distance; small inputs only (names, keys).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// The candidates closest to `name` (at most `limit`, best first): plausible typos (within a
/// quarter of the name's length, or 2 edits) no more than one edit worse than the best.
inline std::vector<std::string> nearest_names(std::string_view name,
                                              const std::vector<std::string>& candidates,
                                              std::size_t limit = 3) {
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 4);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(name, candidate);
    if (distance <= threshold) {
      scored.emplace_back(distance, candidate);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> result;
  for (std::size_t i = 0; i < scored.size() && i < limit && scored[i].first <= scored[0].first + 1;
       ++i) {
    result.push_back(std::move(scored[i].second));
  }
  return result;
}

/// `'a', 'b', 'c'` — names quoted and joined for a message.
inline std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) {
      out += ", ";
    }
    out += '\'';
    out += name;
    out += '\'';
  }
  return out;
}

/// "; did you mean 'x' or 'y'?" (empty when there is no suggestion).
inline std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) {
    return {};
  }
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) {
      out += i + 1 == suggestions.size() ? " or " : ", ";
    }
    out += '\'';
    out += suggestions[i];
    out += '\'';
  }
  out += '?';
  return out;
}

} // namespace ctir::detail
