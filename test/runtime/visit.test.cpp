// Tests of include/ctir/runtime/visit.hpp: runtime callbacks driving the traversal.
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/visit.hpp>

#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

using strings = std::vector<std::string>;

std::vector<std::pair<std::string, strings>> loops_around_writes(const ObjectRef& root) {
  strings loops;
  std::vector<std::pair<std::string, strings>> writes;
  runtime::Callbacks cbs;
  cbs.on("ir.For", [&](runtime::Visitor& v, const ObjectRef& loop) -> runtime::WalkResult {
    loops.push_back(loop.as<ForNode>()->var->name);
    WalkResult<> result = v.default_visit(loop);
    loops.pop_back();
    return result;
  });
  cbs.on("ir.TensorStore", [&](runtime::Visitor&, const ObjectRef& store) {
    writes.emplace_back(store.as<TensorStoreNode>()->dest->name, loops);
  });
  runtime::visit(root, cbs);
  return writes;
}

} // namespace

TEST_CASE("the runtime visit records the loops around each write") {
  AddOne add_one;
  const auto writes = loops_around_writes(add_one.func);
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].first == "B");
  CHECK(writes[0].second == strings{"i"});
}

TEST_CASE("a runtime interrupt reaches the caller through default_visit") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.For", [&](runtime::Visitor& v, const ObjectRef& loop) -> runtime::WalkResult {
    return v.default_visit(loop);
  });
  cbs.on("ir.TensorStore", [&](runtime::Visitor&, const ObjectRef& store) -> runtime::WalkResult {
    return interrupt(ObjectRef(store.as<TensorStoreNode>()->dest));
  });
  std::optional<ObjectRef> found = runtime::visit(add_one.func, cbs);
  REQUIRE(found.has_value());
  CHECK(found->same_as(add_one.B));
}

TEST_CASE("the runtime visitor tells the definition region of the current site") {
  AddOne add_one;
  strings sites;
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [&](runtime::Visitor& v, const ObjectRef& var) {
    sites.push_back(var.as<VarNode>()->name + " " + std::string(to_string(v.def_region_kind())));
    return v.default_visit(var);
  });
  runtime::visit(add_one.func, cbs);
  CHECK(sites == strings{"A DEF_PATTERN", "n DEF_PATTERN", "B DEF_PATTERN", "n DEF_PATTERN",
                         "i DEF_SIMPLE", "n NONE", "B NONE", "i NONE", "A NONE", "i NONE"});
}

TEST_CASE("the runtime visit passes through a node type registered at run time") {
  AddOne add_one;
  const auto writes = loops_around_writes(SeqStmt::make({plugin_block({add_one.func->body})}));
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].second == strings{"i"});
}

TEST_CASE("the runtime visit refuses callbacks of another kind") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.For", [](const ObjectRef&) {});
  CHECK_THROWS_AS(runtime::visit(add_one.func, cbs), Error);
}
