// Tests of the text printer: the TEXT_FORMAT.md examples, golden files, canonical
// temporaries and scoping, literals, names, ranges, errors and IR too deep to recurse on.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/text/printer.hpp>

#include <deep_nesting.hpp>
#include <doctest/doctest.h>
#include <test_data.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ctir;

namespace {

/// The contents of test/data/printer/<name>.
std::string read_golden(const std::string& name) {
  return testing::read_test_file(testing::test_data_dir() / "printer" / name);
}

DataType f32() { return DataType::float32(); }
DataType i32() { return DataType::int32(); }

/// `Tensor[(d0, d1, ...), float32]` with constant dims.
TensorType tensor(std::vector<std::int64_t> shape, DataType dtype = DataType::float32()) {
  return tensor_type(std::move(shape), dtype);
}

/// The text of `range` in `text`.
std::string slice(const PrintedText& printed, TextRange range) {
  return printed.text().substr(range.begin, range.end - range.begin);
}

/// Seed 003's add_one, as the preamble builds it.
struct AddOne {
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  PrimExpr load = TensorLoad::make(A, {i});
  PrimExpr value = load + 1.0f;
  Stmt store = TensorStore::make(B, {i}, value);
  For loop = For::make(i, 0, n, store);
  PrimFunc func = PrimFunc::make("add_one", {A, B}, loop);
};

/// The graph-level example of TEXT_FORMAT.md.
struct MainExample {
  TensorType t = tensor({2, 3});
  Var x = Var::make("x", t);
  Var y = Var::make("y", t);
  Var z = Var::make("z", t);
  Call sum = call("add", {x, y});
  Call product = call("multiply", {sum, FloatImm::make(2.0)});
  Function func = Function::make({x, y}, Let::make(z, product, z), t, {}, "main");
};

const char* const main_example_text =
    "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) -> "
    "Tensor[(2, 3), float32] {\n"
    "  %0 = add(%x, %y);\n"
    "  let %z: Tensor[(2, 3), float32] = multiply(%0, 2f);\n"
    "  %z\n"
    "}\n";

} // namespace

// ---- TEXT_FORMAT.md examples ------------------------------------------------------------

TEST_CASE("the types of TEXT_FORMAT.md print as written there") {
  auto n = Var::make("n", i32());
  CHECK(print(tensor({2, 3})) == "Tensor[(2, 3), float32]");
  CHECK(print(TensorType::make({2, n}, f32())) == "Tensor[(2, %n), float32]");
  CHECK(print(TensorType::make({}, f32())) == "Tensor[(), float32]");
  CHECK(print(TupleType::make({tensor({2}), PrimType::make(i32())})) ==
        "Tuple[Tensor[(2), float32], int32]");
  CHECK(print(PrimType::make(i32())) == "int32");
  CHECK(print(FuncType::make({tensor({2})}, tensor({2}))) ==
        "fn (Tensor[(2), float32]) -> Tensor[(2), float32]");
}

TEST_CASE("every dtype of TEXT_FORMAT.md prints by its name") {
  for (const char* name :
       {"bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"}) {
    CAPTURE(name);
    const DataType dtype = DataType::from_string(name).value();
    CHECK(print(PrimType::make(dtype)) == name);
    CHECK(print(TensorType::make({}, dtype)) == std::string("Tensor[(), ") + name + "]");
  }
}

TEST_CASE("the graph-level example of TEXT_FORMAT.md prints back exactly") {
  MainExample example;
  CHECK(print(example.func) == main_example_text);
  IRModule module;
  module.add("main", example.func);
  CHECK(print(module) == main_example_text);
}

TEST_CASE("the tensor-level example of TEXT_FORMAT.md prints back exactly") {
  AddOne add_one;
  CHECK(print(add_one.func) == "prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), "
                               "float32]) {\n"
                               "  for %i in range(0, %n) {\n"
                               "    %B[%i] = %A[%i] + 1f;\n"
                               "  }\n"
                               "}\n");
}

TEST_CASE("function attributes follow the signature as in TEXT_FORMAT.md") {
  auto x = Var::make("x", tensor({2}));
  auto f =
      Function::make({x}, call("relu", {x}), tensor({2}), Attrs{{"SkipOptimization", true}}, "f");
  CHECK(print(f) == "def @f(%x: Tensor[(2), float32]) -> Tensor[(2), float32] attributes "
                    "{SkipOptimization = true} {\n"
                    "  relu(%x)\n"
                    "}\n");
  auto a = Var::make("A", tensor({4}));
  auto p = PrimFunc::make("p", {a}, TensorStore::make(a, {0}, 0.0f),
                          Attrs{{"tir.noalias", true}, {"global_symbol", std::string("p")}});
  CHECK(print(p) == "prim @p(%A: Tensor[(4), float32]) attributes {global_symbol = \"p\", "
                    "tir.noalias = true} {\n"
                    "  %A[0] = 0f;\n"
                    "}\n");
}

TEST_CASE("the graph-level expressions of TEXT_FORMAT.md print as written there") {
  auto x = Var::make("x", tensor({2, 3}));
  auto a = Var::make("a", tensor({2}));
  auto b = Var::make("b", tensor({2}));
  auto t = Var::make("t", TupleType::make({tensor({2}), tensor({2})}));
  auto c = Var::make("c", DataType::boolean());

  SUBCASE("tensor constants") {
    CHECK(print(Constant::make(TensorData::from_doubles(f32(), {2, 2}, {1, 2, 3, 4}))) ==
          "const([[1f, 2f], [3f, 4f]])");
  }
  SUBCASE("operator calls with attributes") {
    CHECK(print(call("reshape", {x}, Attrs{{"newshape", std::vector<std::int64_t>{3, 2}}})) ==
          "reshape(%x, newshape=[3, 2])");
    CHECK(print(call("nn.relu", {x})) == "nn.relu(%x)");
  }
  SUBCASE("global calls") { CHECK(print(Call::make(GlobalVar::make("f"), {a})) == "@f(%a)"); }
  SUBCASE("tuples and projections") {
    CHECK(print(Tuple::make({a, b})) == "(%a, %b)");
    CHECK(print(Tuple::make({a})) == "(%a,)");
    CHECK(print(TupleGetItem::make(t, 0)) == "%t.0");
  }
  SUBCASE("closures and their calls") {
    auto f = Var::make("f");
    auto closure = Function::make({a}, call("negative", {a}), tensor({2}));
    auto func =
        Function::make({b}, Let::make(f, closure, Call::make(f, {b})), tensor({2}), {}, "g");
    CHECK(print(func) == "def @g(%b: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                         "  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                         "    negative(%a)\n"
                         "  };\n"
                         "  %f(%b)\n"
                         "}\n");
  }
  SUBCASE("if") {
    auto func = Function::make({c, a, b}, If::make(c, call("exp", {a}), b), {}, {}, "h");
    CHECK(print(func) == "def @h(%c: bool, %a: Tensor[(2), float32], %b: Tensor[(2), float32]) {\n"
                         "  if (%c) {\n"
                         "    exp(%a)\n"
                         "  } else {\n"
                         "    %b\n"
                         "  }\n"
                         "}\n");
  }
}

