// The printer of the unified text format: modules, functions, expressions, statements, types.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/text/printed_text.hpp>

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
