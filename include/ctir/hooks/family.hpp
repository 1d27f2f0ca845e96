// Families: the concrete subclasses of an abstract node type, as a compile-time list.
#pragma once

#include <ctir/core/node.hpp>
#include <ctir/core/type_list.hpp>

#include <type_traits>
#include <utility>

namespace ctir {

/// The concrete node types a field of static type T can hold, known at compile time.
///
/// A concrete type is its own family; an abstract type's family is declared with
/// CTIR_FAMILY after its members are defined. Types outside the family (registered
/// at run time, say) still work: dispatch sends them to the runtime fallback.
///
/// Asking for the family of an abstract type that has none declared is a compile error, not
/// an empty family: a traversal compiled without the declaration would silently skip every
/// member. Object alone defaults to the empty family (every node dispatched at run time).
template <class T>
struct family_traits {
  static_assert(!T::is_abstract_type || std::is_same_v<T, Object>,
                "ctir: this abstract node type has no family declared in this translation "
                "unit. For ctir's IR, include <ctir/ir/families.hpp> (or <ctir/ctir.hpp>); for "
                "your own abstract node, write CTIR_FAMILY(Root, Members...) after the members "
                "are defined, or CTIR_FAMILY(Root) when they are only known at run time.");
  using type = std::conditional_t<T::is_abstract_type, type_list<>, type_list<T>>;
};

/// The family of T.
template <class T>
using family_t = typename family_traits<T>::type;

/// Declares the family of an abstract node type, at global scope. Elements may be
/// concrete types or whole families (`ctir::family_t<PrimExprNode>`).
#define CTIR_FAMILY(Root, ...)                                                                     \
  template <>                                                                                      \
  struct ctir::family_traits<Root> {                                                               \
    using type = ::ctir::flat_list_t<__VA_ARGS__>;                                                 \
    static_assert(::ctir::detail::valid_family<Root>(type{}),                                      \
                  "ctir: CTIR_FAMILY(" #Root ", ...) lists a type that is abstract or does not "   \
                  "derive from " #Root);                                                           \
  }

namespace detail {
template <class Root, class... Ts>
constexpr bool valid_family(type_list<Ts...>) {
  return ((std::is_base_of_v<Root, Ts> && !Ts::is_abstract_type) && ...);
}

template <class... Ts, class F, class Fallback>
inline void dispatch_void(type_list<Ts...>, const Object& object, F& f, Fallback& fallback) {
  [[maybe_unused]] const auto index = object.dynamic_type_index(); // unused for an empty family
  const bool handled =
      ((index == Ts::type_index ? (f(static_cast<const Ts&>(object)), true) : false) || ...);
  if (!handled) {
    fallback(object);
  }
}
} // namespace detail

/// Calls f(static_cast<const C&>(object)) for the member C of family_t<Root> that is
/// object's dynamic type, or fallback(object) when none is. The test is a flat chain
/// of comparisons against constants, which compilers turn into a switch.
template <class Root, class F, class Fallback>
inline void dispatch(const Object& object, F&& f, Fallback&& fallback) {
  detail::dispatch_void(family_t<Root>{}, object, f, fallback);
}

} // namespace ctir
