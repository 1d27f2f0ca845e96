// Tests of the eval umbrella: a whole mixed module run end to end on random inputs.
#include <ctir/eval/eval.hpp> // first: the header must compile on its own

#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

using namespace ctir;

TEST_CASE("the parser's graph-features module runs end to end on random inputs") {
  std::ifstream file(CTIR_TEST_DATA_DIR "/parser/valid/graph_features.ctir");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  const IRModule mod = parse_module(text.str(), "graph_features.ctir");
  eval::Interpreter interp(mod);
  const auto inputs = eval::random_inputs(mod, "main", 5);
  const auto first = interp.call("main", inputs);
  const auto second = interp.call("main", inputs);
  REQUIRE(first.size() == 1);
  CHECK(type_str(first[0].type()) == "Tensor[(2, 3), float32]");
  CHECK(first[0] == second[0]);
  CHECK(eval::to_string(first[0]).rfind("Tensor[(2, 3), float32] [[", 0) == 0);
}
