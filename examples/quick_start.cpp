// Quick start: build the add_one example and the mixed module of the unified IR, print them both
// ways.
#include <ctir/ctir.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/format_tree.hpp>

#include <iostream>

using namespace ctir;

/// `prim @add_one[%n](%A, %B) { for %i in range(0, %n) { %B[%i] = %A[%i] + 1f; } }`
PrimFunc make_add_one() {
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  return PrimFunc::make("add_one", {A, B},
                        For::make(i, 0, n, TensorStore::make(B, {i}, load(A, {i}) + 1.0f)));
}

/// A graph-level @main that calls the tensor-level @add_one in destination-passing style.
IRModule make_mixed_module() {
  IRModule mod;
  GlobalVar add_one = mod.add("add_one", make_add_one());
  TensorType ten = tensor_type({10}, DataType::float32());
  Var x = Var::make("x", ten);
  Expr doubled = call("multiply", {x, FloatImm::make(2.0)});
  Expr lowered = CallDps::make(add_one, {doubled}, ten);
  mod.add("main", Function::make({x}, call("add", {lowered, lowered}), ten));
  return mod;
}

int main() {
  PrimFunc add_one = make_add_one();
  std::cout << "== add_one as a tree\n" << format_tree(add_one) << '\n';
  std::cout << "== add_one as text\n" << print(add_one) << '\n';

  IRModule mod = make_mixed_module();
  std::cout << "== the mixed module as text\n" << print(mod) << '\n';
  std::cout << "== @main as a tree\n" << format_tree(mod.lookup("main"));
  return 0;
}
