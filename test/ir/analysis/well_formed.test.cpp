// Tests of ctir/ir/analysis/well_formed.hpp: the well-formedness analysis (scopes as the
// hooks declare them, definitions once, calls and accesses that type-check).
#include <ctir/ir/analysis/well_formed.hpp>

#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <exception>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

TensorType tensor(std::vector<std::int64_t> shape, DataType dtype = DataType::float32()) {
  return tensor_type(std::move(shape), dtype);
}

/// Seed 003's add_one.
PrimFunc add_one(ForKind kind = ForKind::serial) {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto B = Var::make("B", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  return PrimFunc::make(
      "add_one", {A, B},
      For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f), kind));
}

/// Seed 002's module: graph-level @main calling tensor-level @add_one with call_dps.
IRModule mixed_module() {
  auto x = Var::make("x", tensor({10}));
  auto dps = CallDps::make(GlobalVar::make("add_one"), {x}, tensor({10}));
  auto main = Function::make({x}, call("add", {call("exp", {x}), dps}), tensor({10}));
  IRModule module;
  module.add("main", main);
  module.add("add_one", add_one(ForKind::parallel));
  return module;
}

/// A module whose only function is `function`, named @main.
IRModule module_of(BaseFunc function) {
  IRModule mod;
  mod.add("main", std::move(function));
  return mod;
}

std::vector<std::string> paths_of(const std::vector<WellFormedDiagnostic>& diagnostics) {
  std::vector<std::string> paths;
  for (const WellFormedDiagnostic& diagnostic : diagnostics) {
    paths.push_back(diagnostic.path.str());
  }
  return paths;
}

} // namespace

// ---- well-formed modules ----------------------------------------------------------------

TEST_CASE("seed 003's add_one is well-formed: the shape variable n is defined by the first "
          "parameter's pattern and only checked by the second's") {
  CHECK(verify_well_formed(module_of(add_one())).empty());
}

TEST_CASE("seed 002's mixed module is well-formed: call types are inferred through exp and "
          "call_dps, and call_dps calls a PrimFunc with one more parameter than arguments") {
  const std::vector<WellFormedDiagnostic> diagnostics = verify_well_formed(mixed_module());
  for (const WellFormedDiagnostic& diagnostic : diagnostics) {
    MESSAGE(diagnostic.str());
  }
  CHECK(diagnostics.empty());
  CHECK(verify_well_formed(mixed_module()).empty());
}

TEST_CASE("bindings are in scope where they should be: let in its body, bind and allocate for "
          "the rest of their block, a recursive function's let in its own value") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  CHECK(verify_well_formed(
            module_of(Function::make({x}, Let::make(y, call("exp", {x}), call("log", {y})))))
            .empty());

  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto C = Var::make("C", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  auto t = Var::make("t", DataType::float32());
  auto body = SeqStmt::make({
      Allocate::make(C),
      For::make(i, 0, n,
                SeqStmt::make({Bind::make(t, TensorLoad::make(A, {i}) * 2.0f),
                               TensorStore::make(C, {i}, t), TensorStore::make(A, {i}, t)})),
  });
  CHECK(verify_well_formed(module_of(PrimFunc::make("f", {A}, body))).empty());

  auto f = Var::make("f");
  auto z = Var::make("z", tensor({2}));
  auto recursive = Function::make({z}, Call::make(f, {z}));
  CHECK(verify_well_formed(
            module_of(Function::make({x}, Let::make(f, recursive, Call::make(f, {x})))))
            .empty());
}

// ---- undefined variables ----------------------------------------------------------------