TEST_CASE("call_dps prints the callee, the arguments and the output type") {
  auto x = Var::make("x", tensor({10}));
  auto dps = CallDps::make(GlobalVar::make("add_one"), {x}, tensor({10}));
  CHECK(print(dps) == "call_dps @add_one(%x) -> Tensor[(10), float32]");
  auto func = Function::make({x}, call("exp", {dps}), tensor({10}), {}, "main");
  CHECK(print(func) == "def @main(%x: Tensor[(10), float32]) -> Tensor[(10), float32] {\n"
                       "  %0 = call_dps @add_one(%x) -> Tensor[(10), float32];\n"
                       "  exp(%0)\n"
                       "}\n");
}

TEST_CASE("the statements of TEXT_FORMAT.md print as written there") {
  auto n = Var::make("n", i32());
  auto B = Var::make("B", TensorType::make({n, n}, f32()));
  auto i = Var::make("i", i32());
  auto j = Var::make("j", i32());
  auto v = Var::make("v", i32());
  auto T = Var::make("T", tensor({16}));
  auto store = TensorStore::make(B, {i, j}, 0.0f);

  CHECK(print(store) == "%B[%i, %j] = 0f;");
  CHECK(print(Bind::make(v, i + 1)) == "let %v = %i + 1;");
  CHECK(print(Allocate::make(T)) == "alloc %T: Tensor[(16), float32];");
  const std::pair<ForKind, std::string> kinds[] = {{ForKind::serial, "range"},
                                                   {ForKind::parallel, "parallel"},
                                                   {ForKind::vectorized, "vectorized"},
                                                   {ForKind::unroll, "unroll"}};
  for (const auto& kind : kinds) {
    CAPTURE(kind.second);
    CHECK(print(For::make(j, 0, n, store, kind.first)) ==
          "for %j in " + kind.second + "(0, %n) {\n  %B[%i, %j] = 0f;\n}");
  }
  CHECK(print(IfThenElse::make(lt(i, j), store)) == "if (%i < %j) {\n  %B[%i, %j] = 0f;\n}");
  CHECK(print(IfThenElse::make(lt(i, j), store, TensorStore::make(B, {j, i}, 1.0f))) ==
        "if (%i < %j) {\n  %B[%i, %j] = 0f;\n} else {\n  %B[%j, %i] = 1f;\n}");
}

TEST_CASE("the tensor-level expressions of TEXT_FORMAT.md print as written there") {
  auto A = Var::make("A", tensor({4, 4}));
  auto i = Var::make("i", i32());
  auto j = Var::make("j", i32());
  auto a = Var::make("a", i32());
  auto b = Var::make("b", i32());
  auto c = Var::make("c", DataType::boolean());
  auto d = Var::make("d", DataType::boolean());

  CHECK(print(load(A, {i, j})) == "%A[%i, %j]");
  CHECK(print(-a) == "-%a");
  CHECK(print(logical_not(c)) == "!%c");
  CHECK(print(a + b) == "%a + %b");
  CHECK(print(a - b) == "%a - %b");
  CHECK(print(a * b) == "%a * %b");
  CHECK(print(a / b) == "%a / %b");
  CHECK(print(i % 16) == "%i % 16");
  CHECK(print(lt(a, b)) == "%a < %b");
  CHECK(print(le(a, b)) == "%a <= %b");
  CHECK(print(gt(a, b)) == "%a > %b");
  CHECK(print(ge(a, b)) == "%a >= %b");
  CHECK(print(eq(a, b)) == "%a == %b");
  CHECK(print(ne(a, b)) == "%a != %b");
  CHECK(print(logical_and(c, d)) == "%c && %d");
  CHECK(print(logical_or(c, d)) == "%c || %d");
  CHECK(print(min(a, b)) == "min(%a, %b)");
  CHECK(print(max(a, b)) == "max(%a, %b)");
  CHECK(print(select(c, a, b)) == "select(%c, %a, %b)");
  CHECK(print(cast(f32(), a)) == "cast<float32>(%a)");
}

TEST_CASE("the literals of TEXT_FORMAT.md print as written there") {
  CHECK(print(IntImm::make(3)) == "3");
  CHECK(print(IntImm::make(-3)) == "-3");
  CHECK(print(IntImm::make(3, DataType::int64())) == "3i64");
  CHECK(print(FloatImm::make(2.5)) == "2.5f");
  CHECK(print(FloatImm::make(1.0)) == "1f");
  CHECK(print(FloatImm::make(2.5, DataType::float64())) == "2.5f64");
  CHECK(print(PrimExpr(true)) == "true");
  CHECK(print(PrimExpr(false)) == "false");
  CHECK(print(PrimExpr(8.0f)) == "8f");
  CHECK(print(PrimExpr(0.5f)) == "0.5f");
  CHECK(print(PrimExpr(1e-07f)) == "1e-07f");
  CHECK(print(PrimExpr(std::numeric_limits<float>::infinity())) == "inff");
  CHECK(print(PrimExpr(-std::numeric_limits<float>::infinity())) == "-inff");
  CHECK(print(PrimExpr(std::numeric_limits<float>::quiet_NaN())) == "nanf");
}

// ---- golden files -----------------------------------------------------------------------

TEST_CASE("seed 003's add_one prints as its golden file") {
  AddOne add_one;
  IRModule module;
  module.add("add_one", add_one.func);
  CHECK(print(module) == read_golden("add_one.ctir"));
  // A function alone prints the same as a module holding only it.
  CHECK(print(add_one.func) == read_golden("add_one.ctir"));
}

TEST_CASE("seed 002's mixed module prints as its golden file") {
  AddOne add_one;
  auto parallel = For::make(add_one.i, 0, add_one.n, add_one.store, ForKind::parallel);
  auto prim = PrimFunc::make("add_one", {add_one.A, add_one.B}, parallel);

  auto x = Var::make("x", tensor({10}));
  auto dps = CallDps::make(GlobalVar::make("add_one"), {x}, tensor({10}));
  auto main = Function::make({x}, call("add", {call("exp", {x}), dps}), tensor({10}));
  IRModule module;
  module.add("main", main);
  module.add("add_one", prim);
  CHECK(print(module) == read_golden("mixed_module.ctir"));
}

