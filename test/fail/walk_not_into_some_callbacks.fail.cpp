// not_into covers every callback of a traversal, not some of them.
// expect: ctir::not_into<Node...>: wrap every callback of the traversal
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(f, ctir::not_into<ctir::Type>([](const ctir::Var&) {}), [](const ctir::For&) {});
  return 0;
}
