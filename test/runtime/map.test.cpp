// Tests of include/ctir/runtime/map.hpp: the type-erased map gives the static map's results.
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <unordered_map>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

runtime::Callbacks specialize(const Var& n, std::int64_t value) {
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [n, value](const ObjectRef& v) -> ObjectRef {
    return v.same_as(n) ? ObjectRef(IntImm::make(value)) : v;
  });
  return cbs;
}

} // namespace

TEST_CASE("the runtime map specializes n to 128 like the static map") {
  AddOne add_one;
  PrimFunc out = downcast<PrimFuncNode>(runtime::map(add_one.func, specialize(add_one.n, 128)));
  PrimFunc expected = map(add_one.func, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(128)) : PrimExpr(v);
  });
  const Var& A = out->params[0];
  const Var& B = out->params[1];
  CHECK_FALSE(A.same_as(add_one.A));
  CHECK(dim_of(A).as<IntImmNode>()->value == 128);
  CHECK(dim_of(B).as<IntImmNode>()->value == 128);
  CHECK(loop_of(out).end.as<IntImmNode>()->value == 128);
  CHECK(store_of(out).dest.same_as(B));
  CHECK(load_of(out).source.same_as(A));
  CHECK(loop_of(out).var.same_as(add_one.i));
  // The same shape as the static result, node for node.
  std::vector<std::string> runtime_keys;
  std::vector<std::string> static_keys;
  runtime::Callbacks keys;
  keys.on("Object", [&](const ObjectRef& node) { runtime_keys.push_back(short_key(*node)); });
  runtime::walk(out, keys);
  runtime::Callbacks expected_keys;
  expected_keys.on("Object",
                   [&](const ObjectRef& node) { static_keys.push_back(short_key(*node)); });
  runtime::walk(expected, expected_keys);
  CHECK(runtime_keys == static_keys);
  // The input is unchanged.
  CHECK(loop_of(add_one.func).end.same_as(add_one.n));
}

TEST_CASE("a shape variable whose definition changes is one new variable in every parameter") {
  // n is defined by A's type and met again in B's: both must get the same new n.
  AddOne add_one;
  runtime::Callbacks widen;
  widen.on("ir.PrimType",
           [](const ObjectRef&) -> ObjectRef { return PrimType::make(DataType::int64()); });
  PrimFunc out = downcast<PrimFuncNode>(runtime::map(add_one.func, widen));
  PrimFunc expected =
      map(add_one.func, [](const PrimType&) -> Type { return PrimType::make(DataType::int64()); });
  const Var& A = out->params[0];
  const Var& B = out->params[1];
  REQUIRE(dim_of(A).as<VarNode>() != nullptr);
  CHECK_FALSE(dim_of(A).same_as(add_one.n));
  CHECK(dim_of(A).same_as(dim_of(B)));
  CHECK(loop_of(out).end.same_as(dim_of(A)));
  CHECK(structural_equal(out, expected));
  CHECK(dim_of(expected->params[0]).same_as(dim_of(expected->params[1])));
}

TEST_CASE("the runtime map returns the same object when nothing changed") {
  AddOne add_one;
  runtime::Callbacks keep;
  keep.on("ir.Var", [](const ObjectRef& v) { return v; });
  CHECK(runtime::map(add_one.func, keep).same_as(add_one.func));
  runtime::Callbacks unchanged_cbs;
  unchanged_cbs.on("ir.Add", [](const ObjectRef&) { return unchanged; });
  CHECK(runtime::map(add_one.func, unchanged_cbs).same_as(add_one.func));
}

TEST_CASE("the runtime map rebuilds only the path to a replacement") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr right = y * 3;
  PrimExpr root = (x + 1) - right;
  runtime::Callbacks cbs;
  cbs.on("ir.IntImm", [](const ObjectRef& imm) -> MapResult<PrimExpr> {
    if (imm.as<IntImmNode>()->value == 1) {
      return IntImm::make(10);
    }
    return unchanged;
  });
  ObjectRef out = runtime::map(root, cbs);
  const auto* sub = out.as<SubNode>();
  REQUIRE(sub != nullptr);
  CHECK(sub->b.same_as(right));
  CHECK(sub->a.as<AddNode>()->b.as<IntImmNode>()->value == 10);
}

