// Tests of include/ctir/traverse/detail/sharing.hpp: a graph-level node with operands is met
// once per traversal however many uses reach it, in walk, visit, map and mutate, in the
// static and the runtime layer; variables and tensor-level IR are met at every use.
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/mutate.hpp>
#include <ctir/runtime/visit.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/mutate.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/visit.hpp>
#include <ctir/traverse/walk.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

using namespace ctir;

namespace {

Call make_call(const std::string& op, std::vector<Expr> args) {
  return Call::make(Op::make(op), std::move(args));
}

/// `%0 = multiply(%x, %x); add(%0, %0)`: one shared call.
struct Diamond {
  Var x = Var::make("x");
  Call product = make_call("multiply", {x, x});
  Call root = make_call("add", {product, product});
};

/// `%k = add(%k-1, %k-2)` for k < n: each binding used twice, 2^n paths from the root.
Expr fibonacci_dag(std::size_t n) {
  Expr older = Var::make("a");
  Expr newer = Var::make("b");
  for (std::size_t k = 0; k < n; ++k) {
    Expr next = make_call("add", {newer, older});
    older = newer;
    newer = next;
  }
  return newer;
}

/// The distinct nodes reachable from `root` (every field, every node once).
std::size_t distinct_nodes(const ObjectRef& root) {
  std::unordered_set<const Object*> seen;
  std::vector<const Object*> stack{root.get()};
  while (!stack.empty()) {
    const Object* node = stack.back();
    stack.pop_back();
    if (node == nullptr || !seen.insert(node).second) {
      continue;
    }
    for (const FieldInfo& field : node->type_info().fields) {
      if (field.kind == FieldKind::node) {
        stack.push_back(field.get(*node, field));
      } else if (field.kind == FieldKind::node_array) {
        for (std::size_t i = 0; i < field.size(*node, field); ++i) {
          stack.push_back(field.at(*node, field, i));
        }
      }
    }
  }
  return seen.size();
}

/// Replaces every multiply by a subtract, counting the calls it is asked about.
struct SubtractForMultiply {
  int* calls;
  Expr operator()(const Call& c) const {
    ++*calls;
    const auto* op = c->op.as<OpNode>();
    if (op != nullptr && op->name == "multiply") {
      return Call::make(Op::make("subtract"), c->args);
    }
    return c;
  }
};

} // namespace

TEST_CASE("walk meets a shared call once and a variable at every use, in both orders") {
  Diamond d;
  int calls = 0;
  int uses = 0;
  walk(
      d.root, [&](const Call&) { ++calls; }, [&](const Var&) { ++uses; }, pre_order);
  CHECK(calls == 2);
  CHECK(uses == 2);
  calls = 0;
  uses = 0;
  walk(
      d.root, [&](const Call&) { ++calls; }, [&](const Var&) { ++uses; }, post_order);
  CHECK(calls == 2);
  CHECK(uses == 2);
}

TEST_CASE("the runtime walk and visit meet a shared call once, as the static ones do") {
  Diamond d;
  int calls = 0;
  int uses = 0;
  runtime::Callbacks cbs;
  cbs.on("ir.Call", [&](const ObjectRef&) { ++calls; });
  cbs.on("ir.Var", [&](const ObjectRef&) { ++uses; });
  runtime::walk(d.root, cbs);
  CHECK(calls == 2);
  CHECK(uses == 2);

  int visited = 0;
  runtime::Callbacks visit_cbs;
  visit_cbs.on("ir.Call", [&](runtime::Visitor& v, const ObjectRef& node) {
    ++visited;
    return v.default_visit(node);
  });
  runtime::visit(d.root, visit_cbs);
  CHECK(visited == 2);

  int static_visited = 0;
  visit(d.root, on<Call>([&](auto& v, const Call& c) {
          ++static_visited;
          return v.default_visit(c);
        }));
  CHECK(static_visited == 2);
}

TEST_CASE("map rewrites a shared call once and the uses share the rewrite") {
  Diamond d;
  int calls = 0;
  const Expr out = map(Expr(d.root), SubtractForMultiply{&calls}, pre_order);
  CHECK(calls == 2);
  const auto* root = out.as<CallNode>();
  REQUIRE(root != nullptr);
  CHECK(root->args[0].same_as(root->args[1]));
  CHECK(root->args[0].as<CallNode>()->op.as<OpNode>()->name == "subtract");
  CHECK(distinct_nodes(out) == distinct_nodes(d.root));
  const Call expected_product = make_call("subtract", {d.x, d.x});
  CHECK(structural_equal(out, Expr(make_call("add", {expected_product, expected_product}))));
}

