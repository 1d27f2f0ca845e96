// Ref<T>: the null-able intrusive pointer through which every node is held.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/inline.hpp>
#include <ctir/core/node.hpp>

#include <compare>
#include <cstddef>
#include <string> // also declares std::hash
#include <type_traits>
#include <utility>

namespace ctir {

template <class T>
class Ref;

namespace detail {
struct no_ref_methods {};

template <class T>
struct ref_methods_of {
  using type = no_ref_methods;
};
template <class T>
requires requires { typename T::ref_methods; }
struct ref_methods_of<T> {
  using type = typename T::ref_methods;
};

template <class T>
struct node_of {
  using type = T;
};
template <class T>
struct node_of<Ref<T>> {
  using type = T;
};
} // namespace detail

/// The node type behind T: T itself for a node, N for Ref<N>.
template <class T>
using node_of_t = typename detail::node_of<std::remove_cvref_t<T>>::type;

/// The error thrown by a failed checked downcast.
class bad_node_cast : public Error {
public:
  using Error::Error;
};

/// A shared, immutable handle to a node of type T (or a subclass), possibly null.
///
/// Copying increments an atomic count; `same_as` compares identity. A Ref<Derived>
/// converts implicitly to a Ref<Base>; going down uses `as`, `is` or `downcast`.
/// The static functions of `T::ref_methods` (the factories) are reachable through
/// the Ref type: `For::make(...)` with `using For = Ref<ForNode>`.
template <class T>
class Ref : public detail::ref_methods_of<T>::type {
public:
  using node_type = T;

  constexpr Ref() noexcept = default;
  constexpr Ref(std::nullptr_t) noexcept {}
  Ref(const Ref& other) noexcept : ptr_(other.ptr_) { retain(); }
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <class U>
  requires std::derived_from<U, T> Ref(const Ref<U>& other)
  noexcept : ptr_(other.get()) { retain(); }
  template <class U>
  requires std::derived_from<U, T> Ref(Ref<U>&& other)
  noexcept : ptr_(other.release()) {}
  /// A literal converts when the node type says how (`PrimExpr x = 1;` makes an IntImm).
  template <class L>
  requires(std::is_arithmetic_v<L>&& requires(L literal) {
    detail::ref_methods_of<T>::type::from_literal(literal);
  }) Ref(L literal)
      : Ref(detail::ref_methods_of<T>::type::from_literal(literal)) {}
  ~Ref() { reset(); }

  Ref& operator=(const Ref& other) noexcept {
    Ref(other).swap(*this);
    return *this;
  }
  Ref& operator=(Ref&& other) noexcept {
    Ref(std::move(other)).swap(*this);
    return *this;
  }

  /// Takes ownership of a freshly created object (count 0).
  static Ref adopt_new(const T* object) noexcept {
    Ref result;
    result.ptr_ = object;
    result.retain();
    return result;
  }
  /// Wraps an object that is already owned elsewhere (adds a reference).
  static Ref borrow(const T* object) noexcept { return adopt_new(object); }
  /// Takes over the reference that `release()` gave up, without adding one: with a
  /// static_cast in between, a downcast that moves.
  static Ref adopt_released(const T* object) noexcept {
    Ref result;
    result.ptr_ = object;
    return result;
  }

  const T* get() const noexcept { return ptr_; }
  const T* operator->() const noexcept { return ptr_; }
  const T& operator*() const noexcept { return *ptr_; }
  bool defined() const noexcept { return ptr_ != nullptr; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }

  /// Identity: both hold the same object (or both are null).
  template <class U>
  bool same_as(const Ref<U>& other) const noexcept {
    return static_cast<const Object*>(ptr_) == static_cast<const Object*>(other.get());
  }

  /// Whether the object is non-null and of node type U (a node or a Ref type).
  template <class U>
  bool is() const noexcept {
    return ptr_ != nullptr && instance_of<node_of_t<U>>(*ptr_);
  }
  /// The object as a `const U*` when it is a U, else nullptr.
  template <class U>
  const node_of_t<U>* as() const noexcept {
    return is<U>() ? static_cast<const node_of_t<U>*>(static_cast<const Object*>(ptr_)) : nullptr;
  }

  /// Releases ownership without decrementing (for conversions).
  const T* release() noexcept { return std::exchange(ptr_, nullptr); }
  // Forced inline: where the compiler can see that the Ref is empty (moved from), the
  // release disappears; a call would hide that.
  CTIR_DETAIL_ALWAYS_INLINE void reset() noexcept {
    // Checked here rather than on the class so that a node may hold a Ref to its own type.
    static_assert(ir_node<T>, "ctir: Ref<T> needs a node type T declared with CTIR_NODE or "
                              "CTIR_ABSTRACT_NODE inside the class");
#if defined(__GNUC__) && !defined(__clang__)
    // A Ref held in a union member (a map's node_slot) is destroyed only when a flag says it
    // was constructed; g++ cannot see that through the flag and warns here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    if (ptr_ != nullptr) {
      drop(ptr_);
      ptr_ = nullptr;
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  }
  void swap(Ref& other) noexcept { std::swap(ptr_, other.ptr_); }

  friend bool operator==(const Ref& ref, std::nullptr_t) noexcept { return ref.ptr_ == nullptr; }
  /// Identity comparison, so Refs work as keys of ordinary containers.
  template <class U>
  friend bool operator==(const Ref& a, const Ref<U>& b) noexcept {
    return a.same_as(b);
  }

private:
  static void drop(const T* object) noexcept {
    if (detail::object_access::dec_ref(object)) {
      detail::destroy_object(const_cast<Object*>(static_cast<const Object*>(object)));
    }
  }
  void retain() const noexcept {
    if (ptr_ != nullptr) {
      detail::object_access::inc_ref(ptr_);
    }
  }
  const T* ptr_ = nullptr;
};

/// A Ref to any node.
using ObjectRef = Ref<Object>;

/// The Ref<T> to `object` if it is a T, else null.
template <class To, class From>
Ref<node_of_t<To>> try_downcast(const Ref<From>& ref) noexcept {
  return ref.template is<To>() ? Ref<node_of_t<To>>::borrow(ref.template as<To>())
                               : Ref<node_of_t<To>>();
}

/// The Ref<T> to `object`; throws bad_node_cast naming both types if it is not a T.
/// A null input gives a null output.
template <class To, class From>
Ref<node_of_t<To>> downcast(const Ref<From>& ref) {
  using Target = node_of_t<To>;
  if (!ref.defined()) {
    return {};
  }
  if (!ref.template is<Target>()) {
    throw bad_node_cast("ctir: cannot downcast a " + std::string(ref->dynamic_type_key()) + " to " +
                        std::string(Target::type_key));
  }
  return Ref<Target>::borrow(ref.template as<Target>());
}

/// A Ref to a node reached through a plain pointer (adds a reference).
template <ir_node T>
Ref<T> ref_of(const T* object) noexcept {
  return Ref<T>::borrow(object);
}

} // namespace ctir

/// Refs hash by identity, like their operator==.
template <class T>
struct std::hash<ctir::Ref<T>> {
  std::size_t operator()(const ctir::Ref<T>& ref) const noexcept {
    return std::hash<const void*>{}(static_cast<const void*>(ref.get()));
  }
};

// NodeError's members need a complete Ref: error.hpp leaves them to this point.
#ifdef CTIR_HEADER_ONLY
#include <ctir/core/error-inl.hpp>
#endif
