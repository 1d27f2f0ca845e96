// Tests of ctir/text/dot.hpp: graph-level dataflow as Graphviz dot.
#include <ctir/text/dot.hpp>

#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <cstddef>
#include <string>
#include <string_view>

using namespace ctir;

namespace {

std::size_t dot_count(std::string_view text, std::string_view part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string_view::npos;
       at = text.find(part, at + part.size())) {
    ++n;
  }
  return n;
}

/// Node declarations: the lines with a label that are not edges.
std::size_t dot_node_count(std::string_view dot) {
  std::size_t n = 0;
  while (!dot.empty()) {
    const std::size_t end = dot.find('\n');
    const std::string_view line = dot.substr(0, end);
    const bool node = line.find("[label=") != std::string_view::npos &&
                      line.find(" -> ") == std::string_view::npos;
    n += node ? 1 : 0;
    dot.remove_prefix(end == std::string_view::npos ? dot.size() : end + 1);
  }
  return n;
}

} // namespace

TEST_CASE("a shared value is drawn once, with an edge to each of its users") {
  const IRModule mod = parse_module(R"(def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = exp(%x);
  multiply(%0, %0)
})");
  const std::string dot = print_dot(mod);
  CHECK(dot.starts_with("digraph ctir {\n"));
  CHECK(dot.ends_with("}\n"));
  CHECK(dot_count(dot, "label=\"exp\"") == 1);
  CHECK(dot_count(dot, "label=\"multiply\"") == 1);
  CHECK(dot_count(dot, "label=\"%x: Tensor[(2), float32]\"") == 1);
  CHECK(dot_count(dot, "subgraph cluster_1 {") == 1);
  CHECK(dot_count(dot, "label=\"@main\";") == 1);
  // x -> exp, exp -> multiply twice (operands 0 and 1), multiply -> return.
  CHECK(dot_count(dot, "  n0 -> n1;") == 1);
  CHECK(dot_count(dot, "  n1 -> n2 [label=\"0\"];") == 1);
  CHECK(dot_count(dot, "  n1 -> n2 [label=\"1\"];") == 1);
  CHECK(dot_count(dot, "  n2 -> n3;") == 1);
  CHECK(dot_count(dot, " -> ") == 4);
}

TEST_CASE("lets, tuples, projections, ifs, closures, calls and call_dps read as labelled nodes") {
  const IRModule mod =
      parse_module(R"(def @main(%x: Tensor[(2), float32], %c: bool) -> Tensor[(2), float32] {
  %0 = (%x, %x);
  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {
    negative(%a)
  };
  %1 = %f(%0.1);
  %2 = if (%c) {
    %1
  } else {
    @g(%x)
  };
  %3 = call_dps @k(%2) -> Tensor[(2), float32];
  %4 = reshape(%3, newshape=[2]);
  multiply(%4, 2f)
}

def @g(%y: Tensor[(2), float32]) -> Tensor[(2), float32] {
  add(%y, const([1f, 2f]))
}

prim @k(%A: Tensor[(2), float32], %B: Tensor[(2), float32]) {
  for %i in range(0, 2) {
    %B[%i] = %A[%i];
  }
}
)");
  const std::string dot = print_dot(mod);
  CHECK(dot_count(dot, "label=\"tuple\"") == 1);
  CHECK(dot_count(dot, "label=\".1\"") == 1);
  CHECK(dot_count(dot, "label=\"%f\"") == 1);
  CHECK(dot_count(dot, "[label=\"let\"]") == 1);
  CHECK(dot_count(dot, "subgraph cluster_") == 3); // @main, its closure, @g
  CHECK(dot_count(dot, "label=\"fn(%a)\";") == 1);
  CHECK(dot_count(dot, "[label=\"result\"]") == 1);
  CHECK(dot_count(dot, "[label=\"callee\"]") == 1);
  CHECK(dot_count(dot, "label=\"if\", shape=diamond") == 1);
  CHECK(dot_count(dot, "[label=\"cond\"]") == 1);
  CHECK(dot_count(dot, "[label=\"then\"]") == 1);
  CHECK(dot_count(dot, "[label=\"else\"]") == 1);
  CHECK(dot_count(dot, "label=\"@g\", shape=box") == 1);
  CHECK(dot_count(dot, "label=\"call_dps @k\\n-> Tensor[(2), float32]\"") == 1);
  CHECK(dot_count(dot, "label=\"reshape\\nnewshape=[2]\"") == 1);
  CHECK(dot_count(dot, "label=\"[1f, 2f]\", shape=note") == 1);
  CHECK(dot_count(dot, "label=\"2f\", shape=note") == 1);
  CHECK(dot_count(dot, "label=\"return\"") == 2);
  // The tensor-level @k has no cluster: it is drawn only where call_dps names it.
  CHECK(dot_count(dot, "%A") == 0);
}

TEST_CASE("a large constant shows its type; a module without a graph-level function is an error") {
  const IRModule mod = parse_module(R"(def @main() -> Tensor[(2, 3), float32] {
  const([[1f, 2f, 3f], [4f, 5f, 6f]])
})");
  CHECK(dot_count(print_dot(mod), "label=\"constant\\nfloat32[2, 3]\"") == 1);
  const IRModule tensor_only = parse_module(R"(prim @k(%A: Tensor[(2), float32]) {
  %A[0] = 1f;
}
)");
  CHECK_THROWS_WITH_AS(print_dot(tensor_only),
                       "ctir: the module has no graph-level function to draw", Error);
}

TEST_CASE("labels are quoted for dot, and one function can be drawn under a name") {
  const Var x = Var::make("x\"q", TensorType::make({2}, DataType::float32()));
  const Function f = Function::make({x}, x);
  const std::string dot = print_dot(f, "odd");
  CHECK(dot_count(dot, "label=\"@odd\";") == 1);
  CHECK(dot_count(dot, "label=\"%x\\\"q: Tensor[(2), float32]\"") == 1);
}

TEST_CASE("a Fibonacci DAG of 100,000 bindings is drawn in one node per distinct value") {
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  const Var y = Var::make("y", type);
  const Function f = Function::make({x, y}, testing::fibonacci_dag(x, y, 100000));
  const std::string dot = print_dot(f);
  // Two parameters, 100,000 calls, the return node; two operands per call and the result.
  CHECK(dot_count(dot, "label=\"add\"") == 100000);
  CHECK(dot_count(dot, " -> n") == 200001);
  CHECK(dot_node_count(dot) == 100003);
}

TEST_CASE("closures nested 100,000 deep are drawn as nested clusters without deep recursion") {
  const Type type = TensorType::make({2}, DataType::float32());
  const Var x = Var::make("x", type);
  Expr body = x;
  for (int depth = 0; depth < 100000; ++depth) {
    body = Function::make({Var::make("p", type)}, body);
  }
  const std::string dot = print_dot(Function::make({x}, body));
  CHECK(dot_count(dot, "subgraph cluster_") == 100001);
  CHECK(dot_count(dot, "[label=\"result\"]") == 100000);
  // Indentation stops growing, so the output stays linear in the closures.
  CHECK(dot.size() < 100001 * 400);
}
