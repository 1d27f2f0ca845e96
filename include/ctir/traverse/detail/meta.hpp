// Flat metaprogramming and object-model helpers shared by the traversals.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_list.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace ctir::detail::traverse {
template <class N>
class mapped_view;
} // namespace ctir::detail::traverse

namespace ctir::detail::traverse {

inline constexpr std::size_t npos = not_in_list;

/// Positions kept from a list (the first `count` of `at`).
template <std::size_t N>
struct kept_positions {
  std::array<std::size_t, N> at{};
  std::size_t count = 0;
};

// ---------------------------------------------------------------------------------------
// What a callable takes and returns, when that is not a template.

template <class... Args>
struct signature_args {
  static constexpr bool known = true;
  using args = type_list<Args...>;
};

template <class F>
struct member_signature {
  static constexpr bool known = false;
};
#define CTIR_DETAIL_MEMBER_SIGNATURE(qualifiers)                                                   \
  template <class R, class C, class... A>                                                          \
  struct member_signature<R (C::*)(A...) qualifiers> : signature_args<A...> {                      \
    using result = R;                                                                              \
  }
CTIR_DETAIL_MEMBER_SIGNATURE();
CTIR_DETAIL_MEMBER_SIGNATURE(const);
CTIR_DETAIL_MEMBER_SIGNATURE(noexcept);
CTIR_DETAIL_MEMBER_SIGNATURE(const noexcept);
CTIR_DETAIL_MEMBER_SIGNATURE(&);
CTIR_DETAIL_MEMBER_SIGNATURE(const&);
CTIR_DETAIL_MEMBER_SIGNATURE(&noexcept);
CTIR_DETAIL_MEMBER_SIGNATURE(const& noexcept);
#undef CTIR_DETAIL_MEMBER_SIGNATURE

template <class F, class = void>
struct callable_signature {
  static constexpr bool known = false;
};
template <class F>
struct callable_signature<F, std::void_t<decltype(&F::operator())>>
    : member_signature<decltype(&F::operator())> {};
template <class R, class... A>
struct callable_signature<R (*)(A...), void> : signature_args<A...> {
  using result = R;
};
template <class R, class... A>
struct callable_signature<R (*)(A...) noexcept, void> : signature_args<A...> {
  using result = R;
};
template <class R, class... A>
struct callable_signature<R(A...), void> : signature_args<A...> {
  using result = R;
};

// ---------------------------------------------------------------------------------------
// Node parameters: `const Ref<N>&`, `Ref<N>`, `const N&`.

enum class param_form : std::uint8_t {
  none,   ///< not a node parameter
  ref,    ///< a Ref<N> (by value or const reference)
  node,   ///< a `const N&`
  mapped, ///< a `const Mapped<N>&`: a map callback that sees the mapped children first
};

template <class P>
struct node_param {
  static constexpr param_form form = param_form::none;
  using node = void;
};
template <class N>
struct node_param<Ref<N>> {
  static constexpr param_form form = param_form::ref;
  using node = N;
};
template <class N>
struct node_param<mapped_view<N>> {
  static constexpr param_form form = param_form::mapped;
  using node = N;
};
template <class P>
requires ir_node<P>
struct node_param<P> {
  static constexpr param_form form = param_form::node;
  using node = P;
};

// ---------------------------------------------------------------------------------------
// Borrowed references: a Ref that points at a node without owning it.

/// A `Ref<T>` that refers to a node someone else keeps alive, without touching the count.
///
/// Callbacks take `const Ref<T>&`; building a real Ref for each call would cost two atomic
/// operations per node. Ref<T> is a standard-layout class whose only member is the pointer,
/// so the pointer is reached through the (pointer-interconvertible) object address and
/// cleared again before the Ref is destroyed.
template <class T>
class borrowed_ref {
  static_assert(std::is_standard_layout_v<Ref<T>> && sizeof(Ref<T>) == sizeof(const T*),
                "ctir: Ref<T> must be a standard-layout wrapper of one pointer");

public:
  explicit borrowed_ref(const T* object) noexcept { slot() = object; }
  borrowed_ref(const borrowed_ref&) = delete;
  borrowed_ref& operator=(const borrowed_ref&) = delete;
  ~borrowed_ref() { slot() = nullptr; }

  const Ref<T>& get() const noexcept { return ref_; }

private:
  const T*& slot() noexcept { return *reinterpret_cast<const T**>(&ref_); }
  Ref<T> ref_;
};

/// Moves an ObjectRef known to hold a T into a Ref<T> without touching the count.
template <class T>
Ref<T> static_ref_cast(ObjectRef&& ref) noexcept {
  static_assert(std::is_standard_layout_v<Ref<T>> && sizeof(Ref<T>) == sizeof(const T*));
  Ref<T> result;
  *reinterpret_cast<const T**>(&result) = static_cast<const T*>(ref.release());
  return result;
}

/// Moves a Ref<U> into a Ref<T> (T a base or a subclass known to match) without counting.
template <class T, class U>
Ref<T> static_ref_cast(Ref<U>&& ref) noexcept {
  if constexpr (std::is_same_v<T, U>) {
    return std::move(ref);
  } else {
    static_assert(std::is_standard_layout_v<Ref<T>> && sizeof(Ref<T>) == sizeof(const T*));
    Ref<T> result;
    *reinterpret_cast<const T**>(&result) =
        static_cast<const T*>(static_cast<const Object*>(ref.release()));
    return result;
  }
}

} // namespace ctir::detail::traverse
