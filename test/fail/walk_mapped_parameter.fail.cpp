// Mapped<Node> is what a map callback sees; a walk has no mapped children.
// expect: ctir::walk: a Mapped<Node> parameter is for map callbacks
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(f, [](const ctir::Mapped<ctir::Add>&) {});
  return 0;
}
