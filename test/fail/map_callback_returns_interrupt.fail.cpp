// A map callback cannot interrupt: it returns a node (walk can stop early).
// expect: ctir::map: this callback returns a WalkResult (advance, skip or interrupt); a map
// callback must return a node
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/map.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::PrimFunc g = ctir::map(f, [](const ctir::Var& v) { return ctir::interrupt(v); });
  return g.defined() ? 1 : 0;
}
