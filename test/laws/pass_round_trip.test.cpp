// The round-trip law over pass outputs: whatever a pass produces, the printer writes text
// that the parser reads back as the same module, and that text prints as itself.
//
// Checked for every module under test/data that the parser accepts, every registered
// standard pass, DefaultPipeline at -O1 to -O3 and a lowering pipeline; and for generated
// modules of the shapes that broke it (closures called in both branches of an if, shared
// values, lets inside shared values, call_dps into a loop kernel) through the -O2 and
// -O3 pipelines. A pass may refuse an input with an error: that case is skipped and
// counted, never a violation. A pass also keeps a well-formed module well-formed.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/runtime/pass/erased.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <doctest/doctest.h>
#include <random_module.hpp>
#include <scoped_text_module.hpp>
#include <test_data.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::read_test_file;
using ctir::testing::test_data_dir;

namespace {

/// A module to run pipelines on, and where it came from.
struct Input {
  std::string name;
  IRModule module;
};

/// A pipeline and the opt_level it runs at.
struct Pipeline {
  std::string text;
  int opt_level = 2;
  std::string label() const { return text + " -O" + std::to_string(opt_level); }
};

/// Every module under test/data that parses: golden files hold an input and, after a
/// `#### expected` line, the output; each part is a module of its own. Files the parser
/// refuses (the invalid inputs, the tools' error cases) are not inputs of the law.
std::vector<Input> data_inputs() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test_data_dir())) {
    // Filtered by the path under test/data, not the whole path (a checkout may be anywhere).
    const std::string relative =
        std::filesystem::relative(entry.path(), test_data_dir()).generic_string();
    if (entry.is_regular_file() && entry.path().extension() == ".ctir" &&
        relative.find("invalid") == std::string::npos &&
        relative.find("fuzz") == std::string::npos) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Input> inputs;
  const std::string marker = "#### expected";
  for (const auto& file : files) {
    const std::string text = read_test_file(file);
    const std::string name = std::filesystem::relative(file, test_data_dir()).string();
    const std::size_t at = text.find(marker);
    std::vector<std::pair<std::string, std::string>> parts = {{name, text.substr(0, at)}};
    if (at != std::string::npos) {
      parts.emplace_back(name + " (expected)", text.substr(at + marker.size()));
    }
    for (const auto& [part_name, part] : parts) {
      try {
        inputs.push_back({part_name, parse_module(part, part_name)});
      } catch (const Error&) {
      }
    }
  }
  return inputs;
}

/// Every registered pass alone (PrintIR writes to stdout, DefaultPipeline runs below at
/// each level), DefaultPipeline at -O1 to -O3, and a pipeline that lowers and folds.
std::vector<Pipeline> all_pipelines() {
  std::vector<Pipeline> pipelines;
  for (const std::string& name : PassRegistry::global().names()) {
    if (name != "PrintIR" && name != "DefaultPipeline") {
      pipelines.push_back({name});
    }
  }
  for (int level = 1; level <= 3; ++level) {
    pipelines.push_back({"DefaultPipeline", level});
  }
  pipelines.push_back(
      {"InferType,Simplify,DeadCodeElimination,LegalizeOps,FoldConstant,InferType,SimplifyExpr"});
  return pipelines;
}

/// How the law fared over many runs.
struct Tally {
  std::size_t checked = 0;
  std::size_t refused = 0;
  std::size_t violations = 0;
  std::vector<std::string> refusals;
};

/// Checks the law on `module`: it prints, the text parses back to a structurally equal
/// module, and that module prints as the same text. Returns false on a violation, which
/// fails the test with the text.
bool check_law(const IRModule& module, const std::string& where) {
  INFO(where);
  const std::string printed = print(module);
  IRModule parsed;
  try {
    parsed = parse_module(printed, "printed.ctir");
  } catch (const Error& error) {
    FAIL_CHECK("the printed module does not parse: " << error.what() << "\n" << printed);
    return false;
  }
  try {
    assert_structural_equal(module, parsed);
  } catch (const Error& error) {
    FAIL_CHECK("the printed module reads back as another module: " << error.what() << "\n"
                                                                   << printed);
    return false;
  }
  const std::string again = print(parsed);
  if (again != printed) {
    FAIL_CHECK("printing is not a fixed point:\n" << printed << "\nprints again as\n" << again);
    return false;
  }
  return true;
}

