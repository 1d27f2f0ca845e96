// A non-owning reference to a callable, called through one function pointer: how the pass
// infrastructure's code common to every pass calls back into the pass, so that this code is
// compiled once (in the library, in compiled mode) instead of once per pass type.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace ctir::detail {

template <class Signature>
class function_ref;

/// Refers to a callable that outlives it (bind it to a named object, never a temporary).
template <class R, class... Args>
class function_ref<R(Args...)> {
public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, function_ref> &&
           std::is_invocable_r_v<R, F&, Args...>) function_ref(F& callable)
  noexcept
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<F*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

private:
  void* object_;
  R (*call_)(void*, Args...);
};

} // namespace ctir::detail
