// What a map callback's result becomes: an owned mapped node (or "unchanged"), the sentinel
// of a replacement by null, and the checks of where a replacement may stand.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/detail/map_slots.hpp>

#include <cstdint>
#include <string_view>
#include <utility>

namespace ctir::detail::traverse {

// ---------------------------------------------------------------------------------------
// Results. A mapped node travels as one owning pointer: null means "unchanged" (no reference
// count traffic on the common path), the null_replacement sentinel means "replaced by null".

/// An owned reference to a mapped node, or nothing (unchanged). Like an ObjectRef, but its
/// destructor is an inlined null test, so an unchanged result costs no call.
class mapped_ref {
public:
  mapped_ref() noexcept = default;
  mapped_ref(ObjectRef&& node) noexcept : ptr_(node.release()) {}
  mapped_ref(const ObjectRef& node) noexcept : ptr_(ObjectRef(node).release()) {}
  template <class N>
  mapped_ref(Ref<N>&& node) noexcept : ptr_(node.release()) {}
  template <class N>
  mapped_ref(const Ref<N>& node) noexcept : ptr_(Ref<N>(node).release()) {}
  mapped_ref(mapped_ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  mapped_ref& operator=(mapped_ref&& other) noexcept {
    mapped_ref(std::move(other)).swap(*this);
    return *this;
  }
  mapped_ref(const mapped_ref&) = delete;
  mapped_ref& operator=(const mapped_ref&) = delete;
  CTIR_DETAIL_ALWAYS_INLINE ~mapped_ref() {
    if (ptr_ != nullptr) [[unlikely]] {
      drop(ptr_);
    }
  }

  bool defined() const noexcept { return ptr_ != nullptr; }
  const Object* get() const noexcept { return ptr_; }
  const Object& operator*() const noexcept { return *ptr_; }
  const Object* operator->() const noexcept { return ptr_; }
  /// The node as an ObjectRef (this becomes empty).
  ObjectRef take() noexcept { return adopt(std::exchange(ptr_, nullptr)); }
  void swap(mapped_ref& other) noexcept { std::swap(ptr_, other.ptr_); }

private:
  static ObjectRef adopt(const Object* node) noexcept {
    ObjectRef result;
    *reinterpret_cast<const Object**>(&result) = node;
    return result;
  }
  CTIR_DETAIL_NOINLINE static void drop(const Object* node) noexcept { (void)adopt(node); }

  const Object* ptr_ = nullptr;
};

/// The node behind the "replaced by null" sentinel.
struct null_replacement_node final : Object {
  CTIR_NODE(null_replacement_node, Object, "ctir.detail.NullReplacement");
};

/// The sentinel a mapped result holds when a callback replaced its node by null.
const ObjectRef& null_replacement();
inline bool is_null_replacement(const Object* node) noexcept {
  return node != nullptr && node->dynamic_type_index() == null_replacement_node::type_index;
}

template <class R>
struct map_result_traits {
  static constexpr bool valid = false;
};
template <>
struct map_result_traits<unchanged_t> {
  static constexpr bool valid = true;
};
template <class N>
struct map_result_traits<Ref<N>> {
  static constexpr bool valid = true;
};
template <class T>
struct map_result_traits<MapResult<T>> {
  static constexpr bool valid = true;
};
/// Whether R is something a map or mutate callback may return.
template <class R>
inline constexpr bool is_map_result_v = map_result_traits<R>::valid;

/// Throws the error of a callback that replaced `original` by a node of another kind than
/// the field holding it expects.
[[noreturn]] void throw_misplaced(const Object& original, const Object& replacement,
                                  std::string_view expected);

/// Stores a changed result (non-null) into the slot of a field of static type E.
template <class E>
void store(node_slot<E>& slot, mapped_ref&& mapped, const Object& original) {
  if (is_null_replacement(mapped.get())) {
    slot.set(Ref<E>());
    return;
  }
  if (!instance_of<E>(*mapped)) {
    throw_misplaced(original, *mapped, E::type_key);
  }
  slot.set(static_ref_cast<E>(mapped.take()));
}

/// Checks that `value` may be stored in a field of a node known only at run time.
void check_dynamic_field(const Object& parent, const FieldInfo& field, const mapped_ref& value,
                         const Object& original);

/// Whether `value` (null, or a node) may stand in `field` by its type's ancestors alone: the
/// common case, a replacement of the field's type or a subtype, decided without the registry.
inline bool fits_field_by_ancestors(const FieldInfo& field, const mapped_ref& value) noexcept {
  if (!value.defined()) {
    return true;
  }
  const TypeInfo& type = value->type_info();
  for (std::uint32_t depth = 0; depth <= type.depth; ++depth) {
    if (type.ancestors[depth] == field.element_type_index) {
      return true;
    }
  }
  return false;
}

} // namespace ctir::detail::traverse

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/detail/map_result-inl.hpp>
#endif
