// Tests of ctir/pass/module_pass.hpp: module passes from lambdas.
#include <ctir/pass/module_pass.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("a module pass keeps the name and opt_level it is given") {
  const auto p = make_module_pass("Dce", 1, [](IRModule mod) { return mod; });
  CHECK(p.info().name == "Dce");
  CHECK(p.info().opt_level == 1);
  const auto q = make_module_pass(
      PassInfo{.name = "Q", .opt_level = 3, .required = {"Dce"}, .description = "a test pass"},
      [](IRModule mod, const PassContext&) { return mod; });
  CHECK(q.info().required.contains("Dce"));
  CHECK(q.info().description == "a test pass");
  static_assert(module_pass<decltype(q)>);
}

TEST_CASE("a module pass without a name is an error that says how to name it") {
  PassInfo nameless;
  nameless.opt_level = 1;
  CHECK_THROWS_WITH(make_module_pass(nameless, [](IRModule mod) { return mod; }),
                    "ctir::ModulePass: a pass needs a name; give its PassInfo one: "
                    "PassInfo{.name = \"MyPass\"}");
}

TEST_CASE("a module pass of a captureless lambda is a constant expression") {
  constexpr auto p = make_module_pass("Identity", 0, [](IRModule mod) { return mod; });
  static_assert(p.info().name == "Identity");
  IRModule mod = sample_module();
  CHECK(p(mod).same_as(mod));
}

TEST_CASE("a module pass that returns its input returns the very same module") {
  const auto p = make_module_pass("Identity", 0, [](IRModule mod) { return mod; });
  const IRModule mod = sample_module();
  CHECK(p(mod).same_as(mod));
  CHECK(p(mod, PassContext{}).same_as(mod));
}

TEST_CASE("a module pass may add and remove functions, leaving its input intact") {
  const auto p = make_module_pass("AddAbs", 2, [](IRModule mod, const PassContext&) {
    mod.add("abs", identity_function("abs"));
    mod.remove("helper");
    return mod;
  });
  const IRModule mod = sample_module();
  const IRModule out = p(mod);
  CHECK(function_names(out) == std::vector<std::string>{"main", "fill", "abs"});
  CHECK(function_names(mod) == std::vector<std::string>{"main", "helper", "fill"});
  CHECK_FALSE(out.same_as(mod));
}

TEST_CASE("a module pass reads the context it runs under") {
  const auto p = make_module_pass("Level", 0, [](IRModule mod, const PassContext& ctx) {
    mod.update("main", identity_function("main", {{"level", std::int64_t{ctx.opt_level()}}}));
    return mod;
  });
  const IRModule out = p(sample_module(), PassContext{{.opt_level = 3}});
  CHECK(out.lookup("main")->attrs.get<std::int64_t>("level") == 3);
}

TEST_CASE("names given at run time outlive the strings they came from") {
  auto make = [] {
    std::string name = "Runtime";
    name += "Name";
    return make_module_pass(name, 0, [](IRModule mod) { return mod; });
  };
  const auto p = make();
  CHECK(p.info().name == "RuntimeName");
  CHECK(intern_name("RuntimeName").data() == p.info().name.data());
}
