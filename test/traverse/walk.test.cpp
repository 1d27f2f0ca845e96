// Tests of include/ctir/traverse/walk.hpp: seed 003's walk examples and the walk's rules.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/walk.hpp>

#include "deep_nesting.hpp"
#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

using namespace ctir;
using ctir::testing::AddOne;
using ctir::testing::deep_nesting;
using ctir::testing::short_key;

namespace {

/// The statement kinds of add_one in the given order (seed 003's "order" example).
template <class Order>
std::vector<std::string> statements(const PrimFunc& f, Order order) {
  std::vector<std::string> seen;
  walk(f, on<StmtNode>([&](const Stmt& s) { seen.push_back(short_key(*s)); }), order);
  return seen;
}

using strings = std::vector<std::string>;

} // namespace

TEST_CASE("walk finds the tensors add_one writes") {
  AddOne add_one;
  std::vector<std::string> written;
  walk(add_one.func, [&](const TensorStore& store) { written.push_back(store->dest->name); });
  CHECK(written == strings{"B"});
}

TEST_CASE(
    "walk reaches statements before their children in pre-order and after them in post-order") {
  AddOne add_one;
  CHECK(statements(add_one.func, pre_order) == strings{"SeqStmt", "For", "SeqStmt", "TensorStore"});
  CHECK(statements(add_one.func, post_order) ==
        strings{"TensorStore", "SeqStmt", "For", "SeqStmt"});
}

TEST_CASE("walk is post-order by default") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(add_one.func, on<StmtNode>([&](const Stmt& s) { seen.push_back(short_key(*s)); }));
  CHECK(seen == statements(add_one.func, post_order));
}

TEST_CASE("walk takes the order as a run-time WalkOrder too") {
  AddOne add_one;
  CHECK(statements(add_one.func, WalkOrder::pre) == statements(add_one.func, pre_order));
  CHECK(statements(add_one.func, WalkOrder::post) == statements(add_one.func, post_order));
}

TEST_CASE("a pre-order skip keeps the walk out of the node's children") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(add_one.func, on<StmtNode>([&](const Stmt& s) -> WalkResult<> {
         seen.push_back(short_key(*s));
         return s.is<ForNode>() ? skip : advance;
       }),
       pre_order);
  CHECK(seen == strings{"SeqStmt", "For"});
}

TEST_CASE("a post-order skip has no effect") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(add_one.func, on<StmtNode>([&](const Stmt& s) -> WalkResult<> {
         seen.push_back(short_key(*s));
         return skip;
       }));
  CHECK(seen == statements(add_one.func, post_order));
}

TEST_CASE("an interrupt stops the walk and returns its payload") {
  AddOne add_one;
  std::optional<Var> found =
      walk(add_one.func, [&](const TensorStore& store) { return interrupt(store->dest); });
  REQUIRE(found.has_value());
  CHECK(found->same_as(add_one.B));
  CHECK((*found)->name == "B");
}

TEST_CASE("a walk that finishes without an interrupt returns an empty payload") {
  AddOne add_one;
  std::optional<Var> found = walk(add_one.func, [&](const TensorStore& store) -> WalkResult<Var> {
    if (store->dest->name == "C") {
      return interrupt(store->dest);
    }
    return advance;
  });
  CHECK_FALSE(found.has_value());
}

TEST_CASE("an interrupt stops the walk at once") {
  AddOne add_one;
  int calls = 0;
  const WalkResult<> result = walk(add_one.func, on<StmtNode>([&](const Stmt&) {
                                     ++calls;
                                     return interrupt();
                                   }));
  CHECK(result.was_interrupted());
  CHECK(calls == 1);
  const WalkResult<> finished = walk(add_one.func, [&](const For&) {});
  CHECK_FALSE(finished.was_interrupted());
}

TEST_CASE("an interrupt in pre-order stops before the children") {
  AddOne add_one;
  std::vector<std::string> seen;
  auto found = walk(add_one.func, on<StmtNode>([&](const Stmt& s) -> WalkResult<Stmt> {
                      seen.push_back(short_key(*s));
                      if (s.is<ForNode>()) {
                        return interrupt(s);
                      }
                      return advance;
                    }),
                    pre_order);
  REQUIRE(found.has_value());
  CHECK(found->is<ForNode>());
  CHECK(seen == strings{"SeqStmt", "For"});
}