// ---- canonical temporaries and scoping --------------------------------------------------

TEST_CASE("a node used twice is bound once and referred to by its temporary") {
  auto x = Var::make("x", tensor({2}));
  Expr shared = call("add", {x, FloatImm::make(1.0)});
  CHECK(print(call("multiply", {shared, shared})) == "%0 = add(%x, 1f);\nmultiply(%0, %0)");
  // Equal but distinct nodes stay distinct: sharing is visible in the text.
  Expr again = call("add", {x, FloatImm::make(1.0)});
  CHECK(print(call("multiply", {shared, again})) ==
        "%0 = add(%x, 1f);\n%1 = add(%x, 1f);\nmultiply(%0, %1)");
}

TEST_CASE("temporaries are numbered in printing order, operands first") {
  auto x = Var::make("x", tensor({2}));
  Expr a = call("exp", {x});
  Expr b = call("log", {a});
  Expr c = call("sqrt", {x});
  CHECK(print(call("add", {b, c})) == "%0 = exp(%x);\n%1 = log(%0);\n%2 = sqrt(%x);\nadd(%1, %2)");
}

TEST_CASE("a let's value and a block's result print inline unless shared") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  Expr value = call("exp", {x});
  CHECK(print(Let::make(y, value, call("log", {y}))) == "let %y: Tensor[(2), float32] = exp(%x);\n"
                                                        "log(%y)");
  // The same value also used as an operand: bound to a temporary, the let refers to it.
  CHECK(print(Let::make(y, value, call("add", {y, value}))) ==
        "%0 = exp(%x);\nlet %y: Tensor[(2), float32] = %0;\nadd(%y, %0)");
}

TEST_CASE("a temporary used in both branches of an if is bound before the if") {
  auto c = Var::make("c", DataType::boolean());
  auto x = Var::make("x", tensor({2}));
  Expr shared = call("exp", {x});
  Expr only_then = call("log", {x});
  Expr branch =
      If::make(c, call("add", {shared, call("sqrt", {only_then})}), call("negative", {shared}));
  auto f = Function::make({c, x}, branch, {}, {}, "f");
  CHECK(print(f) == "def @f(%c: bool, %x: Tensor[(2), float32]) {\n"
                    "  %0 = exp(%x);\n"
                    "  if (%c) {\n"
                    "    %1 = log(%x);\n"
                    "    %2 = sqrt(%1);\n"
                    "    add(%0, %2)\n"
                    "  } else {\n"
                    "    negative(%0)\n"
                    "  }\n"
                    "}\n");
}

TEST_CASE("an expression that is the result of both branches is bound before the if") {
  auto c = Var::make("c", DataType::boolean());
  auto x = Var::make("x", tensor({2}));
  Expr shared = call("exp", {x});
  CHECK(print(If::make(c, shared, shared)) == "%0 = exp(%x);\n"
                                              "if (%c) {\n"
                                              "  %0\n"
                                              "} else {\n"
                                              "  %0\n"
                                              "}");
}

TEST_CASE("a temporary is bound in the innermost block enclosing its uses") {
  auto c = Var::make("c", DataType::boolean());
  auto x = Var::make("x", tensor({2}));
  Expr deep = call("exp", {x});
  // Used twice inside the inner if's two branches: bound in the outer then-branch.
  Expr inner = If::make(c, call("log", {deep}), call("sqrt", {deep}));
  Expr outer = If::make(c, call("negative", {inner}), x);
  CHECK(print(outer) == "if (%c) {\n"
                        "  %0 = exp(%x);\n"
                        "  %1 = if (%c) {\n"
                        "    log(%0)\n"
                        "  } else {\n"
                        "    sqrt(%0)\n"
                        "  };\n"
                        "  negative(%1)\n"
                        "} else {\n"
                        "  %x\n"
                        "}");
}

TEST_CASE("a temporary that depends on a let variable is bound after the let") {
  auto c = Var::make("c", DataType::boolean());
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y", tensor({2}));
  Expr uses_y = call("exp", {y});
  Expr branch = If::make(c, call("log", {uses_y}), call("sqrt", {uses_y}));
  Expr body = Let::make(y, call("negative", {x}), branch);
  CHECK(print(body) == "let %y: Tensor[(2), float32] = negative(%x);\n"
                       "%0 = exp(%y);\n"
                       "if (%c) {\n"
                       "  log(%0)\n"
                       "} else {\n"
                       "  sqrt(%0)\n"
                       "}");
}

TEST_CASE("closures capture outer temporaries and number theirs in the same sequence") {
  auto x = Var::make("x", tensor({2}));
  auto a = Var::make("a", tensor({2}));
  auto f = Var::make("f");
  Expr outer = call("exp", {x});
  auto closure = Function::make({a}, call("add", {call("log", {a}), outer}), tensor({2}));
  Expr body = Let::make(f, closure, call("multiply", {Call::make(f, {x}), outer}));
  CHECK(print(Function::make({x}, body, {}, {}, "main")) ==
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  %0 = exp(%x);\n"
        "  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
        "    %1 = log(%a);\n"
        "    add(%1, %0)\n"
        "  };\n"
        "  %2 = %f(%x);\n"
        "  multiply(%2, %0)\n"
        "}\n");
}

TEST_CASE("a closure used as an operand is bound to a temporary and called through it") {
  auto x = Var::make("x", tensor({2}));
  auto a = Var::make("a", tensor({2}));
  auto closure = Function::make({a}, call("exp", {a}), tensor({2}));
  CHECK(print(Call::make(closure, {x})) ==
        "%0 = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
        "  exp(%a)\n"
        "};\n"
        "%0(%x)");
}

TEST_CASE("projections of variables are atoms and projections of others are temporaries") {
  auto t = Var::make("t");
  auto x = Var::make("x", tensor({2}));
  Expr pair = call("split", {x}, Attrs{{"sections", std::int64_t{2}}});
  CHECK(print(call("add", {TupleGetItem::make(t, 0), TupleGetItem::make(t, 1)})) ==
        "add(%t.0, %t.1)");
  CHECK(print(call("add", {TupleGetItem::make(TupleGetItem::make(t, 1), 0), x})) ==
        "add(%t.1.0, %x)");
  CHECK(print(call("add", {TupleGetItem::make(pair, 0), TupleGetItem::make(pair, 1)})) ==
        "%0 = split(%x, sections=2);\n%1 = %0.0;\n%2 = %0.1;\nadd(%1, %2)");
  CHECK(print(Tuple::make({})) == "()");
}

