// A map callback must return a node; one returning void is a compile error.
// expect: ctir::map: this callback returns void; a map callback must return a node (return its
// input, or ctir::unchanged, to keep it)
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/map.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::PrimFunc g = ctir::map(f, [](const ctir::Var&) {});
  return g.defined() ? 1 : 0;
}
