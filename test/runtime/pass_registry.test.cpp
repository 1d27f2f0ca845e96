// Tests of ctir/runtime/pass/registry.hpp: pass names to factories, listing, unknown names.
#include <ctir/runtime/pass/registry.hpp>

#include <ctir/pass/module_pass.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <algorithm>
#include <string>
#include <tuple>

using namespace ctir;
using namespace ctir::testing;

namespace {

struct RegistryFold {
  static constexpr PassInfo info() {
    return {.name = "RegistryFold", .opt_level = 2, .description = "folds constants"};
  }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

struct RegistryUnroll {
  int max_extent = 0;
  std::string label = "l";
  static constexpr auto pass_options() {
    return std::tuple{pass_option("max_extent", &RegistryUnroll::max_extent, "largest extent"),
                      pass_option("label", &RegistryUnroll::label)};
  }
  static constexpr PassInfo info() {
    return {.name = "RegistryUnroll",
            .opt_level = 3,
            .required = {"RegistryFold"},
            .description = "unrolls loops"};
  }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    mod.update("main", identity_function("main", {{"extent", std::int64_t{max_extent}}}));
    return mod;
  }
};

struct Impostor {
  static constexpr PassInfo info() { return {"RegistryFold", 0}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

} // namespace

CTIR_REGISTER_PASS(RegistryFold);
CTIR_REGISTER_PASS(RegistryUnroll);
CTIR_REGISTER_PASS(RegistryFold); // the same type again: merged
CTIR_REGISTER_PASS(Impostor);     // another type under a taken name: reported on use

TEST_CASE("a static pass registered with CTIR_REGISTER_PASS is made by name") {
  const Pass fold = PassRegistry::global().create("RegistryUnroll");
  CHECK(fold.info().name == "RegistryUnroll");
  CHECK(fold.target<RegistryUnroll>() != nullptr);
  CHECK(fold.str() == "RegistryUnroll");
}

TEST_CASE("options given by name set the pass's members and print back") {
  const Pass unroll =
      PassRegistry::global().create("RegistryUnroll", {{"max_extent", "4"}, {"label", "a b"}});
  REQUIRE(unroll.target<RegistryUnroll>() != nullptr);
  CHECK(unroll.target<RegistryUnroll>()->max_extent == 4);
  CHECK(unroll.str() == "RegistryUnroll{max_extent=4,label=\"a b\"}");
  const IRModule out = unroll(sample_module());
  CHECK(out.lookup("main")->attrs.get<std::int64_t>("extent") == 4);
  CHECK(error_of([] {
          PassRegistry::global().create("RegistryUnroll", {{"max_extnt", "4"}});
        }) ==
        "ctir: pass 'RegistryUnroll' has no option 'max_extnt'; did you mean 'max_extent'? (its "
        "options: 'max_extent', 'label')");
}

TEST_CASE("an unknown name is an error listing the nearest registered names") {
  CHECK(error_of([] { PassRegistry::global().create("RegistryUnrol"); }) ==
        "ctir: unknown pass 'RegistryUnrol'; did you mean 'RegistryUnroll'?");
  PassRegistry empty;
  CHECK(error_of([&] { empty.create("X"); }) ==
        "ctir: unknown pass 'X' (no passes are registered; "
        "ctir::passes::register_standard_passes() registers the standard ones)");
}

TEST_CASE("two different passes under one name: an error at run time, reported on use when "
          "registered statically") {
  CHECK(error_of([] { PassRegistry::global().create("RegistryFold"); }) ==
        "ctir: two different passes are registered as 'RegistryFold'");
  PassRegistry registry;
  registry.add<RegistryFold>();
  registry.add<RegistryFold>(); // the same type: fine
  CHECK(error_of([&] { registry.add<Impostor>(); }) ==
        "ctir: two different passes are registered as 'RegistryFold'");
  CHECK(error_of([&] {
          registry.add(make_module_pass("sequential", 0, [](IRModule m) { return m; }));
        }) == "ctir: 'sequential' is reserved for sequentials in pipeline strings");
}

TEST_CASE("the listing gives name, opt_level, description, requirements and options, sorted") {
  PassRegistry registry;
  registry.add<RegistryUnroll>();
  registry.add<RegistryFold>();
  registry.add(
      make_module_pass(PassInfo{.name = "Lambda", .opt_level = 1}, [](IRModule m) { return m; }));
  const std::vector<PassListing> listing = registry.list();
  REQUIRE(listing.size() == 3);
  CHECK(listing[0].name == "Lambda");
  CHECK(listing[1].name == "RegistryFold");
  CHECK(listing[1].opt_level == 2);
  CHECK(listing[1].description == "folds constants");
  CHECK(listing[2].required == std::vector<std::string>{"RegistryFold"});
  REQUIRE(listing[2].options.size() == 2);
  CHECK(listing[2].options[0].name == "max_extent");
  CHECK(listing[2].options[0].type == "int");
  CHECK(listing[2].options[0].default_value == "0");
  CHECK(registry.names() == std::vector<std::string>{"Lambda", "RegistryFold", "RegistryUnroll"});
  CHECK(registry.render() == "pass            opt  description\n"
                             "Lambda            1  \n"
                             "RegistryFold      2  folds constants\n"
                             "RegistryUnroll    3  unrolls loops (requires RegistryFold)\n"
                             "                     max_extent: int = 0  largest extent\n"
                             "                     label: string = l\n");
}

TEST_CASE("a pass registered from a prototype takes no options") {
  PassRegistry registry;
  registry.add(make_module_pass("Proto", 0, [](IRModule m) { return m; }));
  CHECK(registry.contains("Proto"));
  CHECK(registry.create("Proto").info().name == "Proto");
  CHECK(error_of([&] {
          registry.create("Proto", {{"x", "1"}});
        }) == "ctir: pass 'Proto' takes no options (got 'x')");
  CHECK(registry.remove("Proto"));
  CHECK_FALSE(registry.contains("Proto"));
  CHECK_FALSE(registry.remove("Proto"));
}

TEST_CASE("a factory registered at run time receives the options") {
  PassRegistry registry;
  registry.add(PassListing{.name = "Factory", .opt_level = 1, .description = "made by a factory"},
               [](const PassOptionValues& options) {
                 std::string name = "Factory";
                 return Pass(make_module_pass(name, static_cast<int>(options.size()),
                                              [](IRModule m) { return m; }));
               });
  CHECK(registry.create("Factory", {{"a", "1"}, {"b", "2"}}).info().opt_level == 2);
  CHECK(registry.list()[0].description == "made by a factory");
}