TEST_CASE("a let that is not the rest of a block prints as a block of its own") {
  auto x = Var::make("x", tensor({2}));
  auto y = Var::make("y");
  auto z = Var::make("z");
  Expr inner = Let::make(y, call("exp", {x}), call("log", {y}));
  CHECK(print(Let::make(z, inner, z)) == "let %z = {\n"
                                         "  let %y = exp(%x);\n"
                                         "  log(%y)\n"
                                         "};\n"
                                         "%z");
  CHECK(print(call("negative", {inner})) == "%0 = {\n"
                                            "  let %y = exp(%x);\n"
                                            "  log(%y)\n"
                                            "};\n"
                                            "negative(%0)");
}

TEST_CASE("call attributes follow the arguments sorted by key") {
  auto x = Var::make("x", tensor({2, 3}));
  Attrs attrs;
  attrs.set("z", std::int64_t{-1}).set("a", 0.5).set("m", std::string("s\"\\\n")).set("b", false);
  CHECK(print(call("op", {x}, attrs)) == "op(%x, a=0.5f64, b=false, m=\"s\\\"\\\\\\n\", z=-1)");
  CHECK(print(call("zeros", {}, Attrs{{"shape", std::vector<std::int64_t>{}}})) ==
        "zeros(shape=[])");
}

// ---- tensor-level expressions -----------------------------------------------------------

TEST_CASE("tensor-level expressions get only the parentheses precedence needs") {
  auto a = Var::make("a", i32());
  auto b = Var::make("b", i32());
  auto c = Var::make("c", i32());
  auto p = Var::make("p", DataType::boolean());
  auto q = Var::make("q", DataType::boolean());
  auto r = Var::make("r", DataType::boolean());
  auto A = Var::make("A", tensor({8}));

  CHECK(print((a + b) * c) == "(%a + %b) * %c");
  CHECK(print(a + b * c) == "%a + %b * %c");
  CHECK(print(a - b - c) == "%a - %b - %c");
  CHECK(print(a - (b - c)) == "%a - (%b - %c)");
  CHECK(print(a + (b + c)) == "%a + (%b + %c)");
  CHECK(print(a / (b * c)) == "%a / (%b * %c)");
  CHECK(print(a * b / c) == "%a * %b / %c");
  CHECK(print((a + b) % 16) == "(%a + %b) % 16");
  CHECK(print(-(a + b)) == "-(%a + %b)");
  CHECK(print(-a * b) == "-%a * %b");
  // A run of prefixes prints without parentheses; a space keeps a sign apart.
  CHECK(print(-(-a)) == "- -%a");
  CHECK(print(-(-(-a))) == "- - -%a");
  CHECK(print(Neg::make(IntImm::make(3))) == "- 3");
  CHECK(print(Neg::make(IntImm::make(-3))) == "- -3");
  CHECK(print(Neg::make(Neg::make(IntImm::make(3)))) == "- - 3");
  CHECK(print(Neg::make(FloatImm::make(2.5))) == "- 2.5f");
  CHECK(print(a * -3) == "%a * -3");
  CHECK(print(a - -3) == "%a - -3");
  CHECK(print(logical_not(lt(a, b))) == "!(%a < %b)");
  CHECK(print(logical_not(logical_not(p))) == "!!%p");
  CHECK(print(logical_not(-a)) == "!-%a");
  CHECK(print(eq(lt(a, b), p)) == "%a < %b == %p");
  CHECK(print(lt(a, eq(b, c))) == "%a < (%b == %c)");
  CHECK(print(logical_or(logical_and(p, q), r)) == "%p && %q || %r");
  CHECK(print(logical_and(p, logical_or(q, r))) == "%p && (%q || %r)");
  CHECK(print(lt(a + 1, b * 2)) == "%a + 1 < %b * 2");
  CHECK(print(min(a + 1, max(b, c)) * 2) == "min(%a + 1, max(%b, %c)) * 2");
  CHECK(print(select(lt(a, b), a - b, b)) == "select(%a < %b, %a - %b, %b)");
  CHECK(print(cast(f32(), a + 1) * load(A, {a * 2 + 1})) ==
        "cast<float32>(%a + 1) * %A[%a * 2 + 1]");
  CHECK(print(-load(A, {a})) == "-%A[%a]");
}

TEST_CASE("integer and float literals of every dtype carry a parseable suffix") {
  CHECK(print(IntImm::make(3, DataType::int8())) == "3i8");
  CHECK(print(IntImm::make(-3, DataType::int16())) == "-3i16");
  CHECK(print(IntImm::make(3, DataType::uint8())) == "3u8");
  CHECK(print(IntImm::make(255, DataType::uint8())) == "255u8");
  CHECK(print(IntImm::make(std::numeric_limits<std::int64_t>::min(), DataType::int64())) ==
        "-9223372036854775808i64");
  CHECK(print(IntImm::make(1, DataType::boolean())) == "true");
  CHECK(print(IntImm::make(0, DataType::boolean())) == "false");
  CHECK(print(FloatImm::make(0.5, DataType::float16())) == "0.5f16");
  // float16 prints its own shortest round trip, not the double's.
  CHECK(print(FloatImm::make(0.1, DataType::float16())) == "0.1f16");
  CHECK(print(FloatImm::make(65504.0, DataType::float16())) == "6.55e+04f16");
  CHECK(print(FloatImm::make(0.1, DataType::float64())) == "0.1f64");
  CHECK(print(FloatImm::make(1e300, DataType::float64())) == "1e+300f64");
  CHECK(print(FloatImm::make(-0.0)) == "-0f");
  CHECK(print(FloatImm::make(std::nan(""), DataType::float64())) == "nanf64");
  CHECK(print(FloatImm::make(-HUGE_VAL, DataType::float16())) == "-inff16");
  // A float32 literal prints its value as a float32: 0.1 read as a double rounds.
  CHECK(print(FloatImm::make(0.1)) == "0.1f");
  CHECK(print(FloatImm::make(static_cast<double>(0.1f))) == "0.1f");
  // Constants carry the suffix on every element.
  CHECK(print(Constant::make(TensorData::from_doubles(DataType::uint8(), {3}, {1, 2, 255}))) ==
        "const([1u8, 2u8, 255u8])");
  CHECK(print(Constant::make(TensorData::from_doubles(DataType::boolean(), {2}, {1, 0}))) ==
        "const([true, false])");
  CHECK(print(Constant::make(TensorData::from_doubles(DataType::int64(), {1, 2}, {-1, 7}))) ==
        "const([[-1i64, 7i64]])");
  CHECK(print(Constant::make(TensorData::scalar(DataType::float64(), 2.5))) == "const(2.5f64)");
  CHECK(print(Constant::make(TensorData(f32(), {0, 3}))) == "const([], Tensor[(0, 3), float32])");
  CHECK(print(Constant::make(TensorData::from_doubles(f32(), {2, 1, 2}, {1, 2, 3, 4}))) ==
        "const([[[1f, 2f]], [[3f, 4f]]])");
}

