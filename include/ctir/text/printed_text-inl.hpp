// Definitions of <ctir/text/printed_text.hpp>.
#pragma once

#include <ctir/text/printed_text.hpp>

#include <ctir/core/type_info.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
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

CTIR_INLINE std::vector<TextRange>
PrintedText::ranges_inside(const Object* child, TextRange parent,
                           const std::vector<const Object*>& others) const {
  const auto inside = [](TextRange inner, TextRange outer) {
    return outer.begin <= inner.begin && inner.end <= outer.end;
  };
  std::vector<TextRange> excluded;
  for (const Object* other : others) {
    for_each_range(other, [&](TextRange range) {
      if (inside(range, parent) && range != parent) {
        excluded.push_back(range);
      }
    });
  }
  std::vector<TextRange> result;
  for_each_range(child, [&](TextRange range) {
    if (!inside(range, parent) || range == parent) {
      return;
    }
    for (const TextRange& other : excluded) {
      if (inside(range, other)) {
        return;
      }
    }
    result.push_back(range);
  });
  std::sort(result.begin(), result.end(), before);
  return result;
}

CTIR_INLINE std::optional<TextRange> PrintedText::range_at(const ObjectRef& root,
                                                           const AccessPath& path) const {
  const Object* node = root.get();
  if (node == nullptr) {
    return std::nullopt;
  }
  std::optional<TextRange> found = range_of(node);
  // The range the next step looks inside; the whole text when the root itself is not
  // recorded (a module prints its functions, not itself).
  TextRange within = found.value_or(TextRange{0, text_.size()});
  const std::span<const AccessPath::Step> steps = path.steps();
  for (std::size_t s = 0; s < steps.size() && node != nullptr; ++s) {
    if (steps[s].kind != AccessPath::Step::Kind::field) {
      return found;
    }
    const FieldInfo* field = nullptr;
    for (const FieldInfo& candidate : node->type_info().fields) {
      if (candidate.name == steps[s].name) {
        field = &candidate;
      }
    }
    if (field == nullptr || field->kind == FieldKind::value) {
      return found;
    }
    const Object* child = nullptr;
    if (field->kind == FieldKind::node) {
      child = field->get(*node, *field);
    } else {
      if (s + 1 == steps.size()) {
        return found; // the array itself: its owner is the nearest printed node
      }
      ++s;
      if (steps[s].kind != AccessPath::Step::Kind::index ||
          steps[s].index >= field->size(*node, *field)) {
        return found;
      }
      child = field->at(*node, *field, steps[s].index);
    }
    if (child == nullptr) {
      return found;
    }
    // The parent's other children bound the search; the same child at other positions
    // counts instead: the path's position among them picks the occurrence.
    std::vector<const Object*> others;
    std::size_t occurrence = 0;
    bool before_path = true;
    for (const FieldInfo& sibling : node->type_info().fields) {
      if (sibling.ignored() || sibling.kind == FieldKind::value) {
        continue;
      }
      const std::size_t count = sibling.kind == FieldKind::node ? 1 : sibling.size(*node, sibling);
      for (std::size_t i = 0; i < count; ++i) {
        const Object* item = sibling.kind == FieldKind::node ? sibling.get(*node, sibling)
                                                             : sibling.at(*node, sibling, i);
        const bool at_path =
            &sibling == field && (sibling.kind == FieldKind::node || i == steps[s].index);
        if (at_path) {
          before_path = false;
        } else if (item == child) {
          occurrence += before_path ? 1 : 0;
        } else if (item != nullptr) {
          others.push_back(item);
        }
      }
    }
    std::vector<TextRange> ranges = ranges_inside(child, within, others);
    if (ranges.empty()) {
      // The parent is also printed elsewhere: a shared value's binding, where its
      // operands are.
      for (const TextRange& range : ranges_of(node)) {
        ranges = ranges_inside(child, range, others);
        if (!ranges.empty()) {
          break;
        }
      }
    }
    if (ranges.empty()) {
      if (std::optional<TextRange> elsewhere = range_of(child)) {
        within = *elsewhere;
        found = elsewhere;
      }
    } else {
      within = ranges[std::min(occurrence, ranges.size() - 1)];
      found = within;
    }
    node = child;
  }
  return found;
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
