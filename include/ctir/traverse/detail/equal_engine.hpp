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
/// would. A tiny frameless `compare` (null and type checks) tail-calls, through a table
/// indexed by the perfect hash of the type (slot_entries), one small function per node
/// type, which compares the plain values and calls `compare` for the children (the last
/// one again as a tail call); a variable met again is a lookup in that function. Past
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
      return entry<T>(engine, &a, b, position);
    }
  };
  struct OnRuntime {
    EqualEngine& engine;
    const Object* b;
    unsigned position;
    CTIR_DETAIL_ALWAYS_INLINE bool operator()(const Object& a) const {
      return fallback(engine, &a, b, position);
    }
  };

  static std::uint16_t flags_of(unsigned position) noexcept {
    return static_cast<std::uint16_t>(position & position_flags_mask);
  }

  // `position`: the entry flags and the recursion depth (see child_position).
  bool compare(const Object* a, const Object* b, unsigned position) {
    // Two tests, not a combined one: compilers turn `a == nullptr || b == nullptr` into
    // flag arithmetic on the path of every node.
    if (a == nullptr) [[unlikely]] {
      return b == nullptr;
    }
    if (b == nullptr) [[unlikely]] {
      return false;
    }
    const std::uint32_t index = a->dynamic_type_index();
    if (index != b->dynamic_type_index()) [[unlikely]] {
      return false;
    }
    if (position_depth(position) >= recursion_budget) [[unlikely]] {
      return run_iterative(a, b, flags_of(position));
    }
    using Slots = slot_table<Universe>;
    if constexpr (Slots::hash.found) {
      return slot_entries<EqualEngine, Universe>[slot_of(index, Slots::hash)](*this, a, b,
                                                                              position);
    } else {
      OnStatic on_static{*this, b, position};
      OnRuntime on_runtime{*this, b, position};
      return dispatch_in(Universe{}, *a, on_static, on_runtime);
    }
  }

public:
  // The entries of the dispatch table (see slot_entries), public for it; a comparison starts
  // at run(). The pair has the same type, T's at entry<T> unless another type shares its slot.
  template <class T>
  CTIR_DETAIL_NOIPA static bool entry(EqualEngine& self, const Object* a, const Object* b,
                                      unsigned position) {
    if (a->dynamic_type_index() != T::type_index) [[unlikely]] {
      return fallback(self, a, b, position);
    }
    if constexpr (is_variable_node_v<T>) {
      // A variable met again (most encounters: every use after its definition) is one
      // lookup; only a first encounter calls out, to bind and compare the fields.
      if (const Object** partner = self.bound_partner(a)) [[likely]] {
        return *partner == b;
      }
      return self.template compare_new_var<T>(a, b, position);
    } else {
      const T& x = static_cast<const T&>(*a);
      const T& y = static_cast<const T&>(*b);
      if constexpr (has_node_fields_v<T>) {
        if ((x.use_count() | y.use_count()) > 1) [[unlikely]] {
          const bool graph =
              is_graph_type_v<T> && (has_children_static(x) || has_children_static(y));
          const Step s = self.check_shared(a, b, graph, nullptr);
          if (s != Step::descend) {
            return s == Step::done;
          }
        }
      }
      return self.template compare_fields<T>(x, y, position);
    }
  }

  /// A node type outside Universe, through the runtime field tables.
  [[gnu::noinline]] static bool fallback(EqualEngine& self, const Object* a, const Object* b,
                                         unsigned position) {
    return self.run_iterative(a, b, flags_of(position));
  }

private:
  template <class T>
  [[gnu::noinline]] bool compare_new_var(const Object* a, const Object* b, unsigned position) {
    if (bind_new(a, b, flags_of(position), nullptr) != Step::descend) {
      return false;
    }
    return compare_fields<T>(static_cast<const T&>(*a), static_cast<const T&>(*b), position);
  }

  // The plain values first, then the children in field order.
  template <class T>
  CTIR_DETAIL_ALWAYS_INLINE bool compare_fields(const T& a, const T& b, unsigned position) {
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
