// Proves the must-not-compile harness: a dependent static_assert fires on use.
// expect: ctir sample: this must not compile

#include <ctir/ctir.hpp>

namespace {

template <class T>
inline constexpr bool false_v = false;

template <class T>
void must_not_instantiate() {
  static_assert(false_v<T>, "ctir sample: this must not compile");
}

} // namespace

int main() {
  must_not_instantiate<int>();
  return 0;
}
