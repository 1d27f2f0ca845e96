// The text a printer produced, with the ranges at which each node was printed.
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/traverse/access_path.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ctir {

/// A range of printed text: byte offsets [begin, end).
struct TextRange {
  std::size_t begin;
  std::size_t end;

  friend bool operator==(const TextRange&, const TextRange&) = default;
};

namespace detail {
class Printer;

/// Indentation grows two spaces per level up to this depth and stays there: whitespace
/// is free in the format, and capping it keeps the text of IR nested a million levels
/// deep linear in size.
inline constexpr std::size_t max_indent_levels = 32;
} // namespace detail

/// Printed text together with where each node's text lies in it.
///
/// Nodes are identified by address: query with nodes of the IR that was printed, while
/// that IR is alive.
class PrintedText {
public:
  PrintedText() = default;

  /// The text.
  const std::string& text() const noexcept { return text_; }

  /// The first (leftmost) place `node` was printed, if it was.
  ///
  /// A function's range is its whole definition; a temporary's is its expression at the
  /// binding (`%0 = ` excluded); a variable's is its name at the site; a statement's
  /// includes its `;` or its block; a parenthesized operand's excludes the parentheses.
  std::optional<TextRange> range_of(const Object* node) const;
  template <ir_node T>
  std::optional<TextRange> range_of(const Ref<T>& node) const {
    return range_of(static_cast<const Object*>(node.get()));
  }

  /// Every place `node` was printed, left to right (a variable at each use, a
  /// temporary at its binding and at each `%N`).
  std::vector<TextRange> ranges_of(const Object* node) const;
  template <ir_node T>
  std::vector<TextRange> ranges_of(const Ref<T>& node) const {
    return ranges_of(static_cast<const Object*>(node.get()));
  }

  /// Where the node that `path` names in `root` (the printed IR) was printed: the place of
  /// that use, not the node's first range. A variable printed at its definition and at
  /// each use, or a node that occurs twice in one expression (`%b + %b`), is found at the
  /// occurrence the path leads to: each step narrows to the child's range inside its
  /// parent's, outside the other children's, and the k-th of several equal children is
  /// the k-th in the text. A step into a shared value printed as a temporary (`%0`)
  /// continues inside its binding. When the path's node was not printed (a type that is
  /// not written, a plain value), the nearest printed node on the path; nullopt when none
  /// was.
  std::optional<TextRange> range_at(const ObjectRef& root, const AccessPath& path) const;

  /// The lines holding the node's first range, each followed by a line that underlines
  /// the node with `^`, with up to `context` lines of text before and after; every
  /// line ends with a newline. Empty if the node was not printed.
  ///
  ///         %B[%i] = %A[%i] + 1f;
  ///                  ^^^^^^^^^^^
  std::string underline(const Object* node, std::size_t context = 2) const;
  template <ir_node T>
  std::string underline(const Ref<T>& node, std::size_t context = 2) const {
    return underline(static_cast<const Object*>(node.get()), context);
  }

  /// The same for one range of the text, such as one of ranges_of(node) (a variable at a
  /// use rather than at its definition).
  std::string underline(TextRange range, std::size_t context = 2) const;

private:
  friend class detail::Printer;
  struct Record {
    const Object* node;
    TextRange range;
    std::uint32_t next; ///< 1-based index of the node's next record; 0 ends the chain
  };
  /// 1-based indices of a node's first and last records.
  struct Chain {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
  };

  static bool before(const TextRange& a, const TextRange& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  }

  /// The ranges of `child` inside `parent` that lie outside every range of `others`, in
  /// text order.
  std::vector<TextRange> ranges_inside(const Object* child, TextRange parent,
                                       const std::vector<const Object*>& others) const;

  template <class F>
  void for_each_range(const Object* node, F&& f) const {
    const Chain* chain = chains_.find(node);
    for (std::uint32_t id = chain == nullptr ? 0 : chain->first; id != 0;
         id = records_[id - 1].next) {
      f(records_[id - 1].range);
    }
  }

  /// Links the records of each node into a chain: linear, where sorting them all
  /// would cost n log n.
  void index();

  std::string text_;
  std::vector<Record> records_;
  detail::PointerMap<Chain> chains_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/printed_text-inl.hpp>
#endif