TEST_CASE("a let statement is annotated only when its type is not the value's") {
  auto i = Var::make("i", i32());
  auto wide = Var::make("w", DataType::int64());
  auto same = Var::make("s", i32());
  auto flag = Var::make("f", DataType::boolean());
  CHECK(print(Bind::make(same, i * 2)) == "let %s = %i * 2;");
  CHECK(print(Bind::make(wide, i * 2)) == "let %w: int64 = %i * 2;");
  CHECK(print(Bind::make(flag, lt(i, 2))) == "let %f = %i < 2;");
}

TEST_CASE("blocks nest: a block inside a block prints as braces of its own") {
  auto A = Var::make("A", tensor({2}));
  Stmt first = TensorStore::make(A, {0}, 1.0f);
  Stmt inner = SeqStmt::make({first, TensorStore::make(A, {1}, 2.0f)});
  CHECK(print(SeqStmt::make({inner, first})) == "{\n"
                                                "  {\n"
                                                "    %A[0] = 1f;\n"
                                                "    %A[1] = 2f;\n"
                                                "  }\n"
                                                "  %A[0] = 1f;\n"
                                                "}");
  CHECK(print(SeqStmt::make({})) == "{\n}");
}

TEST_CASE("a prim function lists its shape variables in order of first mention") {
  auto n = Var::make("n", i32());
  auto m = Var::make("m", DataType::int64());
  auto A = Var::make("A", TensorType::make({m, n}, f32()));
  auto B = Var::make("B", TensorType::make({n}, f32()));
  auto s = Var::make("s", f32());
  auto T = Var::make("T", TensorType::make({n}, f32()));
  auto body = SeqStmt::make({Allocate::make(T), TensorStore::make(B, {0}, s)});
  CHECK(print(PrimFunc::make("f", {A, B, s}, body)) ==
        "prim @f[%m: int64, %n](%A: Tensor[(%m, %n), float32], %B: Tensor[(%n), float32], %s: "
        "float32) {\n"
        "  alloc %T: Tensor[(%n), float32];\n"
        "  %B[0] = %s;\n"
        "}\n");
  // Without shape variables there is no bracket list; without a name it is @main.
  CHECK(print(PrimFunc::make("", {s}, SeqStmt::make({}))) == "prim @main(%s: float32) {\n}\n");
}

// ---- names ------------------------------------------------------------------------------

TEST_CASE("clashing names get a numeric suffix and digit names are renamed") {
  auto x1 = Var::make("x", tensor({2}));
  auto x2 = Var::make("x", tensor({2}));
  auto x3 = Var::make("x_1", tensor({2}));
  auto x4 = Var::make("x", tensor({2}));
  auto zero = Var::make("0", tensor({2}));
  auto empty1 = Var::make("", tensor({2}));
  auto empty2 = Var::make("", tensor({2}));
  auto odd = Var::make("a.b-c", tensor({2}));
  auto tuple = Tuple::make({x1, x2, x3, x4, zero, empty1, empty2, odd, call("exp", {x1})});
  CHECK(print(tuple) == "%0 = exp(%x);\n(%x, %x_1, %x_1_1, %x_2, %v0, %v, %v_1, %a_b_c, %0)");
}

TEST_CASE("names are unique within a function and start afresh in the next") {
  auto make = [](const char* name) {
    auto a = Var::make("a", tensor({2}));
    auto b = Var::make("a", tensor({2}));
    return Function::make({a, b}, call("add", {a, b}), {}, {}, name);
  };
  IRModule module;
  module.add("f", make("f"));
  module.add("g", make("g"));
  CHECK(print(module) == "def @f(%a: Tensor[(2), float32], %a_1: Tensor[(2), float32]) {\n"
                         "  add(%a, %a_1)\n"
                         "}\n"
                         "\n"
                         "def @g(%a: Tensor[(2), float32], %a_1: Tensor[(2), float32]) {\n"
                         "  add(%a, %a_1)\n"
                         "}\n");
}

TEST_CASE("a module prints its global names, not the functions' name hints") {
  auto x = Var::make("x", tensor({2}));
  auto f = Function::make({x}, x, {}, {}, "hint");
  IRModule module;
  module.add("real", f);
  CHECK(print(module) == "def @real(%x: Tensor[(2), float32]) {\n  %x\n}\n");
  CHECK(print(f) == "def @hint(%x: Tensor[(2), float32]) {\n  %x\n}\n");
  CHECK(print(IRModule{}).empty());
}

// ---- single nodes, determinism, streams -------------------------------------------------

TEST_CASE("a single expression, statement or type prints on its own") {
  AddOne add_one;
  CHECK(print(add_one.value) == "%A[%i] + 1f");
  CHECK(print(add_one.store) == "%B[%i] = %A[%i] + 1f;");
  CHECK(print(add_one.loop) == "for %i in range(0, %n) {\n  %B[%i] = %A[%i] + 1f;\n}");
  CHECK(print(add_one.A->ty) == "Tensor[(%n), float32]");
  CHECK(print(add_one.i) == "%i");
  CHECK(print(GlobalVar::make("g")) == "@g");
  CHECK(print(Op::make("add")) == "add");
  // A graph function without a name is a closure.
  auto a = Var::make("a", tensor({2}));
  CHECK(print(Function::make({a}, a)) == "fn (%a: Tensor[(2), float32]) {\n  %a\n}");
}

TEST_CASE("printing is deterministic and print_with_ranges prints the same text") {
  MainExample example;
  AddOne add_one;
  IRModule module;
  module.add("main", example.func);
  module.add("add_one", add_one.func);
  const std::string first = print(module);
  CHECK(print(module) == first);
  CHECK(print_with_ranges(module).text() == first);
  CHECK(print(module.node()) == first);
  CHECK(print_with_ranges(ObjectRef(module.node())).text() == first);
}