TEST_CASE("the runtime map renames in pre-order like the static map") {
  AddOne add_one;
  std::unordered_map<const Object*, ObjectRef> new_vars;
  runtime::Callbacks cbs;
  cbs.with_def_region_kind([&](const ObjectRef& var, DefRegionKind kind) -> ObjectRef {
    if (kind != DefRegionKind::none) {
      if (!new_vars.contains(var.get())) {
        const auto* v = var.as<VarNode>();
        new_vars[var.get()] = Var::make(v->name + "1", v->ty);
      }
      return new_vars[var.get()];
    }
    auto it = new_vars.find(var.get());
    return it == new_vars.end() ? var : it->second;
  });
  PrimFunc renamed = downcast<PrimFuncNode>(runtime::map(add_one.func, cbs, WalkOrder::pre));
  const Var& A1 = renamed->params[0];
  const Var& B1 = renamed->params[1];
  CHECK(A1->name == "A1");
  CHECK(dim_of(A1).as<VarNode>()->name == "n1");
  CHECK(dim_of(B1).same_as(dim_of(A1)));
  CHECK(loop_of(renamed).var->name == "i1");
  CHECK(loop_of(renamed).end.same_as(dim_of(A1)));
  CHECK(store_of(renamed).dest.same_as(B1));
  CHECK(load_of(renamed).source.same_as(A1));
}

TEST_CASE("the runtime map refuses callbacks that return no node") {
  AddOne add_one;
  runtime::Callbacks walks;
  walks.on("ir.Var", [](const ObjectRef&) {});
  CHECK_THROWS_AS(runtime::map(add_one.func, walks), Error);
  try {
    runtime::map(add_one.func, walks);
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK(message.find("ctir::runtime::map") != std::string::npos);
    CHECK(message.find("returns no node") != std::string::npos);
  }
  runtime::Callbacks skips;
  skips.on("ir.Var", [](const ObjectRef&) { return skip; });
  CHECK_THROWS_AS(runtime::map(add_one.func, skips), Error);
}

TEST_CASE("a runtime replacement that cannot stand where its node was is an error") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.TensorStore", [&](const ObjectRef&) -> ObjectRef { return add_one.n; });
  CHECK_THROWS_AS(runtime::map(add_one.func, cbs), NodeError);
}

TEST_CASE("the runtime map rewrites inside a node type registered at run time") {
  AddOne add_one;
  Stmt block = plugin_block({add_one.func->body, add_one.n}, "tag", add_one.n);
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, block);
  PrimFunc g = downcast<PrimFuncNode>(runtime::map(f, specialize(add_one.n, 32)));
  const ObjectRef new_block = g->body->seq[0];
  CHECK_FALSE(new_block.same_as(block));
  const auto& node = static_cast<const PluginBlockNode&>(*new_block);
  CHECK(node.tag == "tag");
  CHECK(node.children[1].as<IntImmNode>()->value == 32);
  CHECK(node.hidden.same_as(add_one.n)); // ignored: not mapped
  CHECK(node.children[0].as<SeqStmtNode>()->seq[0].as<ForNode>()->end.as<IntImmNode>()->value ==
        32);
  // Same as the static map.
  PrimFunc expected = map(f, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(32)) : PrimExpr(v);
  });
  const auto& static_block = static_cast<const PluginBlockNode&>(*expected->body->seq[0]);
  CHECK(static_block.children[1].as<IntImmNode>()->value == 32);
  CHECK(static_block.hidden.same_as(add_one.n));
}

TEST_CASE("the runtime map handles a chain a million deep") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < 1'000'000; ++k) {
    chain = chain + 1;
  }
  runtime::Callbacks cbs;
  cbs.on("ir.IntImm", [](const ObjectRef&) -> ObjectRef { return IntImm::make(2); });
  ObjectRef out = runtime::map(chain, cbs);
  std::size_t twos = 0;
  runtime::Callbacks count;
  count.on("ir.IntImm",
           [&](const ObjectRef& imm) { twos += imm.as<IntImmNode>()->value == 2 ? 1U : 0U; });
  runtime::walk(out, count);
  CHECK(twos == 1'000'000);
}
