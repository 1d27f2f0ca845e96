// MLIR 14's equivalent of walk.cpp: count the integer additions of a module.
#include "mlir/Dialect/Arithmetic/IR/Arithmetic.h"
#include "mlir/IR/BuiltinOps.h"

int count_adds(mlir::ModuleOp module) {
  int count = 0;
  module.walk([&](mlir::arith::AddIOp) { ++count; });
  return count;
}

int main() {}
