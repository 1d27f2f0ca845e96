// Tests of ctir/passes/default_pipeline.hpp: the standard pipeline at every opt_level.
#include <ctir/passes/default_pipeline.hpp>

#include <ctir/pass/instrument.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Records the name of every pass that reaches run_before_pass.
struct RanPasses {
  std::shared_ptr<std::vector<std::string>> names;
  std::string name() const { return "RanPasses"; }
  void run_before_pass(const IRModule&, const PassInfo& info) { names->emplace_back(info.name); }
};

/// The passes DefaultPipeline runs on `mod` at `opt_level`, in order (itself excluded).
std::vector<std::string> passes_run(const IRModule& mod, int opt_level) {
  auto names = std::make_shared<std::vector<std::string>>();
  PassContext ctx{{.opt_level = opt_level, .instruments = {RanPasses{names}}}};
  const PassContextScope scope = ctx.enter();
  static_cast<void>(passes::default_pipeline()(mod, ctx));
  std::erase(*names, std::string("DefaultPipeline"));
  return *names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

TEST_CASE("DefaultPipeline runs each standard pass from its opt_level on") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  add(%x, 0f)
}
)");
  const std::vector<std::string> o0 = passes_run(mod, 0);
  CHECK(contains(o0, "InferType"));
  CHECK(contains(o0, "SimplifyExpr"));
  CHECK(contains(o0, "FlattenBuffer"));
  CHECK_FALSE(contains(o0, "DeadCodeElimination"));
  CHECK_FALSE(contains(o0, "FoldConstant"));
  const std::vector<std::string> o1 = passes_run(mod, 1);
  CHECK(contains(o1, "DeadCodeElimination"));
  CHECK(contains(o1, "RemoveUnusedFunctions"));
  CHECK_FALSE(contains(o1, "UnrollLoop"));
  const std::vector<std::string> o2 = passes_run(mod, 2);
  CHECK(contains(o2, "FoldConstant"));
  CHECK(contains(o2, "UnrollLoop"));
  CHECK_FALSE(contains(o2, "EliminateCommonSubexpr"));
  CHECK(contains(passes_run(mod, 3), "EliminateCommonSubexpr"));
}

TEST_CASE("DefaultPipeline is registered by name") {
  REQUIRE(PassRegistry::global().contains("DefaultPipeline"));
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) {
  let %unused = exp(%x);
  multiply(%x, 1f)
}
def @dead(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %x
}
)");
  const IRModule expected = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %x
}
)");
  PassContext ctx{{.opt_level = 3}};
  const PassContextScope scope = ctx.enter();
  const IRModule out = PassRegistry::global().create("DefaultPipeline")(mod, ctx);
  CHECK_NOTHROW(assert_structural_equal(out, expected));
}

TEST_CASE("DefaultPipeline keeps what generated modules compute at opt levels 0 to 3") {
  const std::vector<IRModule> typed = well_typed_generated_modules(30);
  for (int level = 0; level <= 3; ++level) {
    CAPTURE(level);
    int compared = 0;
    for (const IRModule& mod : typed) {
      CAPTURE(print(mod));
      PassContext ctx{{.opt_level = level}};
      const PassContextScope scope = ctx.enter();
      // No rejection: a loop marked unroll whose bounds are not constants stays a loop.
      const IRModule out = passes::default_pipeline()(mod, ctx);
      compared += check_same_behaviour(mod, out, true);
    }
    MESSAGE("opt_level " << level << ": " << compared << " runs compared");
    CHECK(compared >= 60);
  }
}

TEST_CASE("DefaultPipeline at every opt level accepts the valid tensor-level parser file") {
  const IRModule mod =
      parse_module(read_test_file(test_data_dir() / "parser" / "valid" / "tensor_features.ctir"),
                   "tensor_features.ctir");
  for (int level = 0; level <= 3; ++level) {
    CAPTURE(level);
    PassContext ctx{{.opt_level = level}};
    const PassContextScope scope = ctx.enter();
    CHECK_NOTHROW(static_cast<void>(passes::default_pipeline()(mod, ctx)));
  }
}