TEST_CASE("modules and nodes can be written to streams") {
  AddOne add_one;
  IRModule module;
  module.add("add_one", add_one.func);
  std::ostringstream os;
  os << module;
  CHECK(os.str() == read_golden("add_one.ctir"));
  std::ostringstream expr;
  expr << add_one.value << '|' << PrimExpr() << '|'
       << IntImm::make(1, DataType{DataType::Code::uint, 16});
  CHECK(expr.str().starts_with("%A[%i] + 1f|null|<cannot print: "));
}

// ---- ranges -----------------------------------------------------------------------------

TEST_CASE("underline shows the lines of a node with carets under it") {
  AddOne add_one;
  const PrintedText printed = print_with_ranges(add_one.func);
  CHECK(printed.underline(add_one.value) ==
        "prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {\n"
        "  for %i in range(0, %n) {\n"
        "    %B[%i] = %A[%i] + 1f;\n"
        "             ^^^^^^^^^^^\n"
        "  }\n"
        "}\n");
  CHECK(printed.underline(add_one.value.as<AddNode>()->b, 0) == "    %B[%i] = %A[%i] + 1f;\n"
                                                                "                      ^^\n");
  CHECK(printed.underline(add_one.loop, 1) == "prim @add_one[%n](%A: Tensor[(%n), float32], %B: "
                                              "Tensor[(%n), float32]) {\n"
                                              "  for %i in range(0, %n) {\n"
                                              "  ^^^^^^^^^^^^^^^^^^^^^^^^\n"
                                              "    %B[%i] = %A[%i] + 1f;\n"
                                              "    ^^^^^^^^^^^^^^^^^^^^^\n"
                                              "  }\n"
                                              "  ^\n"
                                              "}\n");
  CHECK(printed.underline(Var::make("elsewhere")).empty());
}

TEST_CASE("underline finds a node in the second function of a module") {
  AddOne add_one;
  auto x = Var::make("x", tensor({10}));
  auto main = Function::make({x}, CallDps::make(GlobalVar::make("add_one"), {x}, tensor({10})));
  IRModule module;
  module.add("main", main);
  module.add("add_one", add_one.func);
  const PrintedText printed = print_with_ranges(module);
  CHECK(printed.underline(add_one.store, 1) == "  for %i in range(0, %n) {\n"
                                               "    %B[%i] = %A[%i] + 1f;\n"
                                               "    ^^^^^^^^^^^^^^^^^^^^^\n"
                                               "  }\n");
  CHECK(printed.underline(add_one.func, 0).starts_with("prim @add_one"));
  CHECK(printed.underline(main->body, 0) == "  call_dps @add_one(%x) -> Tensor[(10), float32]\n"
                                            "  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n");
  // The call's global and the module's are different objects with one name.
  const std::vector<TextRange> globals = printed.ranges_of(module.global_var("add_one"));
  REQUIRE(globals.size() == 1);
  CHECK(slice(printed, globals[0]) == "@add_one");
  CHECK(globals[0].begin > printed.text().find("prim"));
}

TEST_CASE("ranges cover functions, temporaries at their binding, and each variable use") {
  MainExample example;
  IRModule module;
  module.add("main", example.func);
  const PrintedText printed = print_with_ranges(module);
  const std::string& text = printed.text();

  REQUIRE(printed.range_of(example.func));
  CHECK(slice(printed, *printed.range_of(example.func)) == text.substr(0, text.size() - 1));
  CHECK(slice(printed, *printed.range_of(module.node())) == text);
  CHECK(slice(printed, *printed.range_of(module.global_var("main"))) == "@main");

  // The temporary: its expression at the binding first, then each `%0`.
  const std::vector<TextRange> sum = printed.ranges_of(example.sum);
  REQUIRE(sum.size() == 2);
  CHECK(slice(printed, sum[0]) == "add(%x, %y)");
  CHECK(slice(printed, sum[1]) == "%0");
  CHECK(printed.underline(example.sum, 0) == "  %0 = add(%x, %y);\n"
                                             "       ^^^^^^^^^^^\n");

  // A variable at its definition and at each use.
  const std::vector<TextRange> x = printed.ranges_of(example.x);
  REQUIRE(x.size() == 2);
  CHECK(slice(printed, x[0]) == "%x");
  CHECK(x[0].begin < x[1].begin);
  CHECK(printed.ranges_of(example.z).size() == 2);

  // The let: from `let` to the end of its body; its value inline.
  const auto* let = example.func->body.get();
  CHECK(slice(printed, *printed.range_of(let)) ==
        "let %z: Tensor[(2, 3), float32] = multiply(%0, 2f);\n  %z");
  CHECK(slice(printed, *printed.range_of(example.product)) == "multiply(%0, 2f)");
  CHECK(slice(printed, *printed.range_of(example.t)) == "Tensor[(2, 3), float32]");
  CHECK(printed.ranges_of(example.t).size() == 4);
  CHECK_FALSE(printed.range_of(Var::make("unrelated")));
  CHECK(printed.ranges_of(nullptr).empty());
}

TEST_CASE("range_at follows an access path to the occurrence it names") {
  auto A = Var::make("A", tensor({4}));
  auto i = Var::make("i", i32());
  const PrimExpr x = load(A, {i});
  const PrimFunc f = PrimFunc::make("f", {A}, For::make(i, 0, 4, TensorStore::make(A, {i}, x + x)));
  const PrintedText printed = print_with_ranges(f);
  const AccessPath value =
      AccessPath().field("body").field("seq").index(0).field("body").field("seq").index(0).field(
          "value");
  // One node at both operands: the path's field picks the occurrence.
  const std::optional<TextRange> a = printed.range_at(f, value.field("a"));
  const std::optional<TextRange> b = printed.range_at(f, value.field("b"));
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(slice(printed, *a) == "%A[%i]");
  CHECK(slice(printed, *b) == "%A[%i]");
  CHECK(a->end < b->begin);
  // A variable printed six times: the use inside the second load.
  const std::optional<TextRange> index =
      printed.range_at(f, value.field("b").field("indices").index(0));
  REQUIRE(index.has_value());
  CHECK(slice(printed, *index) == "%i");
  CHECK((b->begin < index->begin && index->end <= b->end));
  // A plain value field gives its holder; a path that leads nowhere, the nearest node.
  CHECK(printed.range_at(f, value.field("b").field("source").field("name")) ==
        printed.range_at(f, value.field("b").field("source")));
  CHECK(printed.range_at(f, value.field("nothing")) == printed.range_at(f, value));
  CHECK(printed.range_at(f, AccessPath()) == printed.range_of(f));
}

