// The mapped children of a node before it is rebuilt: typed slots, the Mapped<Node> view of
// them, and the rebuilding of a node from them.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/meta.hpp>
#include <ctir/traverse/detail/type_graph.hpp>

#include <concepts>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

/// The mapped value of a node field: holds a Ref only when the child changed, so that an
/// unchanged slot is a flag the compiler sees through (no Ref is constructed or destroyed).
template <class E>
struct node_slot {
  bool changed = false;
  union {
    Ref<E> ref;
  };

  node_slot() noexcept {}
  node_slot(const node_slot&) = delete;
  node_slot& operator=(const node_slot&) = delete;
  node_slot(node_slot&& other) noexcept : changed(other.changed) {
    if (changed) {
      new (&ref) Ref<E>(std::move(other.ref));
    }
  }
  CTIR_DETAIL_ALWAYS_INLINE ~node_slot() {
    if (changed) [[unlikely]] {
      ref.~Ref<E>();
    }
  }
  /// Records a changed child.
  void set(Ref<E>&& value) noexcept {
    if (changed) {
      ref = std::move(value);
    } else {
      new (&ref) Ref<E>(std::move(value));
      changed = true;
    }
  }
};
/// The mapped value of a node-array field: the new elements, only when one changed.
template <class E>
struct array_slot {
  std::vector<Ref<E>> items;
  bool changed = false;
};
struct no_slot {};

/// Records element j of an array field once the array or the element has changed (out of
/// line: while nothing changes, the caller skips it with one test; outside the engine, so
/// that every map call site of a program shares one copy per element type).
template <class E>
CTIR_DETAIL_NOINLINE void add_array_item(array_slot<E>& slot, const std::vector<Ref<E>>& items,
                                         std::size_t j, node_slot<E>&& element) {
  if (element.changed) [[unlikely]] {
    if (!slot.changed) {
      slot.items.reserve(items.size());
      slot.items.assign(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(j));
      slot.changed = true;
    }
    slot.items.push_back(std::move(element.ref));
  } else if (slot.changed) {
    slot.items.push_back(items[j]);
  }
}

template <class F>
struct slot_type {
  using type = no_slot;
};
template <class F>
requires is_child_field_v<F>
struct slot_type<F> {
  using type = std::conditional_t<F::kind == FieldKind::node, node_slot<typename F::element_type>,
                                  array_slot<typename F::element_type>>;
};

template <class C, class Sequence>
struct slots_storage;
template <class C, std::size_t... I>
struct slots_storage<C, std::index_sequence<I...>> {
  using type =
      list_storage<std::index_sequence<I...>, typename slot_type<field_type_t<C, I>>::type...>;
};
/// The mapped children of a node of type C, one slot per field, before any node is built.
template <class C>
struct slots_of : slots_storage<C, std::make_index_sequence<field_count_v<C>>>::type {};

/// Builds the node C with the changed children of `slots` and the other fields of
/// `original` (the only allocation of a rebuilt node; slots are moved from). The node takes
/// its descriptor from the original: rebuilding compiles no type table into the caller.
template <class C>
Ref<C> materialize(const C& original, slots_of<C>& slots) {
  constexpr std::size_t n = field_count_v<C>;
  if constexpr (std::is_default_constructible_v<C> && !C::is_abstract_type) {
    Owned<C> node = make_object_like(original);
    [&]<std::size_t... I>(std::index_sequence<I...>) CTIR_DETAIL_INLINE_LAMBDA {
      (
          [&]() CTIR_DETAIL_INLINE_LAMBDA {
            using F = field_type_t<C, I>;
            auto& target = F::get(*node);
            if constexpr (is_child_field_v<F>) {
              auto& slot = leaf_value<I>(slots);
              if (slot.changed) {
                if constexpr (F::kind == FieldKind::node) {
                  target = std::move(slot.ref);
                } else {
                  target = std::move(slot.items);
                }
                return;
              }
            }
            target = F::get(original);
          }(),
          ...);
    }
    (std::make_index_sequence<n>{});
    return std::move(node).publish();
  } else {
    // A copy has every field already: only the changed children are set. (An abstract C is
    // a layout its subclasses share; only the original's descriptor can copy it.)
    Owned<C> node = [&] {
      if constexpr (C::is_abstract_type) {
        return make_object_like(original);
      } else {
        return clone_object(original);
      }
    }();
    [&]<std::size_t... I>(std::index_sequence<I...>) CTIR_DETAIL_INLINE_LAMBDA {
      (
          [&]() CTIR_DETAIL_INLINE_LAMBDA {
            using F = field_type_t<C, I>;
            if constexpr (is_child_field_v<F>) {
              auto& slot = leaf_value<I>(slots);
              if (slot.changed) {
                if constexpr (F::kind == FieldKind::node) {
                  F::get(*node) = std::move(slot.ref);
                } else {
                  F::get(*node) = std::move(slot.items);
                }
              }
            }
          }(),
          ...);
    }
    (std::make_index_sequence<n>{});
    return std::move(node).publish();
  }
}

