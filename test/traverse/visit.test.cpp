// Tests of include/ctir/traverse/visit.hpp: callbacks that drive the traversal themselves.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/visit.hpp>

#include "deep_nesting.hpp"
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

/// Seed 003's "loops around each write": (tensor written, loop variables around it).
std::vector<std::pair<std::string, strings>> loops_around_writes(const ObjectRef& root) {
  std::vector<Var> loops;
  std::vector<std::pair<std::string, strings>> writes;
  visit(root, on<For>([&](auto& v, const For& loop) {
          loops.push_back(loop->var);
          WalkResult<> result = v.default_visit(loop);
          loops.pop_back();
          return result;
        }),
        on<TensorStore>([&](auto&, const TensorStore& store) {
          strings names;
          for (const Var& loop : loops) {
            names.push_back(loop->name);
          }
          writes.emplace_back(store->dest->name, names);
        }));
  return writes;
}

} // namespace

TEST_CASE("visit records the loops around each write") {
  AddOne add_one;
  const auto writes = loops_around_writes(add_one.func);
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].first == "B");
  CHECK(writes[0].second == strings{"i"});
}

TEST_CASE("visit tracks nested loops as default_visit enters and leaves them") {
  Var out = Var::make("out", TensorType::make({4, 4}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  Var j = Var::make("j", DataType::int32());
  Stmt body = SeqStmt::make(
      {TensorStore::make(out, {0, 0}, 0.0f),
       For::make(i, 0, 4,
                 SeqStmt::make({For::make(j, 0, 4, TensorStore::make(out, {i, j}, 1.0f)),
                                TensorStore::make(out, {i, 0}, 2.0f)}))});
  const auto writes = loops_around_writes(body);
  REQUIRE(writes.size() == 3);
  CHECK(writes[0].second == strings{});
  CHECK(writes[1].second == strings{"i", "j"});
  CHECK(writes[2].second == strings{"i"});
}

TEST_CASE("a visit callback that never calls default_visit skips the children") {
  AddOne add_one;
  int stores = 0;
  visit(add_one.func, on<For>([&](auto&, const For&) {}),
        on<TensorStore>([&](auto&, const TensorStore&) { ++stores; }));
  CHECK(stores == 0);
}

TEST_CASE("nodes no callback matches are visited by default") {
  AddOne add_one;
  std::vector<std::string> loads;
  visit(add_one.func, on<TensorLoad>([&](auto&, const TensorLoad& load) {
          loads.push_back(load->source->name);
        }));
  CHECK(loads == strings{"A"});
}

TEST_CASE("default_visit does not call the node's own callback again") {
  AddOne add_one;
  int loops = 0;
  visit(add_one.func, on<For>([&](auto& v, const For& loop) {
          ++loops;
          return v.default_visit(loop);
        }));
  CHECK(loops == 1);
}

TEST_CASE("an interrupt reaches the caller of visit through default_visit") {
  AddOne add_one;
  int after = 0;
  std::optional<Var> found = visit(
      add_one.func, on<For>([&](auto& v, const For& loop) -> WalkResult<Var> {
        WalkResult<> result = v.default_visit(loop);
        if (!result.was_interrupted()) {
          ++after; // never: the store inside interrupted
        }
        return result;
      }),
      on<TensorStore>([&](auto&, const TensorStore& store) { return interrupt(store->dest); }));
  REQUIRE(found.has_value());
  CHECK(found->same_as(add_one.B));
  CHECK(after == 0);
}

TEST_CASE("an interrupt stops the visit of the siblings that follow") {
  Var out = Var::make("out", TensorType::make({2}, DataType::float32()));
  Stmt body = SeqStmt::make({TensorStore::make(out, {0}, 1.0f), TensorStore::make(out, {1}, 2.0f)});
  int stores = 0;
  const WalkResult<> result = visit(body, on<TensorStore>([&](auto&, const TensorStore&) {
                                      ++stores;
                                      return interrupt();
                                    }));
  CHECK(result.was_interrupted());
  CHECK(stores == 1);
}

TEST_CASE("the visitor tells the definition region of the current site") {
  AddOne add_one;
  std::vector<std::string> sites;
  visit(add_one.func, on<Var>([&](auto& v, const Var& var) {
          sites.push_back(var->name + " " + std::string(to_string(v.def_region_kind())));
          return v.default_visit(var);
        }));
  CHECK(sites == strings{"A DEF_PATTERN", "n DEF_PATTERN", "B DEF_PATTERN", "n DEF_PATTERN",
                         "i DEF_SIMPLE", "n NONE", "B NONE", "i NONE", "A NONE", "i NONE"});
}

TEST_CASE("with_def_region_kind works in visit too") {
  AddOne add_one;
  std::vector<std::string> sites;
  visit(add_one.func, with_def_region_kind([&](auto& v, const Var& var, DefRegionKind kind) {
          if (kind != DefRegionKind::none) {
            sites.push_back(var->name);
          }
          return v.default_visit(var);
        }));
  CHECK(sites == strings{"A", "n", "B", "n", "i"});
}

TEST_CASE("visit passes through a node type registered at run time") {
  AddOne add_one;
  Stmt block = plugin_block({add_one.func->body});
  const auto writes = loops_around_writes(SeqStmt::make({block}));
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].second == strings{"i"});
  int blocks = 0;
  visit(SeqStmt::make({block}), on<StmtNode>([&](auto& v, const Stmt& s) {
          blocks += s->dynamic_type_key() == "test.PluginBlock" ? 1 : 0;
          return v.default_visit(s);
        }));
  CHECK(blocks == 1);
}

TEST_CASE("default_visit of nodes no callback matches handles a chain far deeper than native "
          "recursion could go") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + 1;
  }
  int vars = 0;
  visit(chain, on<Var>([&](auto&, const Var&) { ++vars; }));
  CHECK(vars == 1);
}
