// Tests of include/ctir/runtime/callbacks.hpp: excluding() and not_into() in the runtime layer
// agree with the static layer's excluding<...> and not_into<...>.
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/mutate.hpp>
#include <ctir/runtime/visit.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/callbacks.hpp>
#include <ctir/traverse/walk.hpp>

#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

using strings = std::vector<std::string>;

/// fn (%x: Tensor[(n), float32]) { add(%x, 1f) }: a shape variable inside a type.
struct ShapedFunction {
  Var n = Var::make("n", DataType::int32());
  Var x = Var::make("x", TensorType::make({n}, DataType::float32()));
  Function f = Function::make(
      {x},
      call("add", {x, Constant::make(TensorData::from_doubles(DataType::float32(), {}, {1.0}))}));
};

/// let %v0: Tensor[(n)] = x; let %v1: Tensor[(n)] = %v0; ... %v{depth-1}: every binding's
/// variable has a type holding n, and the lets nest `depth` deep.
Expr typed_let_chain(const Var& x, const Var& n, int depth) {
  std::vector<Var> vars;
  vars.reserve(static_cast<std::size_t>(depth));
  for (int k = 0; k < depth; ++k) {
    vars.push_back(Var::make("v" + std::to_string(k), TensorType::make({n}, DataType::float32())));
  }
  Expr body = vars.back();
  for (int k = depth - 1; k >= 0; --k) {
    body = Let::make(vars[static_cast<std::size_t>(k)],
                     k == 0 ? Expr(x) : Expr(vars[static_cast<std::size_t>(k - 1)]), body);
  }
  return body;
}

/// The first shape dimension of the type of a let-bound variable.
const Object* shape_of(const Expr& let) {
  const auto* node = let.as<LetNode>();
  REQUIRE(node != nullptr);
  const auto* type = node->var->ty.as<TensorTypeNode>();
  REQUIRE(type != nullptr);
  return type->shape[0].get();
}

} // namespace

TEST_CASE("a runtime callback excluding a type lets its nodes through to the next callback") {
  ShapedFunction s;
  int exprs = 0;
  int vars = 0;
  int others = 0;
  runtime::Callbacks cbs;
  cbs.on("ir.Expr", [&](const ObjectRef&) { ++exprs; }).excluding("ir.Var");
  cbs.on("ir.Var", [&](const ObjectRef&) { ++vars; });
  cbs.on("Object", [&](const ObjectRef&) { ++others; });
  runtime::walk(s.f, cbs);
  CHECK(exprs == 4); // the Op, the Constant, the Call, the Function; not x or n
  CHECK(vars == 3);  // x at its definition and its use, n in x's type
  // The static layer counts the same.
  int static_others = 0;
  walk(
      s.f, excluding<Var>([&](const Expr&) { --exprs; }), [&](const Var&) { --vars; },
      [&](const Object&) { ++static_others; });
  CHECK(exprs == 0);
  CHECK(vars == 0);
  CHECK(others == static_others);
  CHECK(others > 0); // the TensorType and its PrimTypes
}

TEST_CASE("a runtime callback excluding PrimExpr sees graph-level nodes in the static order") {
  ShapedFunction s;
  strings runtime_seen;
  runtime::Callbacks cbs;
  cbs.on<ExprNode>([&](const ObjectRef& e) { runtime_seen.push_back(short_key(*e)); })
      .excluding<PrimExprNode>();
  for (const WalkOrder order : {WalkOrder::pre, WalkOrder::post}) {
    runtime_seen.clear();
    runtime::walk(s.f, cbs, order);
    strings static_seen;
    walk(s.f, excluding<PrimExpr>([&](const Expr& e) { static_seen.push_back(short_key(*e)); }),
         order);
    CHECK(runtime_seen == static_seen);
    CHECK(runtime_seen.size() == 4);
  }
}

TEST_CASE("a runtime map whose callback excludes PrimExpr rewrites calls and keeps the rest") {
  ShapedFunction s;
  runtime::Callbacks cbs;
  int seen = 0;
  cbs.on("ir.Expr",
         [&](const ObjectRef& e) -> ObjectRef {
           ++seen;
           return e;
         })
      .excluding("ir.PrimExpr");
  CHECK(runtime::map(s.f, cbs).same_as(s.f));
  CHECK(seen == 4);
  runtime::Callbacks rename;
  rename
      .on("ir.Call",
          [&](const ObjectRef& c) -> ObjectRef {
            return call("multiply", downcast<CallNode>(c)->args);
          })
      .excluding("ir.PrimExpr");
  auto out = downcast<FunctionNode>(runtime::map(s.f, rename));
  CHECK(out->body.as<CallNode>()->op.as<OpNode>()->name == "multiply");
  CHECK(out->params[0].same_as(s.x));
}

