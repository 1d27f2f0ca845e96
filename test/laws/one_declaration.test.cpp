// A node kind is one declaration: Annotate, declared here and nowhere in ctir, is handled by
// walk, map (with sharing), visit, mutate, structural equality and hashing, format_tree, the
// verifier, DeadCodeElimination and EliminateCommonSubexpr; With (a binding with a block)
// and Declare (a statement whose variable lasts to the end of its block), static or
// registered at run time, get their scopes in the verifier and their blocks in the printer's
// graph plan from their hooks alone.
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/analysis/well_formed.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/text/detail/print_graph.hpp>
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

/// `with %var = value { body }`: var is in scope in body only, which is a block of its own.
struct WithNode final : ExprNode {
  CTIR_NODE(WithNode, ExprNode, "test.With");
  Var var;
  Expr value;
  Expr body;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().scope_over("body"), CTIR_FIELD(value),
              CTIR_FIELD(body).block());
};
using With = Ref<WithNode>;

With with(Var var, Expr value, Expr body) {
  auto node = make_object<WithNode>();
  node->var = std::move(var);
  node->value = std::move(value);
  node->body = std::move(body);
  return std::move(node).publish();
}

/// `declare %var = init;`: var is in scope from here to the end of the enclosing block.
struct DeclareNode final : StmtNode {
  CTIR_NODE(DeclareNode, StmtNode, "test.Declare");
  Var var;
  PrimExpr init;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().scope_to_block_end(), CTIR_FIELD(init));
};