TEST_CASE("the verifier reports an undefined variable with its access path") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  auto v = Var::make("v", tensor({2}));
  IRModule mod;
  mod.add("helper", Function::make({x}, x));
  mod.add("main", Function::make({x}, Let::make(v, call("add", {y, x}), v)));
  const std::vector<WellFormedDiagnostic> diagnostics = verify_well_formed(mod);
  REQUIRE(diagnostics.size() == 1);
  const WellFormedDiagnostic& d = diagnostics[0];
  CHECK(d.kind == WellFormedDiagnostic::Kind::undefined_variable);
  CHECK(d.path.str() == "<root>.functions[1].body.value.args[0]");
  CHECK(d.location == "@main.body.value.args[0]");
  CHECK(d.node.same_as(y));
  CHECK(d.message == "variable '%y' is used but not defined");
  CHECK(d.str() == "@main.body.value.args[0]: variable '%y' is used but not defined (at "
                   "<root>.functions[1].body.value.args[0])");
  // The path leads to the node.
  CHECK(d.path.resolve(mod.node()).same_as(y));
}

TEST_CASE("a loop variable, a let variable and a bound variable are undefined outside their "
          "scope, and a bind is undefined before it") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  auto t = Var::make("t", DataType::float32());
  auto j = Var::make("j", DataType::int32());
  auto body = SeqStmt::make({
      TensorStore::make(A, {0}, t),                     // t before its bind
      Bind::make(t, 1.0f),                              //
      For::make(i, 0, i, TensorStore::make(A, {i}, t)), // i in its own bound
      IfThenElse::make(eq(n, 0), Bind::make(t, 2.0f)),  // t bound twice
      For::make(j, 0, n, TensorStore::make(A, {j}, t)), //
      TensorStore::make(A, {j}, 0.0f),                  // j after its loop
  });
  const std::vector<WellFormedDiagnostic> diagnostics =
      verify_well_formed(module_of(PrimFunc::make("f", {A}, body)));
  CHECK(paths_of(diagnostics) == std::vector<std::string>{
                                     "<root>.functions[0].body.seq[0].value",
                                     "<root>.functions[0].body.seq[2].end",
                                     "<root>.functions[0].body.seq[3].then_case.seq[0].var",
                                     "<root>.functions[0].body.seq[5].indices[0]",
                                 });
  REQUIRE(diagnostics.size() == 4);
  CHECK(diagnostics[0].kind == WellFormedDiagnostic::Kind::undefined_variable);
  CHECK(diagnostics[0].message == "variable '%t' is used but not defined");
  CHECK(diagnostics[1].kind == WellFormedDiagnostic::Kind::undefined_variable);
  CHECK(diagnostics[2].kind == WellFormedDiagnostic::Kind::duplicate_definition);
  CHECK(diagnostics[3].message.starts_with("variable '%j' is used but not defined"));

  auto x = Var::make("x", tensor({2}));
  auto v = Var::make("v", tensor({2}));
  // let %v = exp(%v): not a function, so %v is not in scope in its own value.
  const auto let_self =
      verify_well_formed(module_of(Function::make({x}, Let::make(v, call("exp", {v}), v))));
  CHECK(paths_of(let_self) == std::vector<std::string>{"<root>.functions[0].body.value.args[0]"});
}

TEST_CASE("an undefined variable is reported once, at its first use, with the number of uses") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  const auto diagnostics = verify_well_formed(
      module_of(Function::make({x}, call("add", {call("add", {y, x}), call("exp", {y})}))));
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].path.str() == "<root>.functions[0].body.args[0].args[0]");
  CHECK(contains(diagnostics[0].message, "(2 uses without a definition; this is the first)"));
}

TEST_CASE("a node type registered at run time scopes its def fields to its later fields") {
  register_ir_types(); // its fields name ir.Var and ir.SeqStmt by key
  // plugin-style `scoped(vars) { body }`: the variables are defined for the body only.
  static const TypeInfo& scoped = register_dynamic_type<StmtNode>(
      "instruments_test.Scoped",
      {{.name = "vars",
        .kind = FieldKind::node_array,
        .def_kind = DefRegionKind::def_simple,
        .element_type_key = "ir.Var"},
       {.name = "body", .kind = FieldKind::node, .element_type_key = "ir.SeqStmt"}});
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto k = Var::make("k", DataType::int32());
  auto block = make_dynamic<StmtNode>(scoped);
  block->arrays[0] = {k};
  block->nodes[0] = SeqStmt::make({TensorStore::make(A, {k}, 0.0f)});
  const Stmt stmt = std::move(block);
  const auto diagnostics = verify_well_formed(
      module_of(PrimFunc::make("f", {A}, SeqStmt::make({stmt, TensorStore::make(A, {k}, 1.0f)}))));
  CHECK(paths_of(diagnostics) ==
        std::vector<std::string>{"<root>.functions[0].body.seq[1].indices[0]"});
}

