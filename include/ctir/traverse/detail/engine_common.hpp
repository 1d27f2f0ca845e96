// Pieces shared by the traversal engines: the recursion budget, dispatch over a type list,
// definition regions and the generic handling of nodes whose type is known only at run time.
#pragma once

#include <ctir/core/detail/stack.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/traverse/detail/meta.hpp>
#include <ctir/traverse/detail/switch_dispatch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

/// How much native stack (bytes) the static walk and map may use for their recursion before
/// they continue the subtree on an explicit stack on the heap. Shallow IR (nearly all of it)
/// runs at the speed of a hand-written recursive visitor; a chain a million deep still fits
/// in any thread's stack. The budget is in bytes, not levels, so that it holds at -O0 and
/// under sanitizers, whose frames are much larger.
#ifndef CTIR_TRAVERSE_STACK_BUDGET
#define CTIR_TRAVERSE_STACK_BUDGET (64 * 1024)
#endif

namespace ctir::detail::traverse {

inline constexpr std::uintptr_t stack_budget = CTIR_TRAVERSE_STACK_BUDGET;

/// The stack position below which a traversal started here stops recursing natively.
CTIR_DETAIL_ALWAYS_INLINE std::uintptr_t stack_floor() noexcept {
  const std::uintptr_t here = stack_position();
  return here > stack_budget ? here - stack_budget : 0;
}

/// Whether a node of static type C at a site of kind `region` is a variable use: a variable
/// is a leaf at its uses (its type belongs to its definition).
template <class C>
constexpr bool is_use_site(DefRegionKind region) noexcept {
  if constexpr (is_variable_node_v<C>) {
    return region == DefRegionKind::none;
  } else {
    return false;
  }
}

inline bool is_dynamic_use_site(const Object& object, DefRegionKind region) noexcept {
  return region == DefRegionKind::none && object.type_info().is_variable;
}

template <class... Cs>
struct sorted_ids {
  static constexpr std::size_t size = sizeof...(Cs);
  struct table {
    std::array<std::uint32_t, sizeof...(Cs) + 1> id{};
    std::array<std::size_t, sizeof...(Cs) + 1> position{};
  };
  /// The members' type indices in increasing order, with their positions in the pack.
  static constexpr table value = [] {
    table t;
    constexpr std::array<std::uint32_t, sizeof...(Cs) + 1> ids{Cs::type_index..., 0};
    for (std::size_t i = 0; i < size; ++i) {
      t.id[i] = ids[i];
      t.position[i] = i;
    }
    for (std::size_t i = 1; i < size; ++i) {
      for (std::size_t j = i; j > 0 && t.id[j - 1] > t.id[j]; --j) {
        std::swap(t.id[j - 1], t.id[j]);
        std::swap(t.position[j - 1], t.position[j]);
      }
    }
    return t;
  }();
};

/// The types of Cs at sorted positions Lo, Lo + 1, ...: the cases of one switch.
template <std::size_t Lo, class... Cs>
struct sorted_range {
  template <std::size_t K>
  using at = pack_element_t<sorted_ids<Cs...>::value.position[Lo + K], Cs...>;
};

/// A switch over the type indices of Cs (split in halves first when there are more than a
/// switch covers; the depth of the instantiation is the logarithm of the size).
template <std::size_t Lo, std::size_t Hi, class... Cs, class F, class Fallback>
CTIR_DETAIL_ALWAYS_INLINE decltype(auto) dispatch_sorted(std::uint32_t index, const Object& object,
                                                         F& f, Fallback& fallback) {
  if constexpr (Hi - Lo <= max_switch_cases) {
    return switch_cases<Hi - Lo>::template run<sorted_range<Lo, Cs...>>(index, object, f, fallback);
  } else {
    constexpr std::size_t mid = (Lo + Hi) / 2;
    if (index < sorted_ids<Cs...>::value.id[mid]) {
      return dispatch_sorted<Lo, mid, Cs...>(index, object, f, fallback);
    }
    return dispatch_sorted<mid, Hi, Cs...>(index, object, f, fallback);
  }
}

/// Calls f(static_cast<const C&>(object)) for the member C of List that is object's dynamic
/// type, else fallback(object), and returns what it returns.
template <class... Cs, class F, class Fallback>
CTIR_DETAIL_ALWAYS_INLINE decltype(auto) dispatch_list(type_list<Cs...>, const Object& object,
                                                       F&& f, Fallback&& fallback) {
  if constexpr (sizeof...(Cs) == 0) {
    return fallback(object);
  } else {
    return dispatch_sorted<0, sizeof...(Cs), Cs...>(object.dynamic_type_index(), object, f,
                                                    fallback);
  }
}

/// Dispatches a node held in a field of static type E over E's family. A field of a final
/// type holds that very type (the registry refuses runtime subtypes of it): no test at all.
template <class E, class F, class Fallback>
CTIR_DETAIL_ALWAYS_INLINE decltype(auto) dispatch_family(const E& node, F&& f,
                                                         Fallback&& fallback) {
  if constexpr (!E::is_abstract_type && std::is_final_v<E>) {
    (void)fallback;
    return f(node);
  } else {
    return dispatch_list(family_t<E>{}, node, f, fallback);
  }
}

/// The largest family whose members a static traversal compiles code for. Each member's code
/// holds a switch over the family at each field of the family's type, so a call site's code
/// grows with (members x members); for a larger family, a traversal compiles code only for
/// the members its callbacks handle and walks or rebuilds the others through their field
/// tables (the runtime layer's path), so that a program with many passes over a large family
/// compiles in time linear in passes x handled types. ctir's own families are below it (the
/// largest, Object's, has 45 members; Expr's 34) and keep the fully compiled path that the
/// performance bars are measured on.
inline constexpr std::size_t inline_dispatch_limit = 48;

/// Whether a field of static type E is dispatched out of line (see inline_dispatch_limit).
template <class E>
inline constexpr bool dispatched_out_of_line_v =
    !(!E::is_abstract_type && std::is_final_v<E>)&&family_t<E>::size > inline_dispatch_limit;

/// Calls f(child, region) for the children of a node known only at run time, through its
/// field table, in field order (or reversed, to push them on a stack).
template <bool Reversed, class F>
void for_each_dynamic_child(const Object& object, DefRegionKind region, F&& f) {
  const auto& fields = object.type_info().fields;
  const std::size_t count = fields.size();
  for (std::size_t n = 0; n < count; ++n) {
    const FieldInfo& field = fields[Reversed ? count - 1 - n : n];
    if (field.ignored() || field.kind == FieldKind::value) {
      continue;
    }
    const DefRegionKind inner = child_region(region, field.def_kind);
    if (field.kind == FieldKind::node) {
      if (const Object* child = field.get(object, field)) {
        f(child, inner);
      }
    } else {
      const std::size_t size = field.size(object, field);
      for (std::size_t m = 0; m < size; ++m) {
        if (const Object* child = field.at(object, field, Reversed ? size - 1 - m : m)) {
          f(child, inner);
        }
      }
    }
  }
}

} // namespace ctir::detail::traverse
