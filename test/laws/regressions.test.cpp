// Replays the saved cases of the differential pipeline fuzzer (test/data/regressions): each
// file's pipeline, from its `# ctir-opt reproducer:` line, runs on its module with the
// verifier after every pass, and the result must verify, round trip, leave the input
// unchanged and compute what the input computes (ctir::testing::check_case).
#include <ctir/ir/builder.hpp>
#include <ctir/ir/ir.hpp>

#include <differential.hpp>
#include <doctest/doctest.h>
#include <test_data.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::DiffCase;
using ctir::testing::DiffResult;
using ctir::testing::read_test_file;
using ctir::testing::test_data_dir;

namespace {

/// The saved cases: every .ctir file under test/data/regressions with a pipeline line.
std::vector<std::filesystem::path> saved_cases() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(test_data_dir() / "regressions")) {
    if (entry.path().extension() == ".ctir" &&
        read_test_file(entry.path()).find(testing::reproducer_marker) != std::string::npos) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// A pass that changes what a module computes, registered for these tests as
/// TestBreakLiterals: it replaces every float literal 1f of graph-level code by 2f.
struct BreakLiterals {
  PassInfo info() const { return {.name = "TestBreakLiterals", .opt_level = 0}; }
  IRModule operator()(const IRModule& mod, const PassContext&) const {
    IRModule out;
    for (std::size_t i = 0; i < mod.size(); ++i) {
      const BaseFunc f = mod.function_at(i);
      if (f.as<FunctionNode>() != nullptr) {
        out.add(mod.global_at(i)->name,
                map(downcast<FunctionNode>(f), on<FloatImm>([](const FloatImm& imm) -> PrimExpr {
                      return imm->value == 1.0 ? PrimExpr(FloatImm::make(2.0)) : PrimExpr(imm);
                    })));
      } else {
        out.add(mod.global_at(i)->name, f);
      }
    }
    return out;
  }
};

void register_break_literals() {
  if (!PassRegistry::global().contains("TestBreakLiterals")) {
    PassRegistry::global().add<BreakLiterals>();
  }
}

} // namespace

TEST_CASE("every saved case of the differential fuzzer passes the differential check") {
  const std::vector<std::filesystem::path> files = saved_cases();
  CHECK(!files.empty());
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    CAPTURE(name);
    const DiffCase c = testing::read_case_file(read_test_file(file), name);
    const DiffResult result = testing::check_case(c);
    CHECK_MESSAGE(!result.failed(), testing::to_string(result.kind) << ": " << result.message);
    // A saved case checks something: its pipeline runs to the end.
    CHECK(result.kind == DiffResult::Kind::passed);
  }
}

TEST_CASE("a saved case's pipeline line reads back as the options it was written from") {
  testing::PipelineRun run;
  run.pipeline = "InferType,sequential{opt_level=1}(FoldConstant,Simplify)";
  run.opt_level = 3;
  run.disabled = {"Simplify"};
  run.required = {"UnrollLoop", "RemoveNoOp"};
  run.config = {{"tensor.UnrollLoop.max_extent", "4"}, {"transform.entry_functions", "main, f"}};
  CHECK(run.command_line() ==
        "--opt-level 3 --disable Simplify --required UnrollLoop,RemoveNoOp --config "
        "tensor.UnrollLoop.max_extent=4 --config 'transform.entry_functions=main, f' -p "
        "'InferType,sequential{opt_level=1}(FoldConstant,Simplify)' --verify-each");
  const auto back = testing::parse_command_line(run.command_line());
  REQUIRE(back.has_value());
  CHECK(back->pipeline == run.pipeline);
  CHECK(back->opt_level == 3);
  CHECK(back->disabled == run.disabled);
  CHECK(back->required == run.required);
  CHECK(back->config == run.config);
  // Options that could write files are not part of a saved case.
  CHECK_FALSE(testing::parse_command_line("-p InferType --dump-ir /tmp").has_value());
  CHECK_FALSE(testing::parse_command_line("--opt-level 2").has_value());
}

TEST_CASE("a file without a pipeline line is not a saved case") {
  CHECK_THROWS_WITH_AS(testing::read_case_file("def @main() { 1f }\n", "plain.ctir"),
                       doctest::Contains("no '# ctir-opt reproducer: ' line"), Error);
}

TEST_CASE("the differential check reports a pass that changes what a function computes") {
  register_break_literals();
  const IRModule module = parse_module(R"(def @main(%x: Tensor[(4), float32]) {
  add(%x, 1f)
}
)");
  const DiffResult broken = testing::check_case({module, {.pipeline = "TestBreakLiterals"}});
  CHECK(broken.kind == DiffResult::Kind::behaviour);
  CHECK(broken.message.starts_with("@main (inputs of seed 1) result 0: float element 0 differs"));
  const DiffResult kept = testing::check_case({module, {.pipeline = "InferType,FoldConstant"}});
  CHECK(kept.kind == DiffResult::Kind::passed);
  CHECK(kept.compared == 2);
}

TEST_CASE("minimizing a failing case keeps the pass that fails and drops the rest") {
  register_break_literals();
  const IRModule module = parse_module(R"(def @main(%x: Tensor[(4), float32]) {
  %0 = exp(%x);
  add(%0, 1f)
}
prim @unused[%n](%A: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %A[%i] = 0f;
  }
}
)");
  const DiffCase failing{
      module,
      {.pipeline = "InferType,sequential(Simplify,TestBreakLiterals),FoldConstant",
       .opt_level = 3}};
  REQUIRE(testing::check_case(failing).kind == DiffResult::Kind::behaviour);
  const DiffCase small = testing::minimize(failing, DiffResult::Kind::behaviour);
  CHECK(small.run.pipeline == "TestBreakLiterals");
  CHECK(small.run.opt_level == 0);
  CHECK(small.module.size() == 1);
  CHECK(testing::check_case(small).kind == DiffResult::Kind::behaviour);
  // Saved and read back, it fails the same way.
  const DiffCase read = testing::read_case_file(testing::case_file_text(small, {"a note"}), "x");
  CHECK(read.run.pipeline == small.run.pipeline);
  CHECK(testing::check_case(read).kind == DiffResult::Kind::behaviour);
}

TEST_CASE("generated cases pass the differential check: modules through random pipelines") {
  // The fuzzer's first seeds: CI's run of the differential fuzzer (the fuzzer itself, run on
  // demand, goes on from here).
  constexpr std::uint64_t seeds = 500;
  std::size_t passed = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const DiffCase c = testing::random_case(seed);
    const DiffResult result = testing::check_case(c);
    CHECK_MESSAGE(!result.failed(), "seed " << seed << ": " << testing::to_string(result.kind)
                                            << ": " << result.message << "\n"
                                            << testing::case_file_text(c, {}));
    passed += result.kind == DiffResult::Kind::passed ? 1U : 0U;
  }
  // The generated modules are valid and well typed: most cases run to the end.
  CHECK(passed >= seeds * 5 / 6);
}
