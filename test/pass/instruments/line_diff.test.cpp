// Tests of ctir/pass/detail/line_diff.hpp: the Myers line diff and unified-diff rendering.
#include <ctir/pass/detail/line_diff.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using ctir::detail::diff_lines;
using ctir::detail::LineEdit;
using ctir::detail::split_lines;
using ctir::detail::unified_diff;

namespace {

std::vector<std::string_view> views(const std::vector<std::string>& lines) {
  return {lines.begin(), lines.end()};
}

/// The length of a longest common subsequence, by dynamic programming (the reference).
std::size_t lcs_length(const std::vector<std::string_view>& a,
                       const std::vector<std::string_view>& b) {
  std::vector<std::vector<std::size_t>> table(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      table[i][j] =
          a[i] == b[j] ? table[i + 1][j + 1] + 1 : std::max(table[i + 1][j], table[i][j + 1]);
    }
  }
  return table[0][0];
}

/// Checks that `edits` is a valid script from a to b: it walks both in order, keeps only
/// equal lines, and rebuilds b. Returns the number of kept lines.
std::size_t check_script(const std::vector<std::string_view>& a,
                         const std::vector<std::string_view>& b,
                         const std::vector<LineEdit>& edits) {
  std::size_t i = 0;
  std::size_t j = 0;
  std::size_t kept = 0;
  std::vector<std::string_view> rebuilt;
  for (const LineEdit& edit : edits) {
    REQUIRE(edit.before == i);
    REQUIRE(edit.after == j);
    switch (edit.kind) {
    case LineEdit::Kind::keep:
      REQUIRE(a[i] == b[j]);
      rebuilt.push_back(a[i]);
      ++i;
      ++j;
      ++kept;
      break;
    case LineEdit::Kind::remove:
      ++i;
      break;
    case LineEdit::Kind::insert:
      rebuilt.push_back(b[j]);
      ++j;
      break;
    }
  }
  CHECK(i == a.size());
  CHECK(j == b.size());
  CHECK(rebuilt == b);
  return kept;
}

std::vector<std::string> random_lines(std::mt19937& rng, std::size_t count, int alphabet) {
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < count; ++k) {
    lines.push_back(std::string(1, static_cast<char>('a' + pick(rng))));
  }
  return lines;
}

} // namespace

TEST_CASE("split_lines drops the newlines, and a final newline does not start an empty line") {
  CHECK(split_lines("").empty());
  CHECK(split_lines("a\nb\n") == std::vector<std::string_view>{"a", "b"});
  CHECK(split_lines("a\nb") == std::vector<std::string_view>{"a", "b"});
  CHECK(split_lines("\n\n") == std::vector<std::string_view>{"", ""});
}

TEST_CASE("the diff of equal texts keeps every line and renders as nothing") {
  const std::vector<std::string_view> lines{"a", "b", "c"};
  const std::vector<LineEdit> edits = diff_lines(lines, lines);
  CHECK(check_script(lines, lines, edits) == 3);
  CHECK(unified_diff("a\nb\nc\n", "a\nb\nc\n", "x", "y").empty());
  CHECK(unified_diff("", "", "x", "y").empty());
}

TEST_CASE("the diff is a shortest edit script: it keeps a longest common subsequence (law, over "
          "random texts)") {
  std::mt19937 rng(20240531);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = rng() % 40;
    const std::size_t m = rng() % 40;
    const int alphabet = 2 + static_cast<int>(rng() % 5);
    const std::vector<std::string> a_lines = random_lines(rng, n, alphabet);
    const std::vector<std::string> b_lines = random_lines(rng, m, alphabet);
    const std::vector<std::string_view> a = views(a_lines);
    const std::vector<std::string_view> b = views(b_lines);
    CAPTURE(round);
    CHECK(check_script(a, b, diff_lines(a, b)) == lcs_length(a, b));
  }
}

TEST_CASE("a unified diff has headers, hunks with 1-based ranges, and context lines") {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n";
  const std::string after = "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\n11\n12\n13\n15\n16\n";
  CHECK(unified_diff(before, after, "before P", "after P", 2) == "--- before P\n"
                                                                 "+++ after P\n"
                                                                 "@@ -2,5 +2,5 @@\n"
                                                                 " 2\n"
                                                                 " 3\n"
                                                                 "-4\n"
                                                                 "+four\n"
                                                                 " 5\n"
                                                                 " 6\n"
                                                                 "@@ -12,4 +12,4 @@\n"
                                                                 " 12\n"
                                                                 " 13\n"
                                                                 "-14\n"
                                                                 " 15\n"
                                                                 "+16\n");
  // Changes at most 2 * context lines apart share a hunk; farther apart, they do not.
  CHECK(unified_diff("a\nb\nc\nd\n", "A\nb\nc\nD\n", "x", "y", 1) ==
        "--- x\n+++ y\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n-d\n+D\n");
  CHECK(unified_diff("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n", "x", "y", 1) ==
        "--- x\n+++ y\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -4,2 +4,2 @@\n d\n-e\n+E\n");
}

TEST_CASE("a unified diff writes empty ranges as the line before them and counts of one bare") {
  CHECK(unified_diff("", "a\nb\n", "x", "y") == "--- x\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  CHECK(unified_diff("a\nb\n", "", "x", "y") == "--- x\n+++ y\n@@ -1,2 +0,0 @@\n-a\n-b\n");
  CHECK(unified_diff("a\n", "b\n", "x", "y") == "--- x\n+++ y\n@@ -1 +1 @@\n-a\n+b\n");
  CHECK(unified_diff("a\nb\n", "a\nx\nb\n", "x", "y", 0) == "--- x\n+++ y\n@@ -1,0 +2 @@\n+x\n");
}

TEST_CASE("a few changes in a long text are found quickly and exactly") {
  std::vector<std::string> a_lines;
  for (int k = 0; k < 20000; ++k) {
    a_lines.push_back("line " + std::to_string(k));
  }
  std::vector<std::string> b_lines = a_lines;
  b_lines[100] = "changed";
  b_lines.erase(b_lines.begin() + 5000);
  b_lines.insert(b_lines.begin() + 15000, "inserted");
  const std::vector<std::string_view> a = views(a_lines);
  const std::vector<std::string_view> b = views(b_lines);
  const std::vector<LineEdit> edits = diff_lines(a, b);
  CHECK(check_script(a, b, edits) == 20000 - 2);
  CHECK(edits.size() == 20000 + 2);
}

TEST_CASE("texts with nothing in common past the edit budget still get a correct script") {
  std::vector<std::string> a_lines;
  std::vector<std::string> b_lines;
  for (int k = 0; k < 20000; ++k) {
    a_lines.push_back("a" + std::to_string(k));
    b_lines.push_back(k % 2 == 0 ? "a" + std::to_string(k) : "b" + std::to_string(k));
  }
  const std::vector<std::string_view> a = views(a_lines);
  const std::vector<std::string_view> b = views(b_lines);
  const std::size_t kept = check_script(a, b, diff_lines(a, b));
  CHECK(kept >= 1); // at least the common first line
  CHECK(kept <= 10000);
}
