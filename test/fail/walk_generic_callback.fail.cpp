// A walk callback whose parameter is generic does not say which nodes it wants.
// expect: ctir::walk: cannot tell which nodes this callback takes
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(f, [](const auto&) {});
  return 0;
}
