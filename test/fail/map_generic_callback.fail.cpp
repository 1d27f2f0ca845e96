// A map callback whose parameter is generic does not say which nodes it rewrites.
// expect: ctir::map: cannot tell which nodes this callback takes
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/map.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::PrimFunc g = ctir::map(f, [](const auto& node) { return node; });
  return g.defined() ? 1 : 0;
}
