// A line diff (Myers' O(ND) algorithm, in linear space) and its rendering as a unified diff.
#pragma once

#include <ctir/core/linkage.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// One line of an edit script that turns `before` into `after`.
struct LineEdit {
  enum class Kind : std::uint8_t { keep, remove, insert };
  Kind kind = Kind::keep;
  /// The line's index in `before` (keep, remove), or the number of `before` lines that
  /// precede it (insert).
  std::size_t before = 0;
  /// The line's index in `after` (keep, insert), or the number of `after` lines that
  /// precede it (remove).
  std::size_t after = 0;

  friend bool operator==(const LineEdit&, const LineEdit&) = default;
};

/// The lines of `text`, without their newlines; a final newline ends the last line rather
/// than starting an empty one ("a\nb\n" and "a\nb" both have two lines).
std::vector<std::string_view> split_lines(std::string_view text);

/// Myers' difference algorithm over interned lines, with the linear-space refinement: each
/// box of the edit graph is split at the middle snake of one of its shortest edit paths, and
/// the halves are solved in turn from an explicit work list (no recursion).
class LineDiffer {
public:
  /// Past this many edits in one box the box's lines are reported as all removed and all
  /// inserted: a correct but not minimal script, which bounds the time for texts that have
  /// almost nothing in common (the cost of a box is about (N+M) times its edit count).
  static constexpr std::ptrdiff_t max_edits_per_box = 4096;

  std::vector<LineEdit> run(std::span<const std::string_view> before,
                            std::span<const std::string_view> after);

private:
  struct Box {
    std::ptrdiff_t a0, a1, b0, b1;
  };
  /// A diagonal run of equal lines from (x, y) to (u, v), in absolute line positions.
  struct Snake {
    std::ptrdiff_t x = 0, y = 0, u = 0, v = 0;
  };

  static std::size_t idx(std::ptrdiff_t i) noexcept { return static_cast<std::size_t>(i); }

  void intern(std::span<const std::string_view> before, std::span<const std::string_view> after);

  /// Finds the middle snake of a shortest edit path through `box` (both sides non-empty,
  /// no common first or last line), searching forward from the top-left and backward from
  /// the bottom-right until the two searches overlap. False if the box needs more than
  /// max_edits_per_box edits.
  bool middle_snake(const Box& box, Snake& snake);

  /// The edit script from the kept pairs (sorted, increasing on both sides).
  std::vector<LineEdit> script(std::size_t before_size, std::size_t after_size) const;

  std::vector<std::uint32_t> a_;
  std::vector<std::uint32_t> b_;
  std::vector<std::pair<std::size_t, std::size_t>> matches_;
  std::vector<std::ptrdiff_t> forward_;
  std::vector<std::ptrdiff_t> backward_;
};

/// An edit script from `before` to `after` that keeps as many lines as possible (a longest
/// common subsequence, for boxes of up to LineDiffer::max_edits_per_box edits).
std::vector<LineEdit> diff_lines(std::span<const std::string_view> before,
                                 std::span<const std::string_view> after);

/// `before` and `after` as a unified diff (`---`/`+++` headers, then `@@ -l,n +l,n @@`
/// hunks with `context` unchanged lines around each change, lines prefixed with ` `, `-`
/// or `+`), as `diff -u` writes it. Empty when the texts have the same lines.
std::string unified_diff(std::string_view before, std::string_view after,
                         std::string_view before_label, std::string_view after_label,
                         std::size_t context = 3);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/detail/line_diff-inl.hpp>
#endif
