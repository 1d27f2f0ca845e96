// Uses ctir through find_package(ctir), as installed: builds, prints and checks a module.
#include <ctir/ctir.hpp>
#include <ctir/text/printer.hpp>

#include <iostream>

int main() {
  using namespace ctir;
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  IRModule mod;
  mod.add("scale",
          PrimFunc::make("scale", {A},
                         For::make(i, 0, n, TensorStore::make(A, {i}, load(A, {i}) * 2.0f))));
  const std::string text = print(mod);
  std::cout << text;
  return text.find("%A[%i] = %A[%i] * 2f;") != std::string::npos && mod.contains("scale") ? 0 : 1;
}
