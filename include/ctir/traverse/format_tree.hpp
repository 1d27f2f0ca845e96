// format_tree: draws the node tree of any IR value, as TVM's format_tree shows it.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/ref.hpp>

#include <string>

namespace ctir {

/// Draws the tree of nodes under `root`, one node per line, in the style of
///
///     PrimFunc
///     ├── params[0]: A = Var(ty=TensorType(shape=[n], dtype=float32))
///     └── body: SeqStmt
///
/// Plain fields, variable uses, types and literals of another kind than their parent
/// (the bounds of a loop) print inside their parent's line; sub-expressions of an
/// expression and statements get their own lines; a variable at a definition site
/// shows its fields. A graph-level node reached through several uses is drawn once, as
/// `#0 = Call(...)` with its children, and every later use is the line `#0`, so a DAG's
/// drawing is linear in its distinct nodes. Works for every node type, including those
/// registered at run time.
std::string format_tree(const Object& root);

/// format_tree of the node a Ref holds ("null" for a null Ref).
template <class T>
std::string format_tree(const Ref<T>& root) {
  return root.defined() ? format_tree(static_cast<const Object&>(*root)) : std::string("null\n");
}

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/format_tree-inl.hpp>
#endif
