// Tests of ctir/pass/info.hpp: PassInfo as a literal type, name lists, interned names.
#include <ctir/pass/info.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {
constexpr PassInfo fold{.name = "FoldConstant",
                        .opt_level = 2,
                        .required = {"InferType"},
                        .establishes = {"constants_folded"},
                        .invalidates = {"cse"},
                        .description = "folds constant expressions"};
} // namespace

static_assert(fold.name == "FoldConstant");
static_assert(fold.opt_level == 2);
static_assert(fold.required.size() == 1 && fold.required[0] == "InferType");
static_assert(fold.establishes_result("FoldConstant"));
static_assert(fold.establishes_result("constants_folded"));
static_assert(!fold.establishes_result("InferType"));
static_assert(fold.invalidates_result("cse") && !fold.invalidates_result("InferType"));
static_assert(PassInfo{.name = "Everything", .invalidates = {"*"}}.invalidates_result("x"));
static_assert(PassInfo{"A", 1} == PassInfo{.name = "A", .opt_level = 1});
static_assert(PassInfo{}.opt_level == 0);

TEST_CASE("a name list holds up to its capacity and says so past it") {
  NameList names;
  CHECK(names.empty());
  for (std::size_t i = 0; i < NameList::capacity; ++i) {
    names.push_back("n");
  }
  CHECK(names.size() == NameList::capacity);
  CHECK(contains(error_of([&] { names.push_back("one too many"); }),
                 "a PassInfo name list holds at most 8 names"));
  CHECK(NameList{"a", "b"} == NameList{"a", "b"});
  CHECK_FALSE(NameList{"a", "b"} == NameList{"b", "a"});
}

TEST_CASE("interned names are shared and outlive their source") {
  std::string source = "Interned";
  const std::string_view first = intern_name(source);
  source = "changed";
  CHECK(first == "Interned");
  CHECK(intern_name(std::string("Interned")).data() == first.data());
}

TEST_CASE("stable_info interns every name of a PassInfo built from temporary strings") {
  std::string name = "Temp";
  std::string required = "Other";
  const PassInfo info =
      detail::stable_info(PassInfo{.name = name, .required = {required}, .description = name});
  name = "xxxx";
  required = "yyyyy";
  CHECK(info.name == "Temp");
  CHECK(info.required[0] == "Other");
  CHECK(info.description == "Temp");
}