// ---- duplicate definitions --------------------------------------------------------------

TEST_CASE("an if holding a let, shared by uses in different scopes, verifies") {
  // The shared if is checked again where other variables are in scope (inside the let of
  // %w); the let inside it is the same definition reached again, not a second one.
  // FoldConstant makes such an if from a shared block whose let folds away.
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(4), float32], %c: bool) -> Tensor[(4), float32] {
  %0 = if (%c) {
    let %v = tanh(%x);
    negative(%v)
  } else {
    %x
  };
  %1 = if (%c) {
    let %w = exp(%x);
    add(%w, %0)
  } else {
    %0
  };
  add(%1, %0)
}
)");
  CHECK(verify_well_formed(mod).empty());
}

TEST_CASE("the verifier reports a doubly defined variable: two loops over one variable, a "
          "parameter listed twice") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  auto loop = [&] { return For::make(i, 0, n, TensorStore::make(A, {i}, 0.0f)); };
  const auto two_loops =
      verify_well_formed(module_of(PrimFunc::make("f", {A}, SeqStmt::make({loop(), loop()}))));
  REQUIRE(two_loops.size() == 1);
  CHECK(two_loops[0].kind == WellFormedDiagnostic::Kind::duplicate_definition);
  CHECK(two_loops[0].path.str() == "<root>.functions[0].body.seq[1].var");
  CHECK(two_loops[0].message ==
        "variable '%i' is defined more than once; this is a second definition");

  // The same loop object twice is the same mistake.
  const For shared = loop();
  CHECK(paths_of(verify_well_formed(
            module_of(PrimFunc::make("f", {A}, SeqStmt::make({shared, shared}))))) ==
        std::vector<std::string>{"<root>.functions[0].body.seq[1].var"});

  const auto twice = verify_well_formed(module_of(PrimFunc::make("f", {A, A}, loop())));
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].path.str() == "<root>.functions[0].params[1]");

  // A parameter that is a shape variable of an earlier parameter's type is a mention of it
  // (the printer, the parser and the interpreter take it so); a second such parameter is a
  // second definition.
  CHECK(verify_well_formed(module_of(PrimFunc::make("f", {A, n}, loop()))).empty());
  CHECK(paths_of(verify_well_formed(module_of(PrimFunc::make("f", {A, n, n}, loop())))) ==
        std::vector<std::string>{"<root>.functions[0].params[2]"});

  // A loop variable that is also a shape variable of a parameter.
  const auto shadow = verify_well_formed(
      module_of(PrimFunc::make("f", {A}, For::make(n, 0, 4, TensorStore::make(A, {n}, 0.0f)))));
  CHECK(paths_of(shadow) == std::vector<std::string>{"<root>.functions[0].body.seq[0].var"});
}

TEST_CASE("functions are checked separately: one function object under two names is fine") {
  const PrimFunc f = add_one();
  IRModule mod;
  mod.add("a", f);
  mod.add("b", f);
  CHECK(verify_well_formed(mod).empty());
}

// ---- ill-typed nodes --------------------------------------------------------------------

TEST_CASE("the verifier reports a call whose operator's type relation rejects the argument "
          "types") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({3}));
  const auto diagnostics =
      verify_well_formed(module_of(Function::make({x, y}, call("add", {x, y}))));
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].kind == WellFormedDiagnostic::Kind::ill_typed);
  CHECK(diagnostics[0].path.str() == "<root>.functions[0].body");
  CHECK(diagnostics[0].message.starts_with("ill-typed call of 'add' with arguments of types "
                                           "(Tensor[(2), float32], Tensor[(3), float32]): "));
  CHECK(diagnostics[0].node->dynamic_type_index() == CallNode::type_index);
}