Stmt declare(Var var, PrimExpr init) {
  auto node = make_object<DeclareNode>();
  node->var = std::move(var);
  node->init = std::move(init);
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

namespace {

std::vector<std::string> messages(const IRModule& mod) {
  std::vector<std::string> out;
  for (const WellFormedDiagnostic& diagnostic : verify_well_formed(mod)) {
    out.push_back(diagnostic.location + ": " + diagnostic.message);
  }
  return out;
}

IRModule graph_module(const Var& x, const Expr& body) {
  return IRModule{Function::make({x}, body, {}, {}, "main")};
}

} // namespace

TEST_CASE("the verifier scopes a with's variable over its body only, as its hooks declare") {
  const Var x = Var::make("x", tensor2());
  const Var v = Var::make("v", tensor2());
  CHECK(
      messages(graph_module(x, with(v, make_call("exp", {x}), make_call("add", {v, x})))).empty());
  // Not in its own value (no recursion declared), nor after the with.
  CHECK(
      messages(graph_module(x, with(v, make_call("exp", {v}), v))) ==
      std::vector<std::string>{"@main.body.value.args[0]: variable '%v' is used but not defined"});
  CHECK(messages(graph_module(x, Tuple::make({with(v, x, v), v}))) ==
        std::vector<std::string>{"@main.body.fields[1]: variable '%v' is used but not defined"});
}

TEST_CASE("the verifier keeps a declared variable to the end of its block, as its hooks declare") {
  const Var n = Var::make("n", DataType::int32());
  const Var A = Var::make("A", TensorType::make({n}, DataType::int32()));
  const Var d = Var::make("d", DataType::int32());
  const Stmt store = TensorStore::make(A, {IntImm::make(0)}, d);
  // declare %d = 1; %A[0] = %d;
  const PrimFunc good = PrimFunc::make("good", {A}, SeqStmt::make({declare(d, 1), store}));
  CHECK(messages(IRModule{good}).empty());
  // Not before the declaration, nor after the inner block that holds it.
  const PrimFunc before = PrimFunc::make("before", {A}, SeqStmt::make({store, declare(d, 1)}));
  CHECK(
      messages(IRModule{before}) ==
      std::vector<std::string>{"@before.body.seq[0].value: variable '%d' is used but not defined"});
  const PrimFunc outside =
      PrimFunc::make("outside", {A}, SeqStmt::make({SeqStmt::make({declare(d, 1)}), store}));
  CHECK(messages(IRModule{outside}) ==
        std::vector<std::string>{
            "@outside.body.seq[1].value: variable '%d' is used but not defined"});
}

TEST_CASE("a node type registered at run time gets its scopes from its field specs") {
  register_ir_types();
  static const TypeInfo& type = register_dynamic_type<ExprNode>(
      "test.RuntimeWith",
      {{.name = "var",
        .kind = FieldKind::node,
        .def_kind = DefRegionKind::def_simple,
        .element_type_key = "ir.Var",
        .scope = DefScope::field,
        .scope_field = "body"},
       {.name = "value", .kind = FieldKind::node, .element_type_key = "ir.Expr"},
       {.name = "body",
        .kind = FieldKind::node,
        .flags = field_flags::block,
        .element_type_key = "ir.Expr"}});
  REQUIRE(type.fields.size() == 4); // span, then its own three
  CHECK(type.fields[1].scope == DefScope::field);
  CHECK(type.fields[1].scope_begin == 3);
  CHECK(type.fields[3].is_block());
  const Var x = Var::make("x", tensor2());
  const Var v = Var::make("v", tensor2());
  const auto make = [&](const Expr& value, const Expr& body) {
    auto node = make_dynamic<ExprNode>(type);
    node->nodes = {v, value, body};
    Expr expr = std::move(node);
    return expr;
  };
  CHECK(messages(graph_module(x, make(x, v))).empty());
  CHECK(messages(graph_module(x, make(v, v))) ==
        std::vector<std::string>{"@main.body.value: variable '%v' is used but not defined"});
}

TEST_CASE("the printer's graph plan reads a with's children and its block from its hooks") {
  const Var x = Var::make("x", tensor2());
  const Var v = Var::make("v", tensor2());
  const Call value = make_call("exp", {x});
  const Call body = make_call("add", {v, x});
  const With node = with(v, value, body);
  const TypeInfo& type = node->type_info();
  const std::vector<detail::GraphField> fields = detail::graph_fields_of(type);
  REQUIRE(fields.size() == 3);
  CHECK(type.fields[fields[0].field].name == "var");
  CHECK(fields[0].role == detail::GraphField::Role::name);
  CHECK(fields[1].role == detail::GraphField::Role::child);
  CHECK(detail::graph_block_count(type, fields) == 1);
  std::vector<std::pair<const Object*, detail::UseKind>> children;
  detail::for_each_graph_child(*node, detail::GraphKind::call, fields,
                               [&](const Object* child, detail::UseKind use, std::uint32_t) {
                                 children.emplace_back(child, use);
                               });
  REQUIRE(children.size() == 2);
  CHECK(children[0].first == value.get());
  CHECK(children[0].second == detail::UseKind::operand);
  CHECK(children[1].first == body.get());
  CHECK(children[1].second == detail::UseKind::block);

  // Planned as a node printed with its operands: its body lands in a block of its own, its
  // value (a call, so a temporary) in the enclosing one.
  detail::GraphPlan plan;
  plan.build(*node, [](const Object& n) {
    return instance_of<WithNode>(n) ? detail::GraphKind::call : detail::graph_kind(n);
  });
  CHECK(plan.info(0).node == node.get());
  CHECK(plan.info(0).inner == 1);
  REQUIRE(plan.block(1).items.size() == 1);
  CHECK(plan.block(1).items[0].node == body.get());
  CHECK(plan.block(1).items[0].kind == detail::GraphItem::Kind::result);
  REQUIRE(plan.block(0).items.size() == 2);
  CHECK(plan.block(0).items[0].node == value.get());
  CHECK(plan.block(0).items[0].kind == detail::GraphItem::Kind::temp);

  // A null child is named by its field.
  const With broken = with(v, value, Expr());
  CHECK_THROWS_WITH(
      detail::for_each_graph_child(*broken, detail::GraphKind::call, fields,
                                   [](const Object*, detail::UseKind, std::uint32_t) {}),
      "ctir: cannot print a test.With whose body is null");
}