TEST_CASE("excluding with no callback to apply to is an error naming the type") {
  runtime::Callbacks cbs;
  CHECK_THROWS_WITH_AS(cbs.excluding("ir.Var"),
                       doctest::Contains("excluding('ir.Var'): it applies to the callback added "
                                         "last, and there is none yet"),
                       Error);
  CHECK_THROWS_WITH_AS(cbs.on("ir.Expr", [](const ObjectRef&) {}).excluding("ir.NoSuchType"),
                       doctest::Contains("'ir.NoSuchType'"), Error);
}

TEST_CASE("not_into keeps the runtime walk out of the types it names") {
  ShapedFunction s;
  int vars = 0;
  int types = 0;
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [&](const ObjectRef&) { ++vars; });
  cbs.on("ir.Type", [&](const ObjectRef&) { ++types; });
  cbs.not_into("ir.Type");
  runtime::walk(s.f, cbs);
  CHECK(vars == 2); // x at its definition and its use; not n, inside x's type
  CHECK(types == 0);
  int static_vars = 0;
  walk(s.f, not_into<Type>([&](const Var&) { ++static_vars; }));
  CHECK(vars == static_vars);
}

TEST_CASE("not_into keeps the runtime map, visit and mutate out of the types it names") {
  ShapedFunction s;
  Var m = Var::make("m", DataType::int32());
  Var y = Var::make("y", s.x->ty);
  // A map renames what it enters and keeps what it does not: x's type still holds n.
  runtime::Callbacks rename;
  rename.on("ir.Var", [&](const ObjectRef& v) -> ObjectRef {
    return v.same_as(s.n) ? ObjectRef(m) : v.same_as(s.x) ? ObjectRef(y) : v;
  });
  auto everywhere = downcast<FunctionNode>(runtime::map(s.f, rename));
  CHECK_FALSE(everywhere->params[0]->ty.same_as(s.x->ty)); // without not_into, n becomes m
  rename.not_into("ir.Type");
  auto renamed = downcast<FunctionNode>(runtime::map(s.f, rename));
  REQUIRE(renamed->params.size() == 1);
  CHECK(renamed->params[0].same_as(y));
  CHECK(renamed->params[0]->ty.same_as(s.x->ty));

  int visited = 0;
  runtime::Callbacks visit_vars;
  visit_vars.on("ir.Var", [&](runtime::Visitor& v, const ObjectRef& var) {
    ++visited;
    return v.default_visit(var);
  });
  visit_vars.not_into<TypeNode>();
  runtime::visit(s.f, visit_vars);
  CHECK(visited == 2);

  runtime::Callbacks mutate_n;
  mutate_n.on("ir.Var", [&](runtime::Mutator& mut, const ObjectRef& v) -> ObjectRef {
    return v.same_as(s.n) ? ObjectRef(m) : mut.default_mutate(v);
  });
  CHECK_FALSE(runtime::mutate(s.f, mutate_n).same_as(s.f));
  mutate_n.not_into("ir.Type");
  CHECK(runtime::mutate(s.f, mutate_n).same_as(s.f));
}

TEST_CASE("not_into holds in a runtime map over lets nested beyond the native stack") {
  // 200,000 nested lets take the map's explicit-stack path; each let's variable has a type
  // holding n, which the map must not enter.
  ShapedFunction s;
  Var m = Var::make("m", DataType::int32());
  Expr chain = typed_let_chain(s.x, s.n, 200000);
  runtime::Callbacks rename;
  rename.on("ir.Var",
            [&](const ObjectRef& v) -> ObjectRef { return v.same_as(s.n) ? ObjectRef(m) : v; });
  rename.not_into("ir.Type");
  CHECK(runtime::map(chain, rename).same_as(chain));
  rename = runtime::Callbacks();
  rename.on("ir.Var",
            [&](const ObjectRef& v) -> ObjectRef { return v.same_as(s.n) ? ObjectRef(m) : v; });
  Expr everywhere = downcast<ExprNode>(runtime::map(chain, rename));
  CHECK(shape_of(everywhere) == m.get());
  CHECK(shape_of(chain) == s.n.get());
}

TEST_CASE("excluding and not_into cover node types registered at run time") {
  // A plug-in expression (a PrimExpr registered at run time) holding n, inside a plug-in
  // block (a Stmt registered at run time).
  Var n = Var::make("n", DataType::int32());
  Stmt block = plugin_block({probe_expr({n})});
  int seen = 0;
  runtime::Callbacks all;
  all.on("Object", [&](const ObjectRef&) { ++seen; });
  runtime::walk(block, all);
  CHECK(seen == 3);
  seen = 0;
  runtime::Callbacks no_scalars;
  no_scalars.on("Object", [&](const ObjectRef&) { ++seen; }).excluding("ir.PrimExpr");
  runtime::walk(block, no_scalars);
  CHECK(seen == 1); // the block alone: the probe is a PrimExpr, and so is n
  int vars = 0;
  runtime::Callbacks outside_statements;
  outside_statements.on("ir.Var", [&](const ObjectRef&) { ++vars; }).not_into("ir.Stmt");
  runtime::walk(block, outside_statements);
  CHECK(vars == 0);
  runtime::walk(probe_expr({n, n}), outside_statements);
  CHECK(vars == 2);
}
