// Tests of ctir/pass/options.hpp: pass options declared on a pass class and set from text.
#include <ctir/pass/options.hpp>

#include <ctir/pass/run.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>
#include <tuple>

using namespace ctir;
using namespace ctir::testing;

namespace {
struct UnrollLoop {
  int max_extent = 0;
  bool explicit_only = false;
  std::string label = "none";
  static constexpr auto pass_options() {
    return std::tuple{pass_option("max_extent", &UnrollLoop::max_extent, "the largest extent"),
                      pass_option("explicit_only", &UnrollLoop::explicit_only),
                      pass_option("label", &UnrollLoop::label, "a label")};
  }
  static constexpr PassInfo info() { return {"UnrollLoop", 2}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct Plain {
  static constexpr PassInfo info() { return {"Plain", 0}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
} // namespace

static_assert(has_pass_options<UnrollLoop>);
static_assert(!has_pass_options<Plain>);

TEST_CASE("the options of a pass list their name, type, default and description") {
  const std::vector<PassOptionInfo> infos = pass_option_infos<UnrollLoop>();
  REQUIRE(infos.size() == 3);
  CHECK(infos[0].name == "max_extent");
  CHECK(infos[0].type == "int");
  CHECK(infos[0].default_value == "0");
  CHECK(infos[0].description == "the largest extent");
  CHECK(infos[1].type == "bool");
  CHECK(infos[1].default_value == "false");
  CHECK(infos[2].type == "string");
  CHECK(infos[2].default_value == "none");
  CHECK(pass_option_infos<Plain>().empty());
}

TEST_CASE("an option is set from text") {
  UnrollLoop pass;
  set_pass_option(pass, "UnrollLoop", "max_extent", "4");
  set_pass_option(pass, "UnrollLoop", "explicit_only", "true");
  set_pass_option(pass, "UnrollLoop", "label", "a b");
  CHECK(pass.max_extent == 4);
  CHECK(pass.explicit_only);
  CHECK(pass.label == "a b");
  CHECK(pass_option_text(pass, "max_extent") == "4");
  CHECK(pass_option_text(pass, "label") == "a b");
}

TEST_CASE("an unknown option or a bad value is an error naming the pass") {
  UnrollLoop pass;
  CHECK(error_of([&] { set_pass_option(pass, "UnrollLoop", "max_extnt", "4"); }) ==
        "ctir: pass 'UnrollLoop' has no option 'max_extnt'; did you mean 'max_extent'? (its "
        "options: 'max_extent', 'explicit_only', 'label')");
  CHECK(error_of([&] { set_pass_option(pass, "UnrollLoop", "max_extent", "four"); }) ==
        "ctir: option 'max_extent' of pass 'UnrollLoop' has type int; 'four' is not a valid int");
  Plain plain;
  CHECK(error_of([&] { set_pass_option(plain, "Plain", "x", "1"); }) ==
        "ctir: pass 'Plain' has no option 'x' (it takes no options)");
}

TEST_CASE("changed options are the ones that differ from the defaults, in order") {
  UnrollLoop pass;
  CHECK(changed_pass_options(pass).empty());
  pass.label = "x";
  pass.max_extent = 8;
  CHECK(changed_pass_options(pass) == PassOptionValues{{"max_extent", "8"}, {"label", "x"}});
}