TEST_CASE("a walk for loops alone keeps orders, skips and interrupts inside branches") {
  // Only loops are matched, so loops and branches are walked inside their blocks' loops, and
  // a block inside a loop or a branch inside a block is walked in the enclosing block's
  // function: the loops g, h and i reach three levels of blocks below the top one.
  Var out = Var::make("out", TensorType::make({1}, DataType::int32()));
  auto loop = [](const char* name, Stmt body) {
    return For::make(Var::make(name, DataType::int32()), 0, 2, std::move(body));
  };
  Stmt store = TensorStore::make(out, {0}, 1);
  Stmt tree = SeqStmt::make(
      {loop("a", loop("b", store)),
       IfThenElse::make(IntImm::make(1, DataType::boolean()), loop("c", loop("d", store)),
                        SeqStmt::make({store, loop("e", store)})),
       IfThenElse::make(IntImm::make(0, DataType::boolean()), loop("f", store)),
       loop("g", loop("h", loop("i", store)))});
  auto names = [&](auto order) {
    strings seen;
    walk(
        tree, [&](const For& f) { seen.push_back(f->var->name); }, order);
    return seen;
  };
  CHECK(names(pre_order) == strings{"a", "b", "c", "d", "e", "f", "g", "h", "i"});
  CHECK(names(post_order) == strings{"b", "a", "d", "c", "e", "f", "i", "h", "g"});
  strings skipped;
  walk(
      tree,
      [&](const For& f) -> WalkResult<> {
        skipped.push_back(f->var->name);
        return f->var->name == "c" || f->var->name == "h" ? skip : advance;
      },
      pre_order);
  CHECK(skipped == strings{"a", "b", "c", "e", "f", "g", "h"});
  strings before_stop;
  std::optional<Var> found = walk(tree, [&](const For& f) -> WalkResult<Var> {
    before_stop.push_back(f->var->name);
    return f->var->name == "e" ? interrupt(f->var) : advance;
  });
  REQUIRE(found.has_value());
  CHECK((*found)->name == "e");
  CHECK(before_stop == strings{"b", "a", "d", "c", "e"});
  strings before_deepest;
  std::optional<Var> deepest = walk(
      tree,
      [&](const For& f) -> WalkResult<Var> {
        before_deepest.push_back(f->var->name);
        return f->var->name == "i" ? interrupt(f->var) : advance;
      },
      pre_order);
  REQUIRE(deepest.has_value());
  CHECK((*deepest)->name == "i");
  CHECK(before_deepest == strings{"a", "b", "c", "d", "e", "f", "g", "h", "i"});
}

TEST_CASE("with_def_region_kind reports add_one's definition sites") {
  AddOne add_one;
  std::vector<std::string> sites;
  walk(add_one.func, with_def_region_kind([&](const Var& var, DefRegionKind kind) {
         if (kind != DefRegionKind::none) {
           sites.push_back(var->name + " " + std::string(to_string(kind)));
         }
       }),
       pre_order);
  CHECK(sites == strings{"A DEF_PATTERN", "n DEF_PATTERN", "B DEF_PATTERN", "n DEF_PATTERN",
                         "i DEF_SIMPLE"});
}

TEST_CASE("with_def_region_kind reports every use as NONE") {
  AddOne add_one;
  std::vector<std::string> uses;
  walk(add_one.func, with_def_region_kind([&](const Var& var, DefRegionKind kind) {
         if (kind == DefRegionKind::none) {
           uses.push_back(var->name);
         }
       }));
  // range(n), then B[i] = A[i] + 1 (post-order: the store's dest, its index, the load).
  CHECK(uses == strings{"n", "B", "i", "A", "i"});
}

TEST_CASE("a pattern region covers the variables inside a parameter's type in post-order too") {
  AddOne add_one;
  std::vector<std::string> sites;
  walk(add_one.func, with_def_region_kind([&](const Var& var, DefRegionKind kind) {
         if (kind != DefRegionKind::none) {
           sites.push_back(var->name);
         }
       }));
  CHECK(sites == strings{"n", "A", "n", "B", "i"});
}

TEST_CASE("a simple definition covers only the variable, not the variables in its type") {
  Var m = Var::make("m", DataType::int32());
  Var buf = Var::make("buf", TensorType::make({m}, DataType::float32()));
  Stmt block = SeqStmt::make({Bind::make(buf, 0), TensorStore::make(buf, {0}, 1.0f)});
  std::vector<std::string> sites;
  walk(block, with_def_region_kind([&](const Var& var, DefRegionKind kind) {
         sites.push_back(var->name + " " + std::string(to_string(kind)));
       }),
       pre_order);
  CHECK(sites == strings{"buf DEF_SIMPLE", "m NONE", "buf NONE"});
}

