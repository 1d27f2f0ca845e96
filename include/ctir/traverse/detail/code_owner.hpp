// Which type's code a static traversal compiles for a node type that no callback handles.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/detail/sharing.hpp>

namespace ctir::detail::traverse {

/// A concrete type that adds no field to its abstract base (each BinaryNode<Op> over
/// BinaryExprNode) is traversed by its base's code when no callback handles it, so that the
/// fifteen binary operators share one copy instead of compiling fifteen identical ones into
/// every call site. Its base must meet it the same way (not a variable, shared alike).
template <class C, class Base = typename C::base_type>
inline constexpr bool shares_base_code_v =
    !C::is_abstract_type && Base::is_abstract_type && field_count_v<C> == field_count_v<Base> &&
    field_count_v<Base> > 0 && !is_variable_node_v<C> &&
    structural::visited_once_v<C> == structural::visited_once_v<Base>;

template <class C>
struct code_owner {
  using type = C;
};
template <class C>
requires(shares_base_code_v<C>) struct code_owner<C> {
  using type = typename C::base_type;
};
/// The type whose traversal code serves an unhandled node of type C: C or its base.
template <class C>
using code_owner_t = typename code_owner<C>::type;

} // namespace ctir::detail::traverse
