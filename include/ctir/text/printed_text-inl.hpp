// Definitions of <ctir/text/printed_text.hpp>.
#pragma once

#include <ctir/text/printed_text.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ctir {

CTIR_INLINE std::optional<TextRange> PrintedText::range_of(const Object* node) const {
  std::optional<TextRange> first;
  for_each_range(node, [&](TextRange range) {
    if (!first || before(range, *first)) {
      first = range;
    }
  });
  return first;
}

CTIR_INLINE std::vector<TextRange> PrintedText::ranges_of(const Object* node) const {
  std::vector<TextRange> result;
  for_each_range(node, [&](TextRange range) { result.push_back(range); });
  std::sort(result.begin(), result.end(), before);
  return result;
}

CTIR_INLINE std::string PrintedText::underline(const Object* node, std::size_t context) const {
  const std::optional<TextRange> range = range_of(node);
  return range ? underline(*range, context) : std::string();
}

CTIR_INLINE std::string PrintedText::underline(TextRange range, std::size_t context) const {
  const std::string& t = text_;
  auto line_start = [&](std::size_t pos) {
    const std::size_t newline = pos == 0 ? std::string::npos : t.rfind('\n', pos - 1);
    return newline == std::string::npos ? std::size_t{0} : newline + 1;
  };
  auto line_end = [&](std::size_t pos) {
    const std::size_t newline = t.find('\n', pos);
    return newline == std::string::npos ? t.size() : newline;
  };
  const std::size_t last_char = range.end > range.begin ? range.end - 1 : range.begin;
  std::size_t start = line_start(range.begin);
  for (std::size_t k = 0; k < context && start > 0; ++k) {
    start = line_start(start - 1);
  }
  std::size_t stop = line_end(last_char);
  for (std::size_t k = 0; k < context && stop + 1 < t.size(); ++k) {
    stop = line_end(stop + 1);
  }
  std::string out;
  std::size_t begin = start;
  while (true) {
    const std::size_t end = line_end(begin);
    out.append(t, begin, end - begin);
    out += '\n';
    // Underline the part of this line inside the range; a line that starts inside
    // the range is underlined from its first non-blank character.
    std::size_t from = std::max(begin, range.begin);
    if (from > range.begin) {
      while (from < end && t[from] == ' ') {
        ++from;
      }
    }
    const std::size_t to = std::min(end, range.end);
    if (from < to || (range.begin == range.end && begin <= range.begin && range.begin <= end)) {
      out.append(from - begin, ' ');
      out.append(std::max<std::size_t>(to - std::min(from, to), 1), '^');
      out += '\n';
    }
    if (end >= stop || end + 1 >= t.size()) {
      break;
    }
    begin = end + 1;
  }
  return out;
}

CTIR_INLINE void PrintedText::index() {
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const auto id = static_cast<std::uint32_t>(i + 1);
    Chain& chain = *chains_.try_emplace(records_[i].node).first;
    if (chain.first == 0) {
      chain.first = id;
    } else {
      records_[chain.last - 1].next = id;
    }
    chain.last = id;
  }
}

} // namespace ctir
