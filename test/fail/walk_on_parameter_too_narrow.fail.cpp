// on<StmtNode> binds every statement, which a `const For&` parameter cannot receive.
// expect: a callback's parameter type cannot receive every node it is bound to by on<...>
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

int main() {
  ctir::PrimFunc f;
  ctir::walk(f, ctir::on<ctir::StmtNode>([](const ctir::For&) {}));
  return 0;
}