/// The view behind ctir::Mapped<N>: a node and its mapped children (see callbacks.hpp).
template <class N>
class mapped_view {
public:
  using node_type = N;
  static_assert(concrete_node<node_type>,
                "ctir::Mapped<T>: T must be a concrete node type (AddNode) or a Ref to one");

  mapped_view(const node_type& original, slots_of<node_type>& slots, bool changed) noexcept
      : original_(&original), slots_(&slots), changed_(changed) {}
  /// The view of a node whose children were mapped into `rebuilt` already (a copy of
  /// `original`, or `original` itself when no child changed).
  mapped_view(const node_type& original, const node_type& rebuilt,
              slots_of<node_type>& no_slots) noexcept
      : original_(&original), slots_(&no_slots), changed_(&rebuilt != &original) {
    if (changed_) {
      materialized_ = Ref<node_type>::borrow(&rebuilt);
    }
  }
  mapped_view(const mapped_view&) = delete;
  mapped_view& operator=(const mapped_view&) = delete;

  /// The node as it was before its children were mapped.
  const Ref<node_type>& original() const noexcept { return original_.get(); }
  /// Whether some child was mapped to a different node.
  bool changed() const noexcept { return changed_; }

  /// The mapped value of a field, by member pointer: `add[&AddNode::a]`.
  template <class V, class Owner>
  requires std::derived_from<node_type, Owner>
  const V& operator[](V Owner::*member) const noexcept {
    const node_type& original = *original_.get().get();
    if (materialized_.defined()) {
      return static_cast<const node_type&>(*materialized_.get()).*member;
    }
    const V* result = &(original.*member);
    const void* address = static_cast<const void*>(result);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            using F = field_type_t<node_type, I>;
            if constexpr (is_child_field_v<F> && std::is_same_v<typename F::value_type, V>) {
              const auto& slot = leaf_value<I>(*slots_);
              if (slot.changed && static_cast<const void*>(&F::get(original)) == address) {
                if constexpr (F::kind == FieldKind::node) {
                  result = &slot.ref;
                } else {
                  result = &slot.items;
                }
              }
            }
          }(),
          ...);
    }
    (std::make_index_sequence<field_count_v<node_type>>{});
    return *result;
  }

  /// The mapped value of the field `Member`: `add.get<&AddNode::a>()`.
  template <auto Member>
  const auto& get() const noexcept {
    return (*this)[Member];
  }

  /// The node with its mapped children: the original when nothing changed, else built now
  /// (once).
  const Ref<node_type>& node() const {
    if (!changed_) {
      return original_.get();
    }
    if (!materialized_.defined()) {
      materialized_ = materialize(*original_.get().get(), *slots_);
    }
    return materialized_;
  }

private:
  borrowed_ref<node_type> original_;
  slots_of<node_type>* slots_;
  bool changed_;
  mutable Ref<node_type> materialized_;
};

/// Presents a node to a map callback: as the node (built if a child changed) or as the
/// Mapped view.
template <class C>
struct mapped_provider {
  using node_type = C;
  mapped_view<C>& view;
  const C* object() const { return view.node().get(); }
  mapped_view<C>& mapped() const noexcept { return view; }
};

} // namespace ctir::detail::traverse
