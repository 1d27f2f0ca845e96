// The printer of the unified text format: modules, functions, expressions, statements, types.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/text/detail/print_map.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
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

/// Prints `module` in the text format, recording where each node's text lies.
PrintedText print_with_ranges(const IRModule& module);

/// Prints one node in the text format, recording where each node's text lies: a module
/// node; a function (a `def`/`prim` named by its name hint, ending with a newline like a
/// module; a graph function without a name prints as a closure `fn`, a tensor-level one
/// as `@main`); an expression (graph-level: its temporaries, then its value, without
/// braces); a statement (a SeqStmt as a `{ ... }` block) or a type. Only modules and
/// functions end with a newline.
///
/// Throws ctir::Error (a NodeError naming the node where there is one) for IR the format
/// cannot express: a null field that must be set, a dtype or a name the format has no
/// spelling for, a node type it has no syntax for.
PrintedText print_with_ranges(const ObjectRef& node);

/// Prints `module` in the text format: its functions in module order, separated by a
/// blank line, ending with a newline. Canonical and deterministic.
std::string print(const IRModule& module);

/// Prints one node in the text format (see print_with_ranges).
std::string print(const ObjectRef& node);

/// A node type print accepts: expressions, statements, types, module nodes, or any node
/// (checked when printed).
template <class T>
concept printable_node = std::derived_from<T, ExprNode> || std::derived_from<T, StmtNode> ||
    std::derived_from<T, TypeNode> || std::same_as<T, IRModuleNode> || std::same_as<T, Object>;

/// Writes the module's text.
std::ostream& operator<<(std::ostream& os, const IRModule& module);

/// Writes the node's text; a null Ref writes `null`, IR the format cannot express
/// writes `<cannot print: reason>` (streams are for people; use print to get the error).
template <printable_node T>
std::ostream& operator<<(std::ostream& os, const Ref<T>& node) {
  if (!node.defined()) {
    return os << "null";
  }
  try {
    return os << print(ObjectRef(node));
  } catch (const Error& error) {
    return os << "<cannot print: " << error.what() << '>';
  }
}

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/printer-inl.hpp>
#endif
