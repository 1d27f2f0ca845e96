// The static fast path of structural equality: recursion through the compile-time hooks of
// the node types a comparison can meet.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/object.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/hooks/value_traits.hpp>
#include <ctir/traverse/detail/equal_core.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ctir::detail::structural {

/// The static layer's fast path: the same comparison, recursing through the
/// compile-time hooks of the node types in Universe, as a hand-written comparator
/// would. A tiny frameless `compare` (null and type checks, a jump table on the type)
/// tail-calls one small function per node type, which compares the plain values and
/// calls `compare` for the children (the last one again as a tail call). Past
/// `recursion_budget` levels, or at a node type outside Universe, the subtree goes to
/// the iterative core, synchronously, so the order (and so the binding of variables)
/// is unchanged and the native stack stays bounded.
template <class Universe>
class EqualEngine : public EqualCore<false> {
public:
  using EqualCore<false>::EqualCore;

  bool run(const Object* a, const Object* b) { return compare(a, b, 0); }

private:
  struct OnStatic {
    EqualEngine& engine;
    const Object* b;
    unsigned position;
    template <class T>
    CTIR_DETAIL_ALWAYS_INLINE bool operator()(const T& a) const {
      return engine.template compare_static<T>(&a, b, position);
    }
  };
  struct OnRuntime {
    EqualEngine& engine;
    const Object* b;
    unsigned position;
    CTIR_DETAIL_ALWAYS_INLINE bool operator()(const Object& a) const {
      return engine.run_iterative(&a, b, flags_of(position));
    }
  };

  static std::uint16_t flags_of(unsigned position) noexcept {
    return static_cast<std::uint16_t>(position & position_flags_mask);
  }

  // `position`: the entry flags and the recursion depth (see child_position).
  bool compare(const Object* a, const Object* b, unsigned position) {
    if (a == nullptr || b == nullptr) [[unlikely]] {
      return a == b;
    }
    if (a->dynamic_type_index() != b->dynamic_type_index()) [[unlikely]] {
      return false;
    }
    if (position_depth(position) >= recursion_budget) [[unlikely]] {
      return run_iterative(a, b, flags_of(position));
    }
    OnStatic on_static{*this, b, position};
    OnRuntime on_runtime{*this, b, position};
    return dispatch_in(Universe{}, *a, on_static, on_runtime);
  }

  template <class T>
  [[gnu::noinline]] bool compare_static(const Object* a_object, const Object* b_object,
                                        unsigned position) {
    const T& a = static_cast<const T&>(*a_object);
    const T& b = static_cast<const T&>(*b_object);
    if constexpr (is_variable_node_v<T>) {
      const Step s = bind_vars(&a, &b, flags_of(position), nullptr);
      if (s != Step::descend) {
        return s == Step::done;
      }
    } else if constexpr (has_node_fields_v<T>) {
      if (a.use_count() > 1 || b.use_count() > 1) [[unlikely]] {
        const bool graph = is_graph_type_v<T> && (has_children_static(a) || has_children_static(b));
        const Step s = check_shared(&a, &b, graph, nullptr);
        if (s != Step::descend) {
          return s == Step::done;
        }
      }
    }
    const bool values_equal = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (value_field_equal<T, I>(a, b) && ...);
    }
    (std::make_index_sequence<field_count_v<T>>{});
    if constexpr (!has_node_fields_v<T>) {
      return values_equal;
    } else {
      return values_equal&& [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (compare_field_static<T, I>(a, b, position) && ...);
      }
      (std::make_index_sequence<field_count_v<T>>{});
    }
  }

  template <class T, std::size_t I>
  CTIR_DETAIL_ALWAYS_INLINE static bool value_field_equal(const T& a, const T& b) {
    using F = std::remove_cvref_t<decltype(field_at_v<T, I>)>;
    if constexpr (F::kind != FieldKind::value || F::ignored) {
      return true;
    } else {
      return value_traits<typename F::value_type>::equal(F::get(a), F::get(b));
    }
  }

  template <class T, std::size_t J>
  CTIR_DETAIL_ALWAYS_INLINE bool compare_field_static(const T& a, const T& b, unsigned position) {
    using F = std::remove_cvref_t<decltype(field_at_v<T, J>)>;
    if constexpr (F::ignored || F::kind == FieldKind::value) {
      return true;
    } else {
      const unsigned child = child_position(position, F::def_kind);
      if constexpr (F::kind == FieldKind::node) {
        return compare(F::get(a).get(), F::get(b).get(), child);
      } else {
        const auto& xs = F::get(a);
        const auto& ys = F::get(b);
        if (xs.size() != ys.size()) {
          return false;
        }
        for (std::size_t k = 0; k < xs.size(); ++k) {
          if (!compare(xs[k].get(), ys[k].get(), child)) {
            return false;
          }
        }
        return true;
      }
    }
  }
};

/// Compares with the compile-time hooks of the types in Universe (an empty list: every
/// node through its runtime field table).
template <class Universe>
bool equal_objects(const Object* a, const Object* b, const StructuralEqualOptions& options) {
  if constexpr (Universe::size == 0) {
    EqualCore<false> engine(options.map_free_vars);
    return engine.run_iterative(a, b, 0);
  } else {
    EqualEngine<Universe> engine(options.map_free_vars);
    return engine.run(a, b);
  }
}

} // namespace ctir::detail::structural