/// Runs `pipeline` on `input` and checks the law on the result; a pass that refuses the
/// input with an error is recorded in `tally`.
void run_and_check(const Input& input, const Pipeline& pipeline, Tally& tally) {
  const std::string where = input.name + " | " + pipeline.label();
  IRModule out;
  try {
    const Pass pass = parse_pipeline(pipeline.text);
    PassContext ctx{{.opt_level = pipeline.opt_level}};
    const PassContextScope scope = ctx.enter();
    out = pass(input.module);
  } catch (const Error& error) {
    ++tally.refused;
    tally.refusals.push_back(where + ": " + error.what());
    return;
  }
  ++tally.checked;
  if (!check_law(out, where)) {
    ++tally.violations;
  }
  // A pass keeps a well-formed module well-formed (what ctir-opt --verify-each checks).
  if (verify_well_formed(input.module).empty()) {
    const std::vector<WellFormedDiagnostic> problems = verify_well_formed(out);
    if (!problems.empty()) {
      ++tally.violations;
      FAIL_CHECK(where << ": the output is not well-formed: " << problems.front().str() << "\n"
                       << print(out));
    }
  }
}

/// A generated module of a shape that broke the law, as text the parser reads.
struct Shape {
  std::string name;
  std::string text;
};

/// A closure bound by a let inside each branch of an if and called there, the branches'
/// results feeding a call_dps into a loop kernel; `k` varies the closures' bodies.
std::string closures_in_branches(int k) {
  const std::string op = k % 2 == 0 ? "exp" : "negative";
  const std::string shared = k % 3 == 0 ? "%x" : "%0";
  return R"(prim @kernel[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
def @main(%x: Tensor[(4), float32], %c: bool) -> Tensor[(4), float32] {
  %0 = add(%x, 1f);
  %1 = if (%c) {
    let %f = fn (%a: Tensor[(4), float32]) -> Tensor[(4), float32] { )" +
         op + R"((%a) };
    %f()" +
         shared + R"()
  } else {
    let %f = fn (%a: Tensor[(4), float32]) -> Tensor[(4), float32] { )" +
         op + R"((%a) };
    multiply(%f()" +
         shared + R"(), 2f)
  };
  %2 = call_dps @kernel(%1) -> Tensor[(4), float32];
  %3 = call_dps @kernel(%0) -> Tensor[(4), float32];
  add(%2, %3)
}
)";
}

/// A value used several times, with a let inside it, and the same computation written
/// twice (for EliminateCommonSubexpr to share).
std::string shared_values(int k) {
  const std::string op = k % 2 == 0 ? "exp" : "tanh";
  return R"(def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {
  %0 = {
    let %v = )" +
         op + R"((%x);
    add(%v, %v)
  };
  %1 = )" +
         op +
         R"((%x);
  %2 = )" +
         op +
         R"((%x);
  %3 = multiply(%0, %1);
  %4 = add(%3, %2);
  add(%0, %4)
}
)";
}

/// The same closure bound in both branches, and calls of it shared between them.
std::string closure_per_branch_with_shared_call(int k) {
  const std::string value = k % 2 == 0 ? "const([1f, 2f, 3f, 4f])" : "%x";
  return R"(prim @kernel[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] * 2f;
  }
}
def @main(%x: Tensor[(4), float32], %c: bool) -> Tensor[(4), float32] {
  %0 = if (%c) {
    let %g = fn (%a: Tensor[(4), float32]) -> Tensor[(4), float32] { add(%a, )" +
         value + R"() };
    %1 = %g(%x);
    %2 = %g(%1);
    call_dps @kernel(%2) -> Tensor[(4), float32]
  } else {
    let %g = fn (%a: Tensor[(4), float32]) -> Tensor[(4), float32] { add(%a, )" +
         value + R"() };
    %3 = %g(%x);
    call_dps @kernel(%3) -> Tensor[(4), float32]
  };
  %4 = call_dps @kernel(%0) -> Tensor[(4), float32];
  add(%4, %0)
}
)";
}

