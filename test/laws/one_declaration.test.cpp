// A graph-level node kind is one declaration: Annotate, declared here and nowhere in ctir, is
// handled by walk, map (with sharing), visit, mutate, structural equality and hashing,
// format_tree, the verifier, DeadCodeElimination and EliminateCommonSubexpr.
#include <ctir/ir/ir.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/format_tree.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/mutate.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>
#include <ctir/traverse/visit.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using namespace ctir;

namespace {

/// `annotate(expr, "tag")`: a value with a note attached, as a frontend might add.
struct AnnotateNode final : ExprNode {
  CTIR_NODE(AnnotateNode, ExprNode, "test.Annotate");
  Expr expr;
  std::string tag;
  CTIR_FIELDS(CTIR_FIELD(expr), CTIR_FIELD(tag));
};
using Annotate = Ref<AnnotateNode>;

Annotate annotate(Expr expr, std::string tag) {
  auto node = make_object<AnnotateNode>();
  node->expr = std::move(expr);
  node->tag = std::move(tag);
  return std::move(node).publish();
}

Type tensor2() { return TensorType::make({2}, DataType::float32()); }

Call make_call(const std::string& op, std::vector<Expr> args) {
  return Call::make(Op::make(op), std::move(args));
}

/// `%0 = annotate(exp(%x), "hot"); add(%0, %0)`: a shared annotation.
struct Shared {
  Var x = Var::make("x", tensor2());
  Call inner = make_call("exp", {x});
  Annotate note = annotate(inner, "hot");
  Call root = make_call("add", {note, note});
};

} // namespace

TEST_CASE("walk and visit reach an annotation's operand, and meet a shared one once") {
  Shared s;
  int notes = 0;
  int exps = 0;
  walk(
      s.root, [&](const Annotate&) { ++notes; },
      [&](const Call& c) { exps += c->op.as<OpNode>()->name == "exp" ? 1 : 0; });
  CHECK(notes == 1);
  CHECK(exps == 1);
  int visited = 0;
  visit(s.root, on<Annotate>([&](auto& v, const Annotate& a) {
          ++visited;
          return v.default_visit(a);
        }));
  CHECK(visited == 1);
  runtime::Callbacks cbs;
  int runtime_notes = 0;
  cbs.on("test.Annotate", [&](const ObjectRef&) { ++runtime_notes; });
  runtime::walk(s.root, cbs);
  CHECK(runtime_notes == 1);
}

TEST_CASE("map and mutate rebuild an annotation around a rewritten operand, shared") {
  Shared s;
  int rewrites = 0;
  const Expr out = map(Expr(s.root), [&](const Annotate& a) -> Expr {
    ++rewrites;
    return annotate(a->expr, a->tag + "!");
  });
  CHECK(rewrites == 1);
  const auto* root = out.as<CallNode>();
  REQUIRE(root != nullptr);
  CHECK(root->args[0].same_as(root->args[1]));
  CHECK(root->args[0].as<AnnotateNode>()->tag == "hot!");

  // A rewrite below it rebuilds the annotation through its hooks.
  const Expr logs = map(Expr(s.root), [](const Call& c) -> Expr {
    return c->op.as<OpNode>()->name == "exp" ? Expr(make_call("log", c->args)) : Expr(c);
  });
  const auto* note = logs.as<CallNode>()->args[0].as<AnnotateNode>();
  REQUIRE(note != nullptr);
  CHECK(note->tag == "hot");
  CHECK(note->expr.as<CallNode>()->op.as<OpNode>()->name == "log");

  int mutated = 0;
  const Expr dropped = mutate(Expr(s.root), on<Annotate>([&](auto& m, const Annotate& a) -> Expr {
                                ++mutated;
                                return m.default_mutate(a->expr);
                              }));
  CHECK(mutated == 1);
  CHECK(dropped.as<CallNode>()->args[0].same_as(dropped.as<CallNode>()->args[1]));
  CHECK(dropped.as<CallNode>()->args[0].is<CallNode>());
}

TEST_CASE("annotations compare, hash and draw by their fields") {
  Shared a;
  Shared b;
  CHECK(structural_equal(a.root, b.root, {.map_free_vars = true}));
  CHECK(structural_hash(a.root, {.map_free_vars = true}) ==
        structural_hash(b.root, {.map_free_vars = true}));
  const Expr other_tag = make_call("add", {annotate(a.inner, "cold"), annotate(a.inner, "cold")});
  CHECK_FALSE(structural_equal(Expr(a.root), other_tag));
  CHECK(structural_hash(Expr(a.root)) != structural_hash(other_tag));
  const std::string drawing = format_tree(a.root);
  CHECK(drawing.find("#0 = Annotate(tag=\"hot\")") != std::string::npos);
  CHECK(drawing.find("└── args[1]: #0") != std::string::npos);
}

TEST_CASE("the verifier, DeadCodeElimination and EliminateCommonSubexpr handle annotations") {
  const Var x = Var::make("x", tensor2());
  const Var unused = Var::make("unused", tensor2());
  // let %unused = annotate(exp(%x)); (annotate(exp(%x)), annotate(exp(%x)))
  const Expr body = Let::make(
      unused, annotate(make_call("exp", {x}), "dead"),
      Tuple::make({annotate(make_call("exp", {x}), "a"), annotate(make_call("exp", {x}), "a")}));
  const IRModule mod{Function::make({x}, body, {}, {}, "main")};
  CHECK(verify_well_formed(mod).empty());

  const IRModule live = passes::DeadCodeElimination{}(mod);
  const auto* tuple = live.find("main").as<FunctionNode>()->body.as<TupleNode>();
  REQUIRE(tuple != nullptr); // the unused let is gone
  CHECK(tuple->fields[0].is<AnnotateNode>());

  PassContext ctx{{.opt_level = 3}};
  const IRModule shared = passes::EliminateCommonSubexpr{}(live, ctx);
  const auto* fields = shared.find("main").as<FunctionNode>()->body.as<TupleNode>();
  REQUIRE(fields != nullptr);
  // The two exp calls under the annotations are one computation now.
  CHECK(fields->fields[0].as<AnnotateNode>()->expr.same_as(
      fields->fields[1].as<AnnotateNode>()->expr));
  CHECK(verify_well_formed(shared).empty());
}
