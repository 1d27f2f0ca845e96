// Tests of ctir/runtime/pass/pipeline.hpp: pipeline strings parse to passes and print back.
#include <ctir/runtime/pass/pipeline.hpp>

#include <ctir/pass/module_pass.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>
#include <tuple>

using namespace ctir;
using namespace ctir::testing;

namespace {

struct UnrollLoop {
  int max_extent = 0;
  std::string mode = "auto";
  static constexpr auto pass_options() {
    return std::tuple{pass_option("max_extent", &UnrollLoop::max_extent),
                      pass_option("mode", &UnrollLoop::mode)};
  }
  static constexpr PassInfo info() { return {"UnrollLoop", 2}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

/// A registry with InferType, FoldConstant, PrintIR, UnrollLoop, and passes that log.
struct Fixture {
  EventLog log;
  PassRegistry registry;
  Fixture() {
    for (const char* name : {"InferType", "FoldConstant", "PrintIR", "A", "B", "C"}) {
      registry.add(logging_pass(name, log));
    }
    registry.add<UnrollLoop>();
    registry.add(
        make_module_pass(PassInfo{.name = "NeedsB", .required = {"B"}}, [log = log](IRModule m) {
          log.add("NeedsB");
          return m;
        }));
  }
  std::string round_trip(const std::string& text) const {
    return print_pipeline(parse_pipeline(text, registry));
  }
  std::string error(const std::string& text) const {
    return error_of([&] { parse_pipeline(text, registry); });
  }
};

} // namespace

TEST_CASE("pipeline strings print back to the same string") {
  const Fixture f;
  for (const char* text : {"InferType,FoldConstant,PrintIR", "sequential(A,B),C", "A",
                           "UnrollLoop{max_extent=4}", "UnrollLoop{max_extent=4,mode=full}",
                           "UnrollLoop{mode=\"two words\"}", "UnrollLoop{mode=\"quote\\\"d\"}",
                           "sequential()", "", "sequential(sequential(A),sequential())",
                           "sequential{name=O2}(A,sequential{opt_level=3}(B,C))",
                           "sequential{name=\"my pipeline\",opt_level=1}(A)"}) {
    CHECK(f.round_trip(text) == text);
  }
}

TEST_CASE("blanks are allowed and the print is canonical") {
  const Fixture f;
  CHECK(f.round_trip("  InferType , sequential ( A , B ) ,C ") == "InferType,sequential(A,B),C");
  CHECK(f.round_trip("UnrollLoop { max_extent = 4 }") == "UnrollLoop{max_extent=4}");
  CHECK(f.round_trip("UnrollLoop{max_extent=+4}") == "UnrollLoop{max_extent=4}");
  CHECK(f.round_trip("UnrollLoop{}") == "UnrollLoop");
}

TEST_CASE("a parsed pipeline runs its passes in order, nested sequentials included") {
  const Fixture f;
  const Pass pipeline = parse_pipeline("A,sequential(B,sequential(C)),A", f.registry);
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(f.log.str() == "A B C A");
  const Pass single = parse_pipeline("B", f.registry);
  CHECK_FALSE(single.is_sequential());
  CHECK(single.info().name == "B");
  const Pass options = parse_pipeline("UnrollLoop{max_extent=8,mode=x}", f.registry);
  REQUIRE(options.target<UnrollLoop>() != nullptr);
  CHECK(options.target<UnrollLoop>()->max_extent == 8);
  CHECK(options.target<UnrollLoop>()->mode == "x");
}

TEST_CASE("required passes of a parsed pipeline are resolved through the registry") {
  const Fixture f;
  IRModule mod = sample_module();
  mod = parse_pipeline("NeedsB,A", f.registry)(mod);
  CHECK(f.log.str() == "B NeedsB A");
}

TEST_CASE("an unknown pass name is an error with the column and the nearest names") {
  const Fixture f;
  CHECK(f.error("InferType,FoldConstnat") ==
        "ctir: bad pipeline at column 11: unknown pass 'FoldConstnat'; did you mean "
        "'FoldConstant'?\n"
        "  InferType,FoldConstnat\n"
        "            ^");
}

TEST_CASE("malformed pipelines are errors that say what was expected where") {
  const Fixture f;
  CHECK(f.error("A,,B").starts_with("ctir: bad pipeline at column 3: expected a pass name"));
  CHECK(f.error("A,").starts_with("ctir: bad pipeline at column 3: expected a pass name"));
  CHECK(f.error("A B").starts_with("ctir: bad pipeline at column 3: expected ',' between passes"));
  CHECK(f.error("A)").starts_with("ctir: bad pipeline at column 2: unbalanced ')'"));
  CHECK(f.error("sequential(A").starts_with("ctir: bad pipeline at column 13: missing ')'"));
  CHECK(f.error("sequential(A B)")
            .starts_with("ctir: bad pipeline at column 14: expected ',' or ')'"));
  CHECK(f.error("sequential A")
            .starts_with("ctir: bad pipeline at column 12: expected '(' after 'sequential'"));
  CHECK(f.error("A(B)").starts_with(
      "ctir: bad pipeline at column 2: pass 'A' does not take nested passes"));
  CHECK(
      f.error("UnrollLoop{max_extent}")
          .starts_with("ctir: bad pipeline at column 22: expected '=' after option 'max_extent'"));
  CHECK(f.error("UnrollLoop{max_extent=}")
            .starts_with("ctir: bad pipeline at column 23: expected a value"));
  CHECK(f.error("UnrollLoop{mode=\"open")
            .starts_with("ctir: bad pipeline at column 17: unterminated quoted value"));
  CHECK(f.error("UnrollLoop{max_extent=4 mode=x}")
            .starts_with("ctir: bad pipeline at column 25: expected ',' or '}' in options"));
  CHECK(f.error("1A").starts_with("ctir: bad pipeline at column 1: expected a pass name"));
}

TEST_CASE("bad options are errors naming the pass and the column") {
  const Fixture f;
  CHECK(f.error("A,UnrollLoop{max_extent=four}") ==
        "ctir: bad pipeline at column 3: option 'max_extent' of pass 'UnrollLoop' has type int; "
        "'four' is not a valid int\n"
        "  A,UnrollLoop{max_extent=four}\n"
        "    ^");
  CHECK(f.error("UnrollLoop{max_extnt=4}")
            .starts_with("ctir: bad pipeline at column 1: pass 'UnrollLoop' has no option "
                         "'max_extnt'; did you mean 'max_extent'?"));
  CHECK(f.error("A{x=1}").starts_with(
      "ctir: bad pipeline at column 1: pass 'A' takes no options (got 'x')"));
  CHECK(f.error("sequential{nam=x}(A)")
            .starts_with("ctir: bad pipeline at column 1: 'sequential' has no option 'nam'; did "
                         "you mean 'name'?"));
  CHECK(f.error("sequential{opt_level=high}(A)")
            .starts_with("ctir: bad pipeline at column 1: option 'opt_level' of 'sequential' has "
                         "type int; 'high' is not a valid int"));
}

TEST_CASE("a requirement nothing provides is an error at the sequential's column") {
  Fixture f;
  f.registry.add(make_module_pass(PassInfo{.name = "Orphan", .required = {"Nowhere"}},
                                  [](IRModule m) { return m; }));
  CHECK(f.error("A,sequential(Orphan)")
            .starts_with("ctir: bad pipeline at column 3: pass 'Orphan' requires 'Nowhere', which "
                         "no pass in this pipeline provides"));
}

TEST_CASE("very deep nesting is an error, not a crash") {
  const Fixture f;
  std::string text;
  for (int i = 0; i < 1000; ++i) {
    text += "sequential(";
  }
  text += "A";
  text += std::string(1000, ')');
  CHECK(contains(f.error(text), "sequentials nested more than 200 deep"));
}

TEST_CASE("the global registry is the default") {
  CHECK(contains(error_of([] { parse_pipeline("SurelyNotRegisteredPass"); }),
                 "unknown pass 'SurelyNotRegisteredPass'"));
}