std::vector<Shape> generated_shapes() {
  std::vector<Shape> shapes;
  for (int k = 0; k < 6; ++k) {
    shapes.push_back({"closures in branches #" + std::to_string(k), closures_in_branches(k)});
    shapes.push_back({"shared values #" + std::to_string(k), shared_values(k)});
    shapes.push_back({"closure per branch with shared calls #" + std::to_string(k),
                      closure_per_branch_with_shared_call(k)});
  }
  return shapes;
}

} // namespace

TEST_CASE("every pass output under test/data round trips through the text format") {
  const std::vector<Input> inputs = data_inputs();
  CHECK(inputs.size() >= 60);
  const std::vector<Pipeline> pipelines = all_pipelines();
  CHECK(pipelines.size() >= 15);
  Tally tally;
  for (const Input& input : inputs) {
    for (const Pipeline& pipeline : pipelines) {
      run_and_check(input, pipeline, tally);
    }
  }
  MESSAGE("checked " << tally.checked << " pass outputs; " << tally.refused
                     << " runs refused their input");
  if (std::getenv("CTIR_SHOW_REFUSALS") != nullptr) {
    for (const std::string& refusal : tally.refusals) {
      MESSAGE(refusal);
    }
  }
  CHECK(tally.violations == 0);
  // Most runs produce a module: the law is checked, not skipped.
  CHECK(tally.checked > 10 * tally.refused);
}

TEST_CASE("pass outputs of generated modules round trip: closures, sharing, call_dps") {
  const std::vector<Pipeline> pipelines = {{"DefaultPipeline", 2},
                                           {"DefaultPipeline", 3},
                                           {"ToANormalForm,DefaultPipeline", 3},
                                           all_pipelines().back()};
  Tally tally;
  for (const Shape& shape : generated_shapes()) {
    IRModule module;
    try {
      module = parse_module(shape.text, shape.name);
    } catch (const Error& error) {
      FAIL_CHECK(shape.name << " does not parse: " << error.what() << "\n" << shape.text);
      continue;
    }
    REQUIRE(check_law(module, shape.name));
    for (const Pipeline& pipeline : pipelines) {
      run_and_check({shape.name, module}, pipeline, tally);
    }
  }
  CHECK(tally.violations == 0);
  CHECK(tally.refused == 0);
  for (const std::string& refusal : tally.refusals) {
    MESSAGE(refusal);
  }
}

TEST_CASE("pass outputs of random modules round trip") {
  const std::vector<Pipeline> pipelines = {{"DefaultPipeline", 2},
                                           {"DefaultPipeline", 3},
                                           {"ToANormalForm,DefaultPipeline", 3},
                                           all_pipelines().back()};
  Tally tally;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const Input input{"random module, seed " + std::to_string(seed),
                      testing::RandomModuleGenerator(seed).module(1 + static_cast<int>(seed % 4))};
    for (const Pipeline& pipeline : pipelines) {
      run_and_check(input, pipeline, tally);
    }
  }
  MESSAGE("checked " << tally.checked << " pass outputs; " << tally.refused
                     << " runs refused their input");
  CHECK(tally.violations == 0);
  CHECK(tally.checked > 200);
}

TEST_CASE("pass outputs of generated scoped modules round trip: lets, closures and sharing "
          "in branches") {
  const std::vector<Pipeline> pipelines = {{"EliminateCommonSubexpr"},
                                           {"DefaultPipeline", 2},
                                           {"DefaultPipeline", 3},
                                           {"ToANormalForm,DefaultPipeline", 3},
                                           all_pipelines().back()};
  Tally tally;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const std::string text =
        testing::ScopedTextGenerator(seed).module(1 + static_cast<int>(seed % 4));
    const std::string name = "scoped module, seed " + std::to_string(seed);
    IRModule module;
    try {
      module = parse_module(text, name);
    } catch (const Error& error) {
      FAIL_CHECK(name << " does not parse: " << error.what() << "\n" << text);
      continue;
    }
    if (!check_law(module, name)) {
      continue;
    }
    for (const Pipeline& pipeline : pipelines) {
      run_and_check({name, module}, pipeline, tally);
    }
  }
  CHECK(tally.violations == 0);
  CHECK(tally.refused == 0);
}

