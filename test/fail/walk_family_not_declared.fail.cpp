// A walk over an IR type in a translation unit that has not seen the IR's families: without
// the check it would compile and silently skip every statement and expression.
// expect: has no family declared in this translation unit
// expect: include <ctir/ir/families.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  int loops = 0;
  ctir::walk(ctir::PrimFunc{}, ctir::on<ctir::For>([&](const ctir::For&) { ++loops; }));
  return loops;
}
