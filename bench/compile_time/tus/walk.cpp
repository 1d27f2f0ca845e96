// One walk call site: count the additions of a tensor-level function.
#include <ctir/ctir.hpp>

int count_adds(const ctir::PrimFunc& function) {
  int count = 0;
  ctir::walk(function, ctir::on<ctir::AddNode>([&](const ctir::Add&) { ++count; }));
  return count;
}

int main() {}
