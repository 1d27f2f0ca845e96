// Tests of ctir/pass/function_pass.hpp: passes over graph-level and tensor-level functions.
#include <ctir/pass/function_pass.hpp>

#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {
/// A class-based graph-level function pass that replaces every function by `f1`.
struct ReplaceFunctions {
  Function replacement;
  static constexpr PassInfo info() { return {"ReplaceFunctions", 1}; }
  Function transform_function(Function, const IRModule&, const PassContext&) const {
    return replacement;
  }
};
} // namespace

TEST_CASE("a function pass that replaces every function returns a new module") {
  const Function f1 = identity_function("f1");
  const IRModule mod = sample_module();
  const IRModule out = run_pass(ReplaceFunctions{f1}, mod);
  CHECK_FALSE(out.same_as(mod));
  CHECK(out.lookup("main").same_as(f1));
  CHECK(out.lookup("helper").same_as(f1));
  CHECK(out.lookup("fill").is<PrimFuncNode>()); // not a graph-level function
  CHECK_FALSE(mod.lookup("main").same_as(f1));
}

TEST_CASE("a function pass that changes nothing returns the very same module") {
  const auto p = make_function_pass("Nothing", 0, [](Function f) { return f; });
  const IRModule mod = sample_module();
  CHECK(p(mod).same_as(mod));
}

TEST_CASE("a function pass sees each graph-level function once, in order, with the module") {
  std::vector<std::string> seen;
  const auto p =
      make_function_pass("Visit", 0, [&seen](Function f, const IRModule& mod, const PassContext&) {
        seen.push_back(f->name + "/" + std::to_string(mod.size()));
        return f;
      });
  p(sample_module());
  CHECK(seen == std::vector<std::string>{"main/3", "helper/3"});
}

TEST_CASE("a function pass skips functions whose SkipOptimization attribute is true") {
  std::vector<std::string> seen;
  const auto p = make_function_pass("Visit", 0, [&seen](Function f) {
    seen.push_back(f->name);
    return identity_function(f->name + "_new");
  });
  IRModule mod;
  mod.add("kept", identity_function("kept", {{"SkipOptimization", true}}));
  mod.add("changed", identity_function("changed"));
  mod.add("explicitly_false", identity_function("explicitly_false", {{"SkipOptimization", false}}));
  const IRModule out = p(mod);
  CHECK(seen == std::vector<std::string>{"changed", "explicitly_false"});
  CHECK(out.lookup("kept").same_as(mod.lookup("kept")));
  CHECK(out.lookup("changed")->name == "changed_new");
}

TEST_CASE("a graph-level function pass must not return null") {
  const auto p = make_function_pass("Drop", 0, [](Function) { return Function(); });
  CHECK(error_of([&] { p(sample_module()); }) ==
        "Error in pass Drop: ctir: function pass Drop returned no function for @main (only "
        "tensor-level function passes may delete functions)");
}

TEST_CASE("a tensor-level function pass sees only PrimFuncs") {
  std::vector<std::string> seen;
  const auto p = make_prim_func_pass("Visit", 0, [&seen](PrimFunc f) {
    seen.push_back(f->name);
    return f;
  });
  IRModule mod = sample_module();
  mod.add("fill2", zero_fill("fill2"));
  CHECK(p(mod).same_as(mod));
  CHECK(seen == std::vector<std::string>{"fill", "fill2"});
}

TEST_CASE("a tensor-level function pass deletes a function by returning null") {
  const auto p =
      make_prim_func_pass("DropFill", 0, [](PrimFunc f, const IRModule&, const PassContext&) {
        return f->name == "fill" ? PrimFunc() : f;
      });
  IRModule mod = sample_module();
  mod.add("fill2", zero_fill("fill2"));
  const IRModule out = p(mod);
  CHECK(function_names(out) == std::vector<std::string>{"main", "helper", "fill2"});
  CHECK(function_names(mod) == std::vector<std::string>{"main", "helper", "fill", "fill2"});
}

TEST_CASE("function passes keep the name and opt_level they are given, and are function "
          "passes") {
  const auto graph =
      make_function_pass(PassInfo{.name = "G", .opt_level = 2}, [](Function f) { return f; });
  const auto tensor =
      make_prim_func_pass(PassInfo{.name = "T", .opt_level = 1}, [](PrimFunc f) { return f; });
  CHECK(graph.info().name == "G");
  CHECK(graph.info().opt_level == 2);
  CHECK(tensor.info().name == "T");
  static_assert(function_pass<decltype(graph)> && !module_pass<decltype(graph)>);
  static_assert(prim_func_pass<decltype(tensor)>);
}

TEST_CASE("a module owned only by the pipeline is updated in place by function passes") {
  const auto bump = make_prim_func_pass("Bump", 0, [](PrimFunc f) {
    return PrimFunc::make(f->name, f->params, f->body, {{"bumped", true}});
  });
  IRModule mod = sample_module();
  const IRModuleNode* node = mod.node().get();
  mod = bump(std::move(mod));
  CHECK(mod.node().get() == node); // no copy of the module node was needed
  CHECK(mod.lookup("fill")->attrs.get<bool>("bumped") == true);
}