TEST_CASE("pass outputs stay within the parser's limits: deep types, many temporaries") {
  const std::string type = "Tensor[(4), float32]";
  const int n = 600; // more than max_nesting_depth
  auto numbered = [](const std::string& prefix, int k) { return prefix + std::to_string(k); };
  // A tuple of a tuple ... 600 deep from flat bindings: InferType annotates the let
  // with its 600-deep type.
  std::string tuples = "def @main(%x: " + type + ") {\n  %0 = (%x,);\n";
  for (int k = 1; k <= n; ++k) {
    tuples += "  " + numbered("%", k) + " = (" + numbered("%", k - 1) + ",);\n";
  }
  tuples += "  let %t = " + numbered("%", n) + ";\n  %x\n}\n";
  // 600 if temporaries, each on the one before.
  std::string ifs = "def @main(%x: " + type + ", %c: bool) -> " + type + " {\n  %0 = exp(%x);\n";
  for (int k = 1; k <= n; ++k) {
    ifs += "  " + numbered("%", k) + " = if (%c) { add(" + numbered("%", k - 1) +
           ", 1f) } else { " + numbered("%", k - 1) + " };\n";
  }
  ifs += "  " + numbered("%", n) + "\n}\n";
  // 600 closures, each calling the one before, called in if branches.
  std::string closures = "def @main(%x: " + type + ", %c: bool) -> " + type +
                         " {\n  let %f0 = fn (%a: " + type + ") -> " + type + " { exp(%a) };\n";
  for (int k = 1; k <= n; ++k) {
    closures += "  let " + numbered("%f", k) + " = fn (%a: " + type + ") -> " + type + " { " +
                numbered("%f", k - 1) + "(%a) };\n";
  }
  closures +=
      "  if (%c) { " + numbered("%f", n) + "(%x) } else { " + numbered("%f", n - 1) + "(%x) }\n}\n";
  const std::vector<Pipeline> pipelines = {{"InferType"},
                                           {"ToANormalForm"},
                                           {"DefaultPipeline", 2},
                                           {"DefaultPipeline", 3},
                                           all_pipelines().back()};
  Tally tally;
  for (const auto& [name, text] : {std::pair{"deep tuple", tuples}, std::pair{"if chain", ifs},
                                   std::pair{"closure chain", closures}}) {
    const Input input{name, parse_module(text, name)};
    REQUIRE(check_law(input.module, name));
    for (const Pipeline& pipeline : pipelines) {
      run_and_check(input, pipeline, tally);
    }
  }
  CHECK(tally.violations == 0);
  CHECK(tally.refused == 0);
}

TEST_CASE("printing is a fixed point when one variable is bound at several sites") {
  // Ill-formed IR (the verifier rejects it), but what a faulty pass leaves must still
  // print as text that reads back and prints as itself: each binding site gets its own
  // name, which the uses after it print.
  const Var a = Var::make("A", tensor_type({4}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  IRModule loops;
  loops.add("p",
            PrimFunc::make("p", {a},
                           SeqStmt::make({For::make(i, 0, 4, TensorStore::make(a, {i}, 1.0f)),
                                          For::make(i, 0, 4, TensorStore::make(a, {i}, 2.0f))})));
  const Var x = Var::make("x", tensor_type({4}, DataType::float32()));
  const Var c = Var::make("c", DataType::boolean());
  const Var v = Var::make("v12", tensor_type({4}, DataType::float32()));
  IRModule lets;
  lets.add("main", Function::make({x, c},
                                  If::make(c, Let::make(v, call("exp", {x}), call("add", {v, x})),
                                           Let::make(v, call("tanh", {x}), call("add", {v, v}))),
                                  {}, {}, "main"));
  for (const IRModule& module : {loops, lets}) {
    const std::string printed = print(module);
    INFO(printed);
    IRModule parsed;
    REQUIRE_NOTHROW(parsed = parse_module(printed));
    CHECK(print(parsed) == printed);
  }
  CHECK(print(loops).find("for %i_1 in range(0, 4) {\n    %A[%i_1] = 2f;") != std::string::npos);
  CHECK(print(lets).find("let %v12_1: Tensor[(4), float32] = tanh(%x);\n    add(%v12_1, %v12_1)") !=
        std::string::npos);
}
