// Tests of include/ctir/traverse/mutate.hpp: rewriting callbacks that drive the traversal.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/mutate.hpp>
#include <ctir/traverse/walk.hpp>

#include "deep_nesting.hpp"
#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <unordered_map>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Seed 003's reverse_loop: every use of a loop variable i becomes n - 1 - i.
PrimFunc reverse_loops(const PrimFunc& f) {
  std::unordered_map<const Object*, PrimExpr> reversed;
  return mutate(f, on<For>([&](auto& m, const For& loop) -> Stmt {
                  reversed[loop->var.get()] = loop->end - 1 - loop->var;
                  return m.default_mutate(loop);
                }),
                on<Var>([&](auto& m, const Var& v) -> PrimExpr {
                  auto it = reversed.find(v.get());
                  if (m.def_region_kind() != DefRegionKind::none || it == reversed.end()) {
                    return v;
                  }
                  return it->second;
                }));
}

/// Whether `e` is n - 1 - i.
bool is_reversed_index(const PrimExpr& e, const Var& n, const Var& i) {
  const auto* outer = e.as<SubNode>();
  if (outer == nullptr || !outer->b.same_as(i)) {
    return false;
  }
  const auto* inner = outer->a.as<SubNode>();
  return inner != nullptr && inner->a.same_as(n) && inner->b.as<IntImmNode>() != nullptr &&
         inner->b.as<IntImmNode>()->value == 1;
}

} // namespace

TEST_CASE("mutate reverses the loop: B[n - 1 - i] = A[n - 1 - i] + 1f") {
  AddOne add_one;
  PrimFunc out = reverse_loops(add_one.func);
  CHECK_FALSE(out.same_as(add_one.func));
  const ForNode& loop = loop_of(out);
  CHECK(loop.var.same_as(add_one.i)); // the definition stays a variable
  CHECK(loop.end.same_as(add_one.n));
  CHECK(is_reversed_index(store_of(out).indices[0], add_one.n, add_one.i));
  CHECK(is_reversed_index(load_of(out).indices[0], add_one.n, add_one.i));
  CHECK(store_of(out).dest.same_as(add_one.B));
  CHECK(out->params[0].same_as(add_one.A)); // the parameters are shared
  // The input is unchanged.
  CHECK(store_of(add_one.func).indices[0].same_as(add_one.i));
}

TEST_CASE("default_mutate returns the node itself when no child changed") {
  AddOne add_one;
  int loops = 0;
  PrimFunc out = mutate(add_one.func, on<For>([&](auto& m, const For& loop) -> Stmt {
                          For same = m.default_mutate(loop);
                          loops += same.same_as(loop) ? 1 : 0;
                          return same;
                        }));
  CHECK(loops == 1);
  CHECK(out.same_as(add_one.func));
}

TEST_CASE("a mutate callback that never calls default_mutate keeps its children as they are") {
  AddOne add_one;
  int vars = 0;
  PrimFunc out = mutate(add_one.func, on<For>([&](auto&, const For& loop) { return loop; }),
                        on<Var>([&](auto&, const Var& v) {
                          ++vars;
                          return v;
                        }));
  // Only the parameters are reached: their callback does not ask for their types (with n in
  // them), and the loop's callback leaves the loop alone.
  CHECK(vars == 2);
  CHECK(out.same_as(add_one.func));
}

TEST_CASE("mutate may return unchanged and MapResult") {
  AddOne add_one;
  PrimFunc out =
      mutate(add_one.func, on<FloatImm>([&](auto&, const FloatImm& imm) -> MapResult<PrimExpr> {
               if (imm->value == 1.0) {
                 return FloatImm::make(2.0);
               }
               return unchanged;
             }));
  CHECK(store_of(out).value.as<AddNode>()->b.as<FloatImmNode>()->value == 2.0);
  PrimFunc same =
      mutate(add_one.func, on<FloatImm>([](auto&, const FloatImm&) { return unchanged; }));
  CHECK(same.same_as(add_one.func));
}

TEST_CASE("mutate repoints the uses of a definition whose variable changed") {
  AddOne add_one;
  PrimFunc out = mutate(add_one.func, on<Var>([&](auto& m, const Var& v) -> PrimExpr {
                          if (v.same_as(add_one.n)) {
                            return IntImm::make(128);
                          }
                          return m.default_mutate(v); // rebuilds A and B with their new types
                        }));
  const Var& A = out->params[0];
  CHECK_FALSE(A.same_as(add_one.A));
  CHECK(dim_of(A).as<IntImmNode>()->value == 128);
  CHECK(load_of(out).source.same_as(A));
  CHECK(store_of(out).dest.same_as(out->params[1]));
}

TEST_CASE("a mutate callback whose result cannot stand in its place is an error") {
  AddOne add_one;
  CHECK_THROWS_AS(mutate(add_one.func, on<TensorStore>([&](auto&, const TensorStore&) -> ObjectRef {
                           return add_one.n;
                         })),
                  NodeError);
}

TEST_CASE("mutate passes through a node type registered at run time") {
  AddOne add_one;
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, plugin_block({add_one.func->body}));
  std::unordered_map<const Object*, PrimExpr> reversed;
  PrimFunc out = reverse_loops(f);
  const ObjectRef block = out->body->seq[0];
  CHECK(block->dynamic_type_key() == "test.PluginBlock");
  const auto* seq = block_children(block)[0].as<SeqStmtNode>();
  REQUIRE(seq != nullptr);
  const auto* store = seq->seq[0].as<ForNode>()->body->seq[0].as<TensorStoreNode>();
  CHECK(is_reversed_index(store->indices[0], add_one.n, add_one.i));
}

TEST_CASE("default_mutate of nodes no callback matches handles a chain far deeper than native "
          "recursion could go") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + 1;
  }
  PrimExpr out = mutate(chain, on<Var>([&](auto&, const Var& v) -> PrimExpr {
                          return v.same_as(x) ? PrimExpr(y) : PrimExpr(v);
                        }));
  int ys = 0;
  walk(out, [&](const Var& v) { ys += v.same_as(y) ? 1 : 0; });
  CHECK(ys == 1);
}
