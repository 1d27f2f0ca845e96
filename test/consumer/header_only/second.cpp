// The second translation unit of the header-only program (see first.cpp).
#include "program.hpp"

#include <ctir/all.hpp>

namespace header_only_program {

ctir::IRModule make_module() {
  using namespace ctir;
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  IRModule mod;
  mod.add("scale",
          PrimFunc::make("scale", {A, B},
                         For::make(i, 0, n, TensorStore::make(B, {i}, load(A, {i}) * 2.0f))));
  return mod;
}

std::string print_module(const ctir::IRModule& mod) { return ctir::print(mod); }

} // namespace header_only_program
