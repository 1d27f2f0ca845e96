// Definitions of <ctir/pass/detail/line_diff.hpp>.
#pragma once

#include <ctir/pass/detail/line_diff.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::detail {

CTIR_INLINE std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t newline = text.find('\n', begin);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

CTIR_INLINE std::vector<LineEdit> LineDiffer::run(std::span<const std::string_view> before,
                                                  std::span<const std::string_view> after) {
  intern(before, after);
  matches_.clear();
  std::vector<Box> work{
      {0, static_cast<std::ptrdiff_t>(a_.size()), 0, static_cast<std::ptrdiff_t>(b_.size())}};
  while (!work.empty()) {
    Box box = work.back();
    work.pop_back();
    // Common lines at both ends are always kept (some shortest script keeps them).
    while (box.a0 < box.a1 && box.b0 < box.b1 && a_[idx(box.a0)] == b_[idx(box.b0)]) {
      matches_.emplace_back(idx(box.a0++), idx(box.b0++));
    }
    while (box.a0 < box.a1 && box.b0 < box.b1 && a_[idx(box.a1 - 1)] == b_[idx(box.b1 - 1)]) {
      matches_.emplace_back(idx(--box.a1), idx(--box.b1));
    }
    if (box.a0 == box.a1 || box.b0 == box.b1) {
      continue; // only removals or only insertions left
    }
    Snake snake;
    if (!middle_snake(box, snake)) {
      continue; // too different: no line of this box is kept
    }
    for (std::ptrdiff_t k = 0; snake.x + k < snake.u; ++k) {
      matches_.emplace_back(idx(snake.x + k), idx(snake.y + k));
    }
    work.push_back({box.a0, snake.x, box.b0, snake.y});
    work.push_back({snake.u, box.a1, snake.v, box.b1});
  }
  std::sort(matches_.begin(), matches_.end());
  return script(before.size(), after.size());
}

CTIR_INLINE void LineDiffer::intern(std::span<const std::string_view> before,
                                    std::span<const std::string_view> after) {
  std::unordered_map<std::string_view, std::uint32_t> ids;
  const auto id_of = [&ids](std::string_view line) {
    return ids.emplace(line, static_cast<std::uint32_t>(ids.size())).first->second;
  };
  a_.clear();
  b_.clear();
  for (std::string_view line : before) {
    a_.push_back(id_of(line));
  }
  for (std::string_view line : after) {
    b_.push_back(id_of(line));
  }
}

CTIR_INLINE bool LineDiffer::middle_snake(const Box& box, Snake& snake) {
  const std::ptrdiff_t n = box.a1 - box.a0;
  const std::ptrdiff_t m = box.b1 - box.b0;
  const std::ptrdiff_t delta = n - m;
  const bool odd = (delta % 2) != 0;
  const std::ptrdiff_t max_d = std::min((n + m + 1) / 2, max_edits_per_box);
  // forward_[k]: the furthest x reached on diagonal k (= x - y) from the top-left;
  // backward_[k]: the same from the bottom-right, in reversed coordinates, where
  // diagonal k corresponds to the forward diagonal delta - k.
  const std::ptrdiff_t offset = max_d + 1;
  forward_.assign(idx(2 * offset + 1), 0);
  backward_.assign(idx(2 * offset + 1), 0);
  const auto fwd = [&](std::ptrdiff_t k) -> std::ptrdiff_t& { return forward_[idx(k + offset)]; };
  const auto bwd = [&](std::ptrdiff_t k) -> std::ptrdiff_t& { return backward_[idx(k + offset)]; };
  const auto a = [&](std::ptrdiff_t i) { return a_[idx(box.a0 + i)]; };
  const auto b = [&](std::ptrdiff_t j) { return b_[idx(box.b0 + j)]; };
  for (std::ptrdiff_t d = 0; d <= max_d; ++d) {
    for (std::ptrdiff_t k = -d; k <= d; k += 2) {
      std::ptrdiff_t x =
          (k == -d || (k != d && fwd(k - 1) < fwd(k + 1))) ? fwd(k + 1) : fwd(k - 1) + 1;
      std::ptrdiff_t y = x - k;
      const std::ptrdiff_t x0 = x;
      const std::ptrdiff_t y0 = y;
      while (x < n && y < m && a(x) == b(y)) {
        ++x;
        ++y;
      }
      fwd(k) = x;
      const std::ptrdiff_t kb = delta - k;
      // With an odd delta the paths meet on a forward step: the backward search has
      // done d - 1 steps.
      if (odd && kb >= -(d - 1) && kb <= d - 1 && x >= n - bwd(kb)) {
        snake = {box.a0 + x0, box.b0 + y0, box.a0 + x, box.b0 + y};
        return true;
      }
    }
    for (std::ptrdiff_t k = -d; k <= d; k += 2) {
      std::ptrdiff_t x =
          (k == -d || (k != d && bwd(k - 1) < bwd(k + 1))) ? bwd(k + 1) : bwd(k - 1) + 1;
      std::ptrdiff_t y = x - k;
      const std::ptrdiff_t x0 = x;
      const std::ptrdiff_t y0 = y;
      while (x < n && y < m && a(n - 1 - x) == b(m - 1 - y)) {
        ++x;
        ++y;
      }
      bwd(k) = x;
      const std::ptrdiff_t kf = delta - k;
      if (!odd && kf >= -d && kf <= d && fwd(kf) >= n - x) {
        snake = {box.a0 + n - x, box.b0 + m - y, box.a0 + n - x0, box.b0 + m - y0};
        return true;
      }
    }
  }
  return false;
}