TEST_CASE("a statement nested too deeply binds temporaries before it, each named at its uses") {
  auto A = Var::make("A", tensor({4}));
  auto i = Var::make("i", i32());
  PrimExpr value = load(A, {i});
  for (int k = 0; k < 140; ++k) {
    value = 1.0f - value;
  }
  const PrimFunc f = PrimFunc::make("f", {A}, For::make(i, 0, 4, TensorStore::make(A, {i}, value)));
  const PrintedText printed = print_with_ranges(f);
  const std::string& text = printed.text();
  // Levels 64 and 128 counted from the load (whose index nests a level) are bound, inner
  // first, then the statement.
  CHECK(text.starts_with("prim @f(%A: Tensor[(4), float32]) {\n  for %i in range(0, 4) {\n"
                         "    %0 = 1f - (1f - (1f - "));
  CHECK(text.find("\n    %1 = 1f - (1f - ") != std::string::npos);
  CHECK(text.find("\n    %A[%i] = 1f - (1f - ") != std::string::npos);
  CHECK(text.find("%2") == std::string::npos);
  // A temporary's range is its expression at the binding, and each `%N` where it is used.
  const PrimExpr* inner = &value;
  for (int k = 0; k < 140 - 64 && inner->as<SubNode>() != nullptr; ++k) {
    inner = &inner->as<SubNode>()->b;
  }
  CHECK(slice(printed, printed.ranges_of(*inner).back()) == "%0");
  CHECK(printed.ranges_of(*inner).size() == 2);
  CHECK(print(f) == text);
}

TEST_CASE("ranges of tensor-level nodes exclude the parentheses around them") {
  auto a = Var::make("a", i32());
  auto b = Var::make("b", i32());
  PrimExpr sum = a + b;
  PrimExpr product = sum * 2;
  const PrintedText printed = print_with_ranges(product);
  CHECK(printed.text() == "(%a + %b) * 2");
  CHECK(slice(printed, *printed.range_of(sum)) == "%a + %b");
  CHECK(slice(printed, *printed.range_of(product)) == "(%a + %b) * 2");

  auto t = Var::make("t");
  Expr inner = TupleGetItem::make(t, 1);
  Expr outer = TupleGetItem::make(inner, 0);
  const PrintedText projection = print_with_ranges(outer);
  CHECK(projection.text() == "%t.1.0");
  CHECK(slice(projection, *projection.range_of(inner)) == "%t.1");
  CHECK(slice(projection, *projection.range_of(outer)) == "%t.1.0");
}

TEST_CASE("ranges of statements include their semicolon or their block") {
  AddOne add_one;
  const PrintedText printed = print_with_ranges(add_one.func);
  CHECK(slice(printed, *printed.range_of(add_one.store)) == "%B[%i] = %A[%i] + 1f;");
  CHECK(slice(printed, *printed.range_of(add_one.loop->body)) ==
        "{\n    %B[%i] = %A[%i] + 1f;\n  }");
  CHECK(slice(printed, *printed.range_of(add_one.n)) == "%n");
  CHECK(printed.ranges_of(add_one.n).size() == 4); // [%n], two parameter types, the bound
  CHECK(printed.ranges_of(add_one.i).size() == 3);
}

// ---- errors -----------------------------------------------------------------------------

TEST_CASE("IR the format cannot express is an error naming the node") {
  auto x = Var::make("x", tensor({2}));
  SUBCASE("a null node") { CHECK_THROWS_AS(print(ObjectRef()), Error); }
  SUBCASE("a call without a callee") {
    Call bad = Call::make(Expr(), {x});
    try {
      (void)print(call("exp", {bad}));
      FAIL("expected an error");
    } catch (const NodeError& error) {
      CHECK(error.node().same_as(bad));
      CHECK(std::string(error.what()).find("whose op is null") != std::string::npos);
    }
  }
  SUBCASE("a null argument") {
    CHECK_THROWS_WITH_AS(print(call("add", {x, Expr()})), doctest::Contains("args[1] is null"),
                         NodeError);
  }
  SUBCASE("a function without a body") {
    CHECK_THROWS_AS(print(Function::make({x}, Expr(), {}, {}, "f")), NodeError);
  }
  SUBCASE("a tensor-level function inside a graph-level expression") {
    auto prim = PrimFunc::make("p", {}, SeqStmt::make({}));
    CHECK_THROWS_WITH_AS(print(Call::make(prim, {x})),
                         doctest::Contains("tensor-level function inside a graph-level"),
                         NodeError);
  }
  SUBCASE("a dtype the format has no name for") {
    const DataType uint16{DataType::Code::uint, 16};
    CHECK_THROWS_WITH_AS(print(PrimType::make(uint16)), doctest::Contains("uint16"), NodeError);
    CHECK_THROWS_AS(print(IntImm::make(1, uint16)), NodeError);
    CHECK_THROWS_AS(print(IntImm::make(1, f32())), NodeError);
    CHECK_THROWS_AS(print(FloatImm::make(1, i32())), NodeError);
    CHECK_THROWS_AS(print(cast(uint16, x)), NodeError);
  }
  SUBCASE("names the lexer cannot read") {
    IRModule module;
    module.add("a-b", Function::make({x}, x));
    CHECK_THROWS_WITH_AS(print(module), doctest::Contains("'a-b'"), NodeError);
    CHECK_THROWS_AS(print(call("if", {x})), NodeError);
    CHECK_THROWS_AS(print(call("1x", {x})), NodeError);
    CHECK_THROWS_AS(print(call("nn.", {x})), NodeError);
    CHECK_THROWS_AS(print(call("exp", {x}, Attrs{{"bad key", true}})), NodeError);
    CHECK_THROWS_AS(print(Call::make(GlobalVar::make(""), {x})), NodeError);
  }
  SUBCASE("a negative projection index") {
    CHECK_THROWS_AS(print(TupleGetItem::make(x, -1)), NodeError);
  }
  SUBCASE("a callee that cannot be called") {
    CHECK_THROWS_AS(print(Call::make(IntImm::make(3), {x})), NodeError);
  }
  SUBCASE("null statements and operands") {
    auto A = Var::make("A", tensor({2}));
    CHECK_THROWS_WITH_AS(print(SeqStmt::make({Stmt()})), doctest::Contains("seq[0] is null"),
                         NodeError);
    CHECK_THROWS_AS(print(TensorStore::make(A, {0}, PrimExpr())), NodeError);
    CHECK_THROWS_AS(print(Add::make(1, PrimExpr())), NodeError);
    CHECK_THROWS_AS(print(Allocate::make(Var::make("T"))), NodeError);
    CHECK_THROWS_AS(print(CallDps::make(GlobalVar::make("f"), {x}, Type())), NodeError);
  }
}