TEST_CASE("literal arguments are rank-0 tensors, and inferred call types flow into outer calls") {
  auto x = Var::make("x", tensor({2}));
  auto i = Var::make("i", tensor({2}, DataType::int32()));
  // add(%x, 1f) is fine; add(%x, 1) mixes float32 and int32.
  CHECK(verify_well_formed(module_of(Function::make({x}, call("add", {x, FloatImm::make(1.0)}))))
            .empty());
  const auto mixed =
      verify_well_formed(module_of(Function::make({x}, call("add", {x, IntImm::make(1)}))));
  REQUIRE(mixed.size() == 1);
  CHECK(contains(mixed[0].message, "(Tensor[(2), float32], Tensor[(), int32])"));
  // exp(%i) is itself ill-typed (exp needs floats); add(exp(%x), %i) is caught through the
  // inferred type of exp(%x).
  const auto nested =
      verify_well_formed(module_of(Function::make({x, i}, call("add", {call("exp", {x}), i}))));
  REQUIRE(nested.size() == 1);
  CHECK(nested[0].path.str() == "<root>.functions[0].body");
  CHECK(contains(nested[0].message, "(Tensor[(2), float32], Tensor[(2), int32])"));
}

TEST_CASE("a call with unknown argument types is not judged, but its arity and attributes are") {
  auto untyped = Var::make("u");
  auto x = Var::make("x", tensor({2}));
  CHECK(verify_well_formed(module_of(Function::make({untyped}, call("exp", {untyped})))).empty());
  const auto arity =
      verify_well_formed(module_of(Function::make({untyped}, call("exp", {untyped, untyped}))));
  REQUIRE(arity.size() == 1);
  CHECK(arity[0].message == "operator 'exp' takes 1 input, but the call gives 2");
  Attrs attrs;
  attrs.set("axis", std::int64_t{0});
  const auto bad_attr =
      verify_well_formed(module_of(Function::make({untyped}, call("exp", {untyped}, attrs))));
  REQUIRE(bad_attr.size() == 1);
  CHECK(contains(bad_attr[0].message, "'axis'"));
  const auto unknown = verify_well_formed(module_of(Function::make({x}, call("exq", {x}))));
  REQUIRE(unknown.size() == 1);
  CHECK(contains(unknown[0].message, "call of unknown operator 'exq'"));
  CHECK(contains(unknown[0].message, "'exp'"));
}

TEST_CASE("stores and loads must give one index per dimension of their tensor") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto B = Var::make("B", TensorType::make({n, n}, DataType::float32()));
  auto s = Var::make("s", DataType::float32());
  auto i = Var::make("i", DataType::int32());
  auto body = For::make(i, 0, n,
                        SeqStmt::make({TensorStore::make(B, {i}, TensorLoad::make(A, {i, i})),
                                       TensorStore::make(s, {i}, 0.0f)}));
  const auto diagnostics = verify_well_formed(module_of(PrimFunc::make("f", {A, B, s}, body)));
  CHECK(paths_of(diagnostics) == std::vector<std::string>{
                                     "<root>.functions[0].body.seq[0].body.seq[0].value",
                                     "<root>.functions[0].body.seq[0].body.seq[0]",
                                     "<root>.functions[0].body.seq[0].body.seq[1]",
                                 });
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[0].message ==
        "load from '%A' uses 2 indices, but '%A' has type Tensor[(%n), float32] of rank 1");
  CHECK(diagnostics[1].message ==
        "store into '%B' uses 1 index, but '%B' has type Tensor[(%n, %n), float32] of rank 2");
  CHECK(diagnostics[2].message == "store into '%s', which is not a tensor (its type is float32)");
}