TEST_CASE("an Allocate buffer is a pattern: its shape variables are definitions") {
  Var m = Var::make("m", DataType::int32());
  Var buf = Var::make("buf", TensorType::make({m}, DataType::float32()));
  std::vector<std::string> sites;
  walk(Stmt(Allocate::make(buf)), with_def_region_kind([&](const Var& var, DefRegionKind kind) {
         sites.push_back(var->name + " " + std::string(to_string(kind)));
       }),
       pre_order);
  CHECK(sites == strings{"buf DEF_PATTERN", "m DEF_PATTERN"});
}

TEST_CASE("the first callback that matches a node is the only one that runs") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(
      add_one.func, [&](const For&) { seen.push_back("loop"); },
      on<StmtNode>([&](const Stmt& s) { seen.push_back(short_key(*s)); }),
      [&](const TensorStore&) { seen.push_back("never: the Stmt callback comes first"); });
  CHECK(seen == strings{"TensorStore", "SeqStmt", "loop", "SeqStmt"});
}

TEST_CASE("a callback on a base type sees every node of its subtypes") {
  AddOne add_one;
  int exprs = 0;
  int prim_exprs = 0;
  int stmts = 0;
  walk(add_one.func, [&](const StmtNode&) { ++stmts; });
  walk(add_one.func, [&](const PrimExpr&) { ++prim_exprs; });
  walk(add_one.func, [&](const Expr&) { ++exprs; });
  CHECK(stmts == 4);
  // The parameters A and B (variables are scalar expressions), n in both shapes, the
  // loop's i, 0 and n, then B, i, the Add, the load, A, i and 1f.
  CHECK(prim_exprs == 14);
  CHECK(exprs == prim_exprs + 1); // the PrimFunc is an expression too
}

TEST_CASE("a callback taking Object sees every node") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(
      add_one.func, [&](const Object& node) { seen.push_back(short_key(node)); }, pre_order);
  CHECK(seen == strings{"PrimFunc",   "Var",         "TensorType", "Var",      "PrimType",
                        "Var",        "TensorType",  "Var",        "PrimType", "SeqStmt",
                        "For",        "Var",         "PrimType",   "IntImm",   "Var",
                        "SeqStmt",    "TensorStore", "Var",        "Var",      "Add",
                        "TensorLoad", "Var",         "Var",        "FloatImm"});
  std::size_t by_ref = 0;
  walk(add_one.func, [&](const ObjectRef&) { ++by_ref; });
  CHECK(by_ref == seen.size());
}

TEST_CASE("on<A, B> gives one callback several node types") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(add_one.func, on<TensorStore, TensorLoad>([&](const auto& node) {
         using N = typename std::remove_cvref_t<decltype(node)>::node_type;
         if constexpr (std::is_same_v<N, TensorStoreNode>) {
           seen.push_back("write " + node->dest->name);
         } else {
           seen.push_back("read " + node->source->name);
         }
       }));
  CHECK(seen == strings{"read A", "write B"});
}

TEST_CASE("on<...> passes the node as the type its callback names") {
  AddOne add_one;
  std::vector<std::string> seen;
  walk(add_one.func,
       on<ForNode, TensorStoreNode>([&](const StmtNode& s) { seen.push_back(short_key(s)); }));
  CHECK(seen == strings{"TensorStore", "For"});
  int loops = 0;
  walk(add_one.func, on<For>([&](const ForNode& loop) { loops += loop.var.same_as(add_one.i); }));
  CHECK(loops == 1);
}

TEST_CASE("a callback list built once works like the callbacks passed one by one") {
  AddOne add_one;
  std::vector<std::string> seen;
  auto cbs = callbacks([&](const For&) { seen.push_back("For"); },
                       [&](const TensorStore&) { seen.push_back("TensorStore"); });
  walk(add_one.func, cbs, pre_order);
  walk(add_one.func, cbs);
  CHECK(seen == strings{"For", "TensorStore", "TensorStore", "For"});
}

TEST_CASE("walk never passes a null field to a callback") {
  Var c = Var::make("c", DataType::boolean());
  Var x = Var::make("x");                                          // no type
  Stmt branch = IfThenElse::make(c, TensorStore::make(x, {0}, 1)); // no else
  int nulls = 0;
  int nodes = 0;
  walk(branch, [&](const ObjectRef& node) {
    ++nodes;
    nulls += node.defined() ? 0 : 1;
  });
  CHECK(nulls == 0);
  // IfThenElse, c, SeqStmt, TensorStore, x, IntImm, IntImm.
  CHECK(nodes == 7);
}

