// A walk callback returns void or a WalkResult, not a value.
// expect: ctir::walk: a walk callback returns void, ctir::advance, ctir::skip or
// ctir::interrupt(payload)
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(f, [](const ctir::For&) { return 1; });
  return 0;
}