TEST_CASE("tensor-level operands of a fixed dtype are checked where their dtype is known") {
  auto A = Var::make("A", tensor({4}));
  auto P = Var::make("P", tensor({4}, DataType::boolean()));
  auto i = Var::make("i", DataType::int32());
  const PrimExpr a = TensorLoad::make(A, {i});
  const PrimExpr p = TensorLoad::make(P, {i});
  auto body =
      For::make(i, 0, 4,
                SeqStmt::make({TensorStore::make(P, {i}, Not::make(i)),
                               TensorStore::make(A, {i}, Select::make(i + 1, a, a)),
                               TensorStore::make(P, {i}, Ref<AndNode>::make(p, a)),
                               TensorStore::make(P, {i}, Ref<OrNode>::make(IntImm::make(1), p)),
                               TensorStore::make(P, {i}, Neg::make(p)),
                               IfThenElse::make(a, SeqStmt::make({}))}));
  const auto diagnostics = verify_well_formed(module_of(PrimFunc::make("f", {A, P}, body)));
  const std::string at = "<root>.functions[0].body.seq[0].body.seq";
  CHECK(paths_of(diagnostics) == std::vector<std::string>{at + "[0].value", at + "[1].value",
                                                          at + "[2].value", at + "[3].value",
                                                          at + "[4].value", at + "[5]"});
  REQUIRE(diagnostics.size() == 6);
  CHECK(diagnostics[0].kind == WellFormedDiagnostic::Kind::ill_typed);
  CHECK(diagnostics[0].message == "the operand of '!' must be a bool, found int32");
  CHECK(diagnostics[1].message == "the condition of select must be a bool, found int32");
  CHECK(diagnostics[2].message == "an operand of '&&' must be a bool, found float32");
  CHECK(diagnostics[3].message == "an operand of '||' must be a bool, found int32");
  CHECK(diagnostics[4].message ==
        "the operand of '-' must be an integer or a float, found bool (use '!' to negate a bool)");
  CHECK(diagnostics[5].message == "the condition of if must be a bool, found float32");

  // Well typed, or of a dtype nobody knows (a variable without a type): nothing to report.
  auto u = Var::make("u");
  auto fine = For::make(
      i, 0, 4,
      SeqStmt::make({Bind::make(u, p),
                     TensorStore::make(P, {i}, Not::make(Ref<LTNode>::make(i, IntImm::make(2)))),
                     TensorStore::make(P, {i}, Ref<AndNode>::make(p, u)),
                     IfThenElse::make(Not::make(u), SeqStmt::make({}))}));
  CHECK(verify_well_formed(module_of(PrimFunc::make("g", {A, P}, fine))).empty());
}

TEST_CASE("call_dps must call a PrimFunc of the module with one parameter more than arguments, "
          "and a graph-level call must call a graph-level function") {
  auto x = Var::make("x", tensor({10}));
  auto make = [&](Expr body) {
    IRModule mod;
    mod.add("main", Function::make({x}, std::move(body)));
    mod.add("add_one", add_one());
    mod.add("helper", Function::make({x}, x));
    return verify_well_formed(mod);
  };
  const auto missing = make(CallDps::make(GlobalVar::make("nope"), {x}, tensor({10})));
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].message == "call_dps of '@nope', which is not a function of the module");
  const auto graph = make(CallDps::make(GlobalVar::make("helper"), {x}, tensor({10})));
  REQUIRE(graph.size() == 1);
  CHECK(contains(graph[0].message, "call_dps of '@helper', which is a graph-level function, not a "
                                   "PrimFunc"));
  const auto count = make(CallDps::make(GlobalVar::make("add_one"), {x, x}, tensor({10})));
  REQUIRE(count.size() == 1);
  CHECK(count[0].message == "call_dps of '@add_one' passes 2 arguments and the output, but "
                            "'@add_one' takes 2 parameters");
  const auto direct = make(Call::make(GlobalVar::make("add_one"), {x}));
  REQUIRE(direct.size() == 1);
  CHECK(contains(direct[0].message, "call it with call_dps"));
  CHECK(make(Call::make(GlobalVar::make("helper"), {x})).empty());
  const auto arguments = make(Call::make(GlobalVar::make("helper"), {x, x}));
  REQUIRE(arguments.size() == 1);
  CHECK(arguments[0].message == "call of '@helper' gives 2 arguments, but it takes 1");
  CHECK(make(Call::make(GlobalVar::make("gone"), {x})).size() == 1);
}