TEST_CASE("walk does not visit fields flagged ignore, nor plain values") {
  // IRModuleNode::index is ignored, BaseFuncNode::name is ignored and a plain value.
  IRModule mod;
  AddOne add_one;
  mod.add("add_one", add_one.func);
  std::vector<std::string> seen;
  walk(
      mod, [&](const Object& node) { seen.push_back(short_key(node)); }, pre_order);
  REQUIRE(seen.size() >= 3);
  CHECK(seen[0] == "IRModule");
  CHECK(seen[1] == "GlobalVar");
  CHECK(seen[2] == "PrimFunc");
  CHECK(seen.size() == 26); // the module, its GlobalVar, then add_one's 24 nodes
}

TEST_CASE("a variable at a use is a leaf: its type is walked where it is defined") {
  AddOne add_one;
  int types = 0;
  walk(add_one.func, [&](const TypeNode&) { ++types; });
  // A's and B's TensorTypes, the PrimTypes of n (twice) and of i; not again at each use.
  CHECK(types == 5);
}

TEST_CASE("walk prunes fields that cannot lead to a node a callback matches") {
  // A probe expression registered at run time counts the reads of its field table: if a
  // walk enters an expression field, it reads the probe.
  Var x = Var::make("x", DataType::int32());
  Var out = Var::make("out", TensorType::make({4}, DataType::int32()));
  Var i = Var::make("i", DataType::int32());
  PrimExpr probe = ctir::testing::probe_expr({x});
  Stmt body = For::make(i, 0, 4, TensorStore::make(out, {i}, probe + 1));
  PrimFunc f = PrimFunc::make("f", {out}, body);

  ctir::testing::ProbeExprNode::reads = 0;
  int loops = 0;
  walk(f, [&](const For&) { ++loops; });
  CHECK(loops == 1);
  CHECK(ctir::testing::ProbeExprNode::reads == 0); // looking for loops: never in an expression

  ctir::testing::ProbeExprNode::reads = 0;
  int adds = 0;
  walk(f, [&](const Add&) { ++adds; });
  CHECK(adds == 1);
  CHECK(ctir::testing::ProbeExprNode::reads == 1); // expressions may hold an Add: entered

  ctir::testing::ProbeExprNode::reads = 0;
  int types = 0;
  walk(f, [&](const TensorType&) { ++types; });
  CHECK(types == 1);
  CHECK(ctir::testing::ProbeExprNode::reads == 1); // a variable's type can be a TensorType
}

TEST_CASE("a walk for graph-level expressions excluding PrimExpr never enters a type") {
  // The probe, a scalar expression registered at run time, is a dimension of the
  // parameter's type: the walk of an excluded callback never reads it.
  Var x = Var::make("x", TensorType::make({ctir::testing::probe_expr({})}, DataType::float32()));
  Function f = Function::make({x}, call("add", {x, call("multiply", {x, x})}));
  ctir::testing::ProbeExprNode::reads = 0;
  strings graph;
  walk(f, excluding<PrimExpr>([&](const Expr& e) { graph.push_back(short_key(*e)); }));
  CHECK(graph == strings{"Op", "Op", "Call", "Call", "Function"});
  CHECK(ctir::testing::ProbeExprNode::reads == 0);
  ctir::testing::ProbeExprNode::reads = 0;
  strings all;
  walk(f, [&](const Expr& e) { all.push_back(short_key(*e)); });
  CHECK(all.size() > graph.size());
  CHECK(ctir::testing::ProbeExprNode::reads == 1);

  // As a call's argument the probe is not passed to the callback (it is a PrimExpr by its
  // run-time type); the walk reads its fields, which a type unknown at compile time may
  // fill with anything.
  Function g = Function::make({x}, call("add", {x, ctir::testing::probe_expr({})}));
  strings seen;
  walk(g, excluding<PrimExpr>([&](const Expr& e) { seen.push_back(short_key(*e)); }));
  CHECK(seen == strings{"Op", "Call", "Function"});
}