TEST_CASE("map in post-order and the runtime map share a shared call's rewrite too") {
  Diamond d;
  int calls = 0;
  const Expr post = map(Expr(d.root), SubtractForMultiply{&calls});
  CHECK(calls == 2);
  CHECK(post.as<CallNode>()->args[0].same_as(post.as<CallNode>()->args[1]));

  int runtime_calls = 0;
  runtime::Callbacks cbs;
  cbs.on("ir.Call", [&](const ObjectRef& node) -> ObjectRef {
    return SubtractForMultiply{&runtime_calls}(downcast<CallNode>(node));
  });
  const ObjectRef out = runtime::map(d.root, cbs);
  CHECK(runtime_calls == 2);
  CHECK(out.as<CallNode>()->args[0].same_as(out.as<CallNode>()->args[1]));
  CHECK(structural_equal(out, post));
}

TEST_CASE("an identity map of a shared graph returns the same object") {
  Diamond d;
  int calls = 0;
  CHECK(map(Expr(d.root), [&](const Call& c) {
          ++calls;
          return c;
        }).same_as(d.root));
  CHECK(calls == 2);
  runtime::Callbacks keep;
  keep.on("ir.Call", [](const ObjectRef& c) { return c; });
  CHECK(runtime::map(d.root, keep).same_as(d.root));
}

TEST_CASE("mutate handles a shared call once and shares its result, in both layers") {
  Diamond d;
  int calls = 0;
  const Expr out = mutate(Expr(d.root), on<Call>([&](auto& m, const Call& c) -> Expr {
                            ++calls;
                            return m.default_mutate(c);
                          }),
                          on<Var>([](auto&, const Var&) -> Expr { return Var::make("y"); }));
  CHECK(calls == 2);
  const auto* root = out.as<CallNode>();
  REQUIRE(root != nullptr);
  CHECK(root->args[0].same_as(root->args[1]));

  int runtime_calls = 0;
  runtime::Callbacks cbs;
  cbs.on("ir.Call", [&](runtime::Mutator& m, const ObjectRef& node) -> ObjectRef {
    ++runtime_calls;
    return m.default_mutate(node);
  });
  cbs.on("ir.Var", [](runtime::Mutator&, const ObjectRef&) -> ObjectRef { return Var::make("y"); });
  const ObjectRef runtime_out = runtime::mutate(d.root, cbs);
  CHECK(runtime_calls == 2);
  CHECK(runtime_out.as<CallNode>()->args[0].same_as(runtime_out.as<CallNode>()->args[1]));
}

TEST_CASE("traversals of a DAG with 2^1000 paths are linear in its distinct nodes") {
  const Expr dag = fibonacci_dag(1000);
  int calls = 0;
  walk(dag, [&](const Call&) { ++calls; });
  CHECK(calls == 1000);

  int mapped = 0;
  const Expr out = map(dag, [&](const Call& c) -> Expr {
    ++mapped;
    return Call::make(Op::make("multiply"), c->args);
  });
  CHECK(mapped == 1000);
  CHECK(distinct_nodes(out) == distinct_nodes(dag)); // a multiply (and its op) for each add

  runtime::Callbacks count;
  int runtime_calls = 0;
  count.on("ir.Call", [&](const ObjectRef&) { ++runtime_calls; });
  runtime::walk(dag, count);
  CHECK(runtime_calls == 1000);
}

TEST_CASE("tensor-level expressions are met at every use, even when shared") {
  const Var i = Var::make("i", DataType::int32());
  const PrimExpr sum = i + 1;
  const PrimExpr product = sum * sum;
  int adds = 0;
  walk(product, [&](const Add&) { ++adds; });
  CHECK(adds == 2);
  int rewritten = 0;
  const PrimExpr out = map(product, [&](const Add& a) -> PrimExpr {
    ++rewritten;
    return a->a - a->b;
  });
  CHECK(rewritten == 2);
  CHECK(out.as<MulNode>() != nullptr);
}
