// A map callback returns a Ref, a MapResult or ctir::unchanged, not a plain value.
// expect: ctir::map: a map callback must return a node: a Ref<Node>, a MapResult<Node> or
// ctir::unchanged
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/map.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::PrimFunc g = ctir::map(f, [](const ctir::Var&) { return 42; });
  return g.defined() ? 1 : 0;
}