// ---- scale ------------------------------------------------------------------------------

TEST_CASE("the verifier handles IR nested 200,000 levels deep without recursion") {
  auto x = Var::make("x", tensor({2}));
  Expr body = x;
  std::vector<Var> vars;
  for (int k = 0; k < 200000; ++k) {
    vars.push_back(Var::make("v" + std::to_string(k), tensor({2})));
  }
  for (int k = 199999; k >= 0; --k) {
    body = Let::make(vars[static_cast<std::size_t>(k)], x, body);
  }
  CHECK(verify_well_formed(module_of(Function::make({x}, body))).empty());
}

TEST_CASE("a shared expression DAG is checked in linear time") {
  auto x = Var::make("x", tensor({2}));
  Expr e = x;
  for (int k = 0; k < 200; ++k) {
    e = call("add", {e, e}); // 2^200 paths, 200 distinct nodes
  }
  CHECK(verify_well_formed(module_of(Function::make({x}, e))).empty());
  auto y = Var::make("y", tensor({2}));
  Expr bad = y;
  for (int k = 0; k < 200; ++k) {
    bad = call("add", {bad, bad});
  }
  const auto diagnostics = verify_well_formed(module_of(Function::make({x}, bad)));
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].kind == WellFormedDiagnostic::Kind::undefined_variable);
}

TEST_CASE("a closure bound once and called twice is one definition, not two") {
  auto x = Var::make("x", tensor({2}));
  auto a = Var::make("a", tensor({2}));
  const Function closure = Function::make({a}, call("negative", {a}));
  const Expr body = call("add", {Call::make(closure, {x}), Call::make(closure, {x})});
  CHECK(verify_well_formed(module_of(Function::make({x}, body))).empty());
  // Two closures that define one variable are still two definitions of it.
  const Function other = Function::make({a}, call("exp", {a}));
  const Expr both = call("add", {Call::make(closure, {x}), Call::make(other, {x})});
  const auto diagnostics = verify_well_formed(module_of(Function::make({x}, both)));
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].kind == WellFormedDiagnostic::Kind::duplicate_definition);
}

TEST_CASE("a block with a let, shared by two uses, parses and verifies") {
  const IRModule mod = parse_module(R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = {
    let %v = exp(%x);
    %v
  };
  add(%0, %0)
}
)");
  CHECK(verify_well_formed(mod).empty());
}

TEST_CASE("the verifier stops collecting at max_diagnostics") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  std::vector<Stmt> stores;
  for (int k = 0; k < 10; ++k) {
    stores.push_back(TensorStore::make(A, {Var::make("u", DataType::int32())}, 0.0f));
  }
  const IRModule mod = module_of(PrimFunc::make("f", {A}, SeqStmt::make(stores)));
  CHECK(verify_well_formed(mod).size() == 10);
  CHECK(verify_well_formed(mod, {.max_diagnostics = 3}).size() == 3);
}

TEST_CASE("a bind lasts to the end of its block: a nested block or an if's branch ends it") {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto t = Var::make("t", DataType::float32());
  auto u = Var::make("u", DataType::float32());
  auto body = SeqStmt::make({
      SeqStmt::make({Bind::make(t, 1.0f), TensorStore::make(A, {0}, t)}), // t in its block
      TensorStore::make(A, {1}, t),                                       // and not after it
      IfThenElse::make(eq(n, 0), Bind::make(u, 2.0f), TensorStore::make(A, {2}, u)),
  });
  CHECK(paths_of(verify_well_formed(module_of(PrimFunc::make("f", {A}, body)))) ==
        std::vector<std::string>{"<root>.functions[0].body.seq[1].value",
                                 "<root>.functions[0].body.seq[2].else_case.seq[0].value"});
}