// ---- deep IR ----------------------------------------------------------------------------

namespace {
constexpr auto deep = static_cast<std::size_t>(testing::deep_nesting);

/// 2 spaces per level, capped as the printer caps it.
std::size_t indent_width(std::size_t level) {
  return 2 * std::min(level, detail::max_indent_levels);
}
} // namespace

TEST_CASE("a store of an addition chain far deeper than native recursion could go prints "
          "without recursion") {
  auto A = Var::make("A", tensor({1}));
  auto B = Var::make("B", tensor({1}));
  PrimExpr value = TensorLoad::make(A, {0});
  PrimExpr one = 1.0f;
  for (std::size_t k = 0; k < deep; ++k) {
    value = Add::make(value, one);
  }
  const std::string text = print(TensorStore::make(B, {0}, value));
  CHECK(text.size() == std::string("%B[0] = %A[0];").size() + deep * std::string(" + 1f").size());
  CHECK(text.starts_with("%B[0] = %A[0] + 1f + 1f"));
  CHECK(text.ends_with(" + 1f + 1f;"));

  // Nested on the right, every level needs parentheses.
  PrimExpr right = TensorLoad::make(A, {0});
  for (std::size_t k = 0; k < deep; ++k) {
    right = Add::make(one, right);
  }
  const PrintedText printed = print_with_ranges(right);
  // Every level but the outermost is parenthesized.
  CHECK(printed.text().size() ==
        std::string("%A[0]").size() + deep * std::string("1f + ()").size() - 2);
  CHECK(printed.text().starts_with("1f + (1f + (1f + ("));
  CHECK(printed.text().ends_with("(1f + (1f + %A[0]" + std::string(deep - 1, ')')));
  CHECK(slice(printed, *printed.range_of(right)) == printed.text());
}

TEST_CASE("loops and blocks nested far deeper than native recursion could go print without "
          "recursion") {
  auto B = Var::make("B", tensor({1}));
  auto i = Var::make("i", i32());
  const std::string store = "%B[0] = 1f;";

  SUBCASE("for") {
    Stmt body = TensorStore::make(B, {0}, 1.0f);
    for (std::size_t k = 0; k < deep; ++k) {
      body = For::make(i, 0, 1, body);
    }
    const std::string text = print(body);
    const std::string header = "for %i in range(0, 1) {";
    std::size_t expected = indent_width(deep) + store.size();
    for (std::size_t level = 0; level < deep; ++level) {
      // One variable bound at every level: each binding gets a name of its own (%i, %i_1,
      // %i_2, ...), the names the parser's distinct variables print with.
      const std::size_t suffix = level == 0 ? 0 : 1 + std::to_string(level).size();
      expected += 2 * indent_width(level) + header.size() + suffix + 1 + 2; // "{", "}", 2 '\n'
    }
    CHECK(text.size() == expected);
    CHECK(text.starts_with("for %i in range(0, 1) {\n  for %i_1 in range(0, 1) {\n    for"));
    CHECK(text.find(store + "\n" + std::string(indent_width(deep - 1), ' ') + "}\n") !=
          std::string::npos);
    CHECK(text.ends_with("}\n    }\n  }\n}"));
  }
  SUBCASE("blocks") {
    Stmt body = TensorStore::make(B, {0}, 1.0f);
    for (std::size_t k = 0; k < deep; ++k) {
      body = SeqStmt::make({body});
    }
    const PrintedText printed = print_with_ranges(body);
    std::size_t expected = indent_width(deep) + store.size();
    for (std::size_t level = 0; level < deep; ++level) {
      expected += 2 * indent_width(level) + 2 + 2;
    }
    CHECK(printed.text().size() == expected);
    CHECK(printed.text().starts_with("{\n  {\n    {\n"));
    CHECK(printed.text().ends_with("}\n  }\n}"));
    CHECK(printed.range_of(body)->end == printed.text().size());
  }
}

TEST_CASE("a graph-level chain of calls nested far deeper than native recursion could go prints "
          "one temporary per call") {
  auto x = Var::make("x", tensor({2}));
  Expr chain = x;
  for (std::size_t k = 0; k < deep; ++k) {
    chain = call("add", {chain, FloatImm::make(1.0)});
  }
  auto func = Function::make({x}, chain, {}, {}, "main");
  const std::string text = print(func);
  const std::string last = std::to_string(deep - 2);
  std::size_t expected = std::string("def @main(%x: Tensor[(2), float32]) {\n").size() +
                         ("  add(%" + last + ", 1f)\n}\n").size();
  expected += std::string("  %0 = add(%x, 1f);\n").size();
  for (std::size_t k = 1; k + 1 < deep; ++k) {
    expected += std::string("  % = add(%, 1f);\n").size() + std::to_string(k).size() +
                std::to_string(k - 1).size();
  }
  CHECK(text.size() == expected);
  CHECK(text.starts_with("def @main(%x: Tensor[(2), float32]) {\n  %0 = add(%x, 1f);\n  %1 = "
                         "add(%0, 1f);\n"));
  CHECK(text.ends_with("  %" + last + " = add(%" + std::to_string(deep - 3) + ", 1f);\n  add(%" +
                       last + ", 1f)\n}\n"));
}

TEST_CASE("a graph-level chain of lets far longer than native recursion could follow prints in "
          "linear time") {
  auto x = Var::make("x", tensor({2}));
  // let %x_1 = add(%x, 1f); let %x_2 = add(%x_1, 1f); ... %x_<deep>, every variable
  // named "x": built from the inside out, holding two variables at a time.
  Var current = Var::make("x");
  Expr body = current;
  for (std::size_t k = deep; k-- > 0;) {
    Var previous = k == 0 ? x : Var::make("x");
    body = Let::make(current, call("add", {previous, FloatImm::make(1.0)}), body);
    current = previous;
  }
  const std::string text = print(Function::make({x}, body, {}, {}, "main"));
  CHECK(text.starts_with("def @main(%x: Tensor[(2), float32]) {\n  let %x_1 = add(%x, 1f);\n"
                         "  let %x_2 = add(%x_1, 1f);\n"));
  const std::string last = "%x_" + std::to_string(deep);
  CHECK(text.ends_with("  let " + last + " = add(%x_" + std::to_string(deep - 1) + ", 1f);\n  " +
                       last + "\n}\n"));
}
