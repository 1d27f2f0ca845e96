// Definitions of <ctir/core/detail/names.hpp>.
#pragma once

#include <ctir/core/detail/names.hpp>

#include <algorithm>
#include <cctype>
#include <utility>

namespace ctir::detail {

CTIR_INLINE std::size_t edit_distance(std::string_view a, std::string_view b) {
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

CTIR_INLINE std::vector<std::string> rank_names(std::string_view name,
                                                const std::vector<std::string_view>& candidates,
                                                std::size_t limit, NameRanking ranking) {
  const auto last_segment = [](std::string_view s) {
    const auto dot = s.rfind('.');
    return dot == std::string_view::npos ? s : s.substr(dot + 1);
  };
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / ranking.threshold_divisor);
  std::vector<std::pair<std::size_t, std::string_view>> scored;
  for (std::string_view candidate : candidates) {
    std::size_t distance = edit_distance(name, candidate);
    if (ranking.namespaced_twins && distance > threshold &&
        last_segment(name) == last_segment(candidate)) {
      distance = threshold; // namespaced twin: worth suggesting, after the close ones
    }
    if (distance <= threshold && !(ranking.exclude_exact && candidate == name)) {
      scored.emplace_back(distance, candidate);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> result;
  for (std::size_t i = 0; i < scored.size() && i < limit &&
                          (!ranking.within_one_of_best || scored[i].first <= scored[0].first + 1);
       ++i) {
    result.emplace_back(scored[i].second);
  }
  return result;
}

CTIR_INLINE std::vector<std::string> nearest_names(std::string_view name,
                                                   const std::vector<std::string>& candidates,
                                                   std::size_t limit) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return rank_names(name, views, limit, NameRanking{});
}

CTIR_INLINE std::string quoted_list(const std::vector<std::string>& names) {
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

CTIR_INLINE std::string quoted_alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i != 0) {
      out += i + 1 == names.size() ? " or " : ", ";
    }
    out += '\'';
    out += names[i];
    out += '\'';
  }
  return out;
}

CTIR_INLINE std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) {
    return {};
  }
  return "; did you mean " + quoted_alternatives(suggestions) + "?";
}

} // namespace ctir::detail