CTIR_INLINE std::vector<LineEdit> LineDiffer::script(std::size_t before_size,
                                                     std::size_t after_size) const {
  std::vector<LineEdit> edits;
  edits.reserve(before_size + after_size - matches_.size());
  std::size_t i = 0;
  std::size_t j = 0;
  const auto flush_to = [&](std::size_t i_end, std::size_t j_end) {
    for (; i < i_end; ++i) {
      edits.push_back({LineEdit::Kind::remove, i, j});
    }
    for (; j < j_end; ++j) {
      edits.push_back({LineEdit::Kind::insert, i, j});
    }
  };
  for (const auto& [mi, mj] : matches_) {
    flush_to(mi, mj);
    edits.push_back({LineEdit::Kind::keep, i++, j++});
  }
  flush_to(before_size, after_size);
  return edits;
}

CTIR_INLINE std::vector<LineEdit> diff_lines(std::span<const std::string_view> before,
                                             std::span<const std::string_view> after) {
  LineDiffer differ;
  return differ.run(before, after);
}

CTIR_INLINE std::string unified_diff(std::string_view before, std::string_view after,
                                     std::string_view before_label, std::string_view after_label,
                                     std::size_t context) {
  const std::vector<std::string_view> a = split_lines(before);
  const std::vector<std::string_view> b = split_lines(after);
  const std::vector<LineEdit> edits = diff_lines(a, b);
  std::string out;
  const auto range = [](std::size_t first, std::size_t count) {
    // diff -u: 1-based first line, ",count" unless it is 1; an empty range names the line
    // before it.
    std::string text = std::to_string(count == 0 ? first : first + 1);
    if (count != 1) {
      text += ',' + std::to_string(count);
    }
    return text;
  };
  std::size_t e = 0;
  while (e < edits.size()) {
    if (edits[e].kind == LineEdit::Kind::keep) {
      ++e;
      continue;
    }
    if (out.empty()) {
      out += "--- ";
      out += before_label;
      out += "\n+++ ";
      out += after_label;
      out += '\n';
    }
    // A hunk: from `context` lines before this change to `context` lines after the last
    // change that is separated from the previous one by at most 2 * context kept lines.
    const std::size_t first = e >= context ? e - context : 0;
    std::size_t last = e; // one past the last change of the hunk
    std::size_t scan = e;
    while (scan < edits.size()) {
      if (edits[scan].kind != LineEdit::Kind::keep) {
        last = ++scan;
        continue;
      }
      std::size_t run = scan;
      while (run < edits.size() && edits[run].kind == LineEdit::Kind::keep) {
        ++run;
      }
      if (run == edits.size() || run - scan > 2 * context) {
        break;
      }
      scan = run;
    }
    const std::size_t end = std::min(edits.size(), last + context);
    std::size_t removed = 0;
    std::size_t inserted = 0;
    for (std::size_t k = first; k < end; ++k) {
      removed += edits[k].kind != LineEdit::Kind::insert ? 1U : 0U;
      inserted += edits[k].kind != LineEdit::Kind::remove ? 1U : 0U;
    }
    out += "@@ -" + range(edits[first].before, removed) + " +" +
           range(edits[first].after, inserted) + " @@\n";
    for (std::size_t k = first; k < end; ++k) {
      switch (edits[k].kind) {
      case LineEdit::Kind::keep:
        out += ' ';
        out += a[edits[k].before];
        break;
      case LineEdit::Kind::remove:
        out += '-';
        out += a[edits[k].before];
        break;
      case LineEdit::Kind::insert:
        out += '+';
        out += b[edits[k].after];
        break;
      }
      out += '\n';
    }
    e = end;
  }
  return out;
}

} // namespace ctir::detail
