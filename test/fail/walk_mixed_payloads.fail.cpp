// The callbacks of one walk interrupt with one payload type.
// expect: ctir::walk: the callbacks interrupt with payloads of different types
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(
      f, [](const ctir::For& loop) { return ctir::interrupt(loop->var); },
      [](const ctir::TensorStore& store) { return ctir::interrupt(store->value); });
  return 0;
}
