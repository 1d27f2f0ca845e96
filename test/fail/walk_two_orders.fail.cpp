// A walk has one order.
// expect: ctir::walk: pass at most one walk order
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(
      f, [](const ctir::For&) {}, ctir::pre_order, ctir::post_order);
  return 0;
}