TEST_CASE("a walk not into Type reads no type, even for a callback on every variable") {
  Var x = Var::make("x", TensorType::make({ctir::testing::probe_expr({})}, DataType::float32()));
  Function f = Function::make({x}, call("add", {x, x}));
  ctir::testing::ProbeExprNode::reads = 0;
  int vars = 0;
  walk(f, not_into<Type>([&](const Var&) { ++vars; }));
  CHECK(vars == 3);
  CHECK(ctir::testing::ProbeExprNode::reads == 0);
  walk(f, [&](const Var&) { ++vars; });
  CHECK(ctir::testing::ProbeExprNode::reads == 1);
}

TEST_CASE("walk sees the nodes inside a type registered at run time") {
  AddOne add_one;
  Stmt block = ctir::testing::plugin_block({add_one.func->body, add_one.i}, "block",
                                           /*hidden=*/add_one.func->body);
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, block);
  std::vector<std::string> seen;
  walk(f, on<StmtNode>([&](const Stmt& s) { seen.push_back(short_key(*s)); }), pre_order);
  // The hidden field is ignored: its statements are not seen twice.
  CHECK(seen == strings{"SeqStmt", "test.PluginBlock", "SeqStmt", "For", "SeqStmt", "TensorStore"});
  std::optional<Var> found =
      walk(f, [&](const TensorStore& store) { return interrupt(store->dest); });
  REQUIRE(found.has_value());
  CHECK(found->same_as(add_one.B));
}

TEST_CASE("walk handles a chain of expressions far deeper than native recursion could go") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + k % 7;
  }
  std::size_t adds = 0;
  std::size_t vars = 0;
  walk(
      chain, [&](const Add&) { ++adds; }, [&](const Var&) { ++vars; });
  CHECK(adds == deep_nesting);
  CHECK(vars == 1);
  // Post-order: the innermost Add comes first.
  std::optional<PrimExpr> first =
      walk(chain, [&](const Add& add) -> WalkResult<PrimExpr> { return interrupt(PrimExpr(add)); });
  REQUIRE(first.has_value());
  CHECK((*first).as<AddNode>()->a.same_as(x));
  std::size_t pre_adds = 0;
  walk(
      chain, [&](const Add&) { ++pre_adds; }, pre_order);
  CHECK(pre_adds == deep_nesting);
}

TEST_CASE("walk handles loops and blocks nested far deeper than native recursion could go") {
  Var out = Var::make("out", TensorType::make({1}, DataType::int32()));
  Stmt nest = TensorStore::make(out, {0}, 1);
  for (int k = 0; k < deep_nesting; ++k) {
    nest = For::make(Var::make("i", DataType::int32()), 0, 2, nest);
  }
  std::size_t loops = 0;
  std::size_t blocks = 0;
  std::size_t stores = 0;
  walk(
      nest, [&](const For&) { ++loops; }, [&](const SeqStmt&) { ++blocks; },
      [&](const TensorStore&) { ++stores; });
  CHECK(loops == deep_nesting);
  CHECK(blocks == deep_nesting);
  CHECK(stores == 1);
  std::vector<std::string> sites;
  std::size_t loop_vars = 0;
  walk(nest, with_def_region_kind([&](const Var&, DefRegionKind kind) {
         loop_vars += kind == DefRegionKind::def_simple ? 1 : 0;
       }),
       pre_order);
  CHECK(loop_vars == deep_nesting);
}

TEST_CASE("walk starts from any node handle, an IRModule included") {
  AddOne add_one;
  IRModule mod{add_one.func};
  std::vector<std::string> written;
  walk(mod, [&](const TensorStore& store) { written.push_back(store->dest->name); });
  CHECK(written == strings{"B"});
}

TEST_CASE("walk of a null root calls nothing") {
  PrimFunc none;
  int calls = 0;
  CHECK_FALSE(walk(none, [&](const Object&) { ++calls; }).was_interrupted());
  CHECK(calls == 0);
}

TEST_CASE("walk callbacks may take the node by Ref, by value or as the node type") {
  AddOne add_one;
  int by_ref = 0;
  int by_value = 0;
  int by_node = 0;
  walk(add_one.func, [&](const For&) { ++by_ref; });
  walk(add_one.func, [&](For) { ++by_value; });
  walk(add_one.func, [&](const ForNode&) { ++by_node; });
  CHECK(by_ref == 1);
  CHECK(by_value == 1);
  CHECK(by_node == 1);
  // Borrowed references do not change the use count of what the walk passes.
  const std::uint32_t before = add_one.func->body->seq[0]->use_count();
  std::uint32_t during = 0;
  walk(add_one.func, [&](const For& loop) { during = loop->use_count(); });
  CHECK(during == before);
}
