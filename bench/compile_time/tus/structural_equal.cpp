// One structural_equal call site: compare two modules (graph-level and tensor-level).
#include <ctir/ctir.hpp>

bool same_modules(const ctir::IRModule& a, const ctir::IRModule& b) {
  return ctir::structural_equal(a, b);
}

int main() {}
