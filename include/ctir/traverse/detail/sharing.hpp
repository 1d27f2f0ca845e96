// Which nodes are shared as values: graph-level dataflow nodes with operands. Structural
// equality and hashing compare them as a DAG, and walk, visit, map and mutate meet each of
// them once per traversal, however many uses reach it.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>

#include <cstdint>
#include <type_traits>

namespace ctir::detail::structural {

// Graph-level dataflow nodes compare as a DAG and tensor-level scalars as trees. The
// distinction is part of the IR (ir/), which sits above this layer, so the two family
// roots are named by their type keys; a type index is the hash of its key, so this needs
// no include of ir/ and also covers node types registered at run time under ir.Expr.
inline constexpr std::uint32_t expr_root_index = type_index_of_key("ir.Expr");
inline constexpr std::uint32_t prim_expr_root_index = type_index_of_key("ir.PrimExpr");
inline constexpr std::uint32_t prim_func_index = type_index_of_key("ir.PrimFunc");

constexpr bool ancestors_contain(const std::uint32_t* ancestors, std::uint32_t depth,
                                 std::uint32_t index) noexcept {
  for (std::uint32_t i = 0; i <= depth; ++i) {
    if (ancestors[i] == index) {
      return true;
    }
  }
  return false;
}

/// Whether objects of type T are graph-level dataflow nodes (an ir.Expr that is not an
/// ir.PrimExpr), whose sharing structural equality takes into account.
template <class T>
inline constexpr bool is_graph_type_v = ancestors_contain(ancestor_indices_v<T>.data(),
                                                          T::type_depth, expr_root_index) &&
                                        !ancestors_contain(ancestor_indices_v<T>.data(),
                                                           T::type_depth, prim_expr_root_index);

/// is_graph_type_v for a type known at run time only.
constexpr bool is_graph_type(const TypeInfo& info) noexcept {
  return ancestors_contain(info.ancestors, info.depth, expr_root_index) &&
         !ancestors_contain(info.ancestors, info.depth, prim_expr_root_index);
}

/// Whether a node has at least one child (a non-null node field or a non-empty array),
/// through its runtime field table.
inline bool has_children_runtime(const Object& node) {
  for (const FieldInfo& field : node.type_info().fields) {
    if (field.ignored()) {
      continue;
    }
    if (field.kind == FieldKind::node && field.get(node, field) != nullptr) {
      return true;
    }
    if (field.kind == FieldKind::node_array && field.size(node, field) != 0) {
      return true;
    }
  }
  return false;
}

/// Whether objects of type T are graph-level dataflow values: graph types other than
/// tensor-level functions (a PrimFunc is a tree of statements, wherever it is used).
template <class T>
inline constexpr bool is_dataflow_type_v =
    is_graph_type_v<T> &&
    !ancestors_contain(ancestor_indices_v<T>.data(), T::type_depth, prim_func_index);

/// is_dataflow_type_v for a type known at run time only.
constexpr bool is_dataflow_type(const TypeInfo& info) noexcept {
  return is_graph_type(info) && !ancestors_contain(info.ancestors, info.depth, prim_func_index);
}

/// Whether T has fields that hold nodes (and so may have children).
template <class T>
inline constexpr bool has_node_fields_v = [] {
  bool any = false;
  for_each_field<T>([&](const auto& field) {
    using F = std::remove_cvref_t<decltype(field)>;
    any = any || (!F::ignored && F::kind != FieldKind::value);
  });
  return any;
}();

/// Whether a traversal meets a node of type T once however many uses reach it (a call, a
/// tuple, a let, a closure ...): a graph-level dataflow node with operands. Variables,
/// operators, global variables, constants and tensor-level IR (functions included) are met
/// at every use.
template <class T>
inline constexpr bool visited_once_v =
    is_dataflow_type_v<T>&& has_node_fields_v<T> && !is_variable_node_v<T>;

/// visited_once_v for a node of a type known at run time only.
inline bool visited_once(const Object& node) noexcept {
  const TypeInfo& info = node.type_info();
  if (info.is_variable || !is_dataflow_type(info)) {
    return false;
  }
  for (const FieldInfo& field : info.fields) {
    if (!field.ignored() && field.kind != FieldKind::value) {
      return true;
    }
  }
  return false;
}

} // namespace ctir::detail::structural
