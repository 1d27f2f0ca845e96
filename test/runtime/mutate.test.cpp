// Tests of include/ctir/runtime/mutate.hpp: runtime callbacks driving the rewriting.
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/mutate.hpp>

#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <unordered_map>

using namespace ctir;
using namespace ctir::testing;

namespace {

runtime::Callbacks reverse_loops(std::unordered_map<const Object*, PrimExpr>& reversed) {
  runtime::Callbacks cbs;
  cbs.on("ir.For", [&](runtime::Mutator& m, const ObjectRef& node) -> ObjectRef {
    const auto* loop = node.as<ForNode>();
    reversed[loop->var.get()] = loop->end - 1 - loop->var;
    return m.default_mutate(node);
  });
  cbs.on("ir.Var", [&](runtime::Mutator& m, const ObjectRef& v) -> ObjectRef {
    auto it = reversed.find(v.get());
    if (m.def_region_kind() != DefRegionKind::none || it == reversed.end()) {
      return v;
    }
    return it->second;
  });
  return cbs;
}

bool is_reversed_index(const PrimExpr& e, const Var& n, const Var& i) {
  const auto* outer = e.as<SubNode>();
  if (outer == nullptr || !outer->b.same_as(i)) {
    return false;
  }
  const auto* inner = outer->a.as<SubNode>();
  return inner != nullptr && inner->a.same_as(n);
}

} // namespace

TEST_CASE("the runtime mutate reverses the loop") {
  AddOne add_one;
  std::unordered_map<const Object*, PrimExpr> reversed;
  PrimFunc out = downcast<PrimFuncNode>(runtime::mutate(add_one.func, reverse_loops(reversed)));
  CHECK(loop_of(out).var.same_as(add_one.i));
  CHECK(is_reversed_index(store_of(out).indices[0], add_one.n, add_one.i));
  CHECK(is_reversed_index(load_of(out).indices[0], add_one.n, add_one.i));
  CHECK(out->params[0].same_as(add_one.A));
  CHECK(store_of(add_one.func).indices[0].same_as(add_one.i));
}

TEST_CASE("the runtime mutate returns the same object when nothing changed") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.For",
         [](runtime::Mutator& m, const ObjectRef& loop) { return m.default_mutate(loop); });
  CHECK(runtime::mutate(add_one.func, cbs).same_as(add_one.func));
}

TEST_CASE("the runtime mutate passes through a node type registered at run time") {
  AddOne add_one;
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, plugin_block({add_one.func->body}));
  std::unordered_map<const Object*, PrimExpr> reversed;
  ObjectRef out = runtime::mutate(f, reverse_loops(reversed));
  const ObjectRef block = out.as<PrimFuncNode>()->body->seq[0];
  const auto* seq = block_children(block)[0].as<SeqStmtNode>();
  REQUIRE(seq != nullptr);
  const auto* store = seq->seq[0].as<ForNode>()->body->seq[0].as<TensorStoreNode>();
  CHECK(is_reversed_index(store->indices[0], add_one.n, add_one.i));
}

TEST_CASE("the runtime mutate refuses callbacks of another kind") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [](const ObjectRef& v) { return v; });
  CHECK_THROWS_AS(runtime::mutate(add_one.func, cbs), Error);
}
