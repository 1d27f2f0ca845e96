// Tests of the text parser: the TEXT_FORMAT.md examples, what the text means (sharing,
// lets, scopes, literals), source spans, every kind of error with its caret, deep nesting.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/text/detail/print_literal.hpp> // round_to_float16
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <doctest/doctest.h>
#include <test_data.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::read_test_file;
using ctir::testing::test_data_dir;

namespace {

/// The parsed module printed back.
std::string reprint(const std::string& text) { return print(parse_module(text)); }

/// The ParseError that parsing `text` throws (none if it parses).
std::optional<ParseError> parse_error_of(const std::string& text,
                                         const std::string& file = "model.ctir") {
  try {
    (void)parse_module(text, file);
  } catch (const ParseError& error) {
    return error;
  }
  return std::nullopt;
}

/// The message of the ParseError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text, const std::string& file = "model.ctir") {
  const std::optional<ParseError> error = parse_error_of(text, file);
  return error ? error->what() : "";
}

/// `text` parsed, after checking that it prints back exactly (it is in canonical form).
IRModule parse_canonical(const std::string& text) {
  IRModule module = parse_module(text);
  CHECK(print(module) == text);
  return module;
}

/// Function `@name` of `module` as a T (FunctionNode or PrimFuncNode); the test stops if
/// it is missing or of the other kind.
template <class T>
const T* function_of(const IRModule& module, std::string_view name) {
  const T* function = module.lookup(name).template as<T>();
  REQUIRE(function != nullptr);
  return function;
}

std::string repeat(std::string_view piece, std::size_t count) {
  std::string out;
  out.reserve(piece.size() * count);
  for (std::size_t k = 0; k < count; ++k) {
    out += piece;
  }
  return out;
}

const char* const main_example =
    "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) -> "
    "Tensor[(2, 3), float32] {\n"
    "  %0 = add(%x, %y);\n"
    "  let %z: Tensor[(2, 3), float32] = multiply(%0, 2f);\n"
    "  %z\n"
    "}\n";

const char* const add_one_example =
    "prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {\n"
    "  for %i in range(0, %n) {\n"
    "    %B[%i] = %A[%i] + 1f;\n"
    "  }\n"
    "}\n";

} // namespace

// ---- TEXT_FORMAT.md examples ------------------------------------------------------------

TEST_CASE("the graph-level example of TEXT_FORMAT.md parses into the IR it describes") {
  const IRModule module = parse_module(main_example);
  CHECK(print(module) == main_example);

  // The same function built in C++.
  TensorType t = tensor_type({2, 3}, DataType::float32());
  Var x = Var::make("x", t);
  Var y = Var::make("y", t);
  Var z = Var::make("z", t);
  Call sum = call("add", {x, y});
  Call product = call("multiply", {sum, FloatImm::make(2.0)});
  Function expected = Function::make({x, y}, Let::make(z, product, z), t, {}, "main");
  CHECK(structural_equal(module.lookup("main"), BaseFunc(expected)));

  const auto* function = function_of<FunctionNode>(module, "main");
  REQUIRE(function != nullptr);
  const auto* let = function->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->body.same_as(let->var));
  CHECK(let->var->name == "z");
}

TEST_CASE("the tensor-level example of TEXT_FORMAT.md parses into seed 003's add_one") {
  const IRModule module = parse_module(add_one_example);
  CHECK(print(module) == add_one_example);

  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto B = Var::make("B", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  PrimFunc expected = PrimFunc::make(
      "add_one", {A, B},
      For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f)));
  CHECK(structural_equal(module.lookup("add_one"), BaseFunc(expected)));
  // The shape variable is one variable: the one both parameter types mention.
  const auto* prim = function_of<PrimFuncNode>(module, "add_one");
  REQUIRE(prim != nullptr);
  REQUIRE(prim->shape_vars().size() == 1);
  CHECK(prim->params[0]->ty.as<TensorTypeNode>()->shape[0].same_as(
      prim->params[1]->ty.as<TensorTypeNode>()->shape[0]));
}

TEST_CASE("the call_dps and attribute examples of TEXT_FORMAT.md print back exactly") {
  const std::string mixed = "def @main(%x: Tensor[(10), float32]) -> Tensor[(10), float32] {\n"
                            "  %0 = exp(%x);\n"
                            "  %1 = call_dps @add_one(%x) -> Tensor[(10), float32];\n"
                            "  add(%0, %1)\n"
                            "}\n"
                            "\n" +
                            std::string(add_one_example);
  CHECK(reprint(mixed) == mixed);
  const std::string attributes =
      "def @f(%x: Tensor[(2), float32]) -> Tensor[(2), float32] attributes "
      "{SkipOptimization = true} {\n"
      "  relu(%x)\n"
      "}\n";
  CHECK(reprint(attributes) == attributes);
  CHECK(parse_module(attributes).lookup("f")->skip_optimization());
}

TEST_CASE("the types of TEXT_FORMAT.md parse and print back") {
  for (const char* text : {"Tensor[(2, 3), float32]", "Tensor[(), float32]", "int32",
                           "Tuple[Tensor[(2), float32], int32]", "Tensor[(2, %n), float32]",
                           "fn (Tensor[(2), float32]) -> Tensor[(2), float32]", "Tuple[]"}) {
    CAPTURE(text);
    CHECK(print(parse_type(text)) == text);
  }
  const Type tensor = parse_type("Tensor[(2, 3), float32]");
  CHECK(structural_equal(tensor, Type(tensor_type({2, 3}, DataType::float32()))));
}

TEST_CASE("every dtype of TEXT_FORMAT.md parses by its name") {
  for (const char* name :
       {"bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"}) {
    CAPTURE(name);
    const Type type = parse_type(name);
    REQUIRE(type.is<PrimTypeNode>());
    CHECK(type.as<PrimTypeNode>()->dtype == DataType::from_string(name).value());
  }
}

TEST_CASE("the literals of TEXT_FORMAT.md parse with their dtypes") {
  // Owning handles: a pointer into a temporary would dangle.
  auto int_of = [](const char* text) { return downcast<IntImmNode>(parse_prim_expr(text)); };
  auto float_of = [](const char* text) { return downcast<FloatImmNode>(parse_prim_expr(text)); };
  CHECK(int_of("3")->value == 3);
  CHECK(int_of("3")->dtype == DataType::int32());
  CHECK(int_of("-3")->value == -3);
  CHECK(int_of("3i64")->dtype == DataType::int64());
  CHECK(int_of("true")->dtype == DataType::boolean());
  CHECK(int_of("true")->value == 1);
  CHECK(int_of("false")->value == 0);
  CHECK(float_of("2.5f")->value == 2.5);
  CHECK(float_of("2.5f")->dtype == DataType::float32());
  CHECK(float_of("1f")->value == 1.0);
  CHECK(float_of("2.5f64")->dtype == DataType::float64());
  CHECK(float_of("1e-07f")->value == static_cast<double>(1e-07F));
  CHECK(std::isinf(float_of("inff")->value));
  CHECK(std::isnan(float_of("nanf")->value));
  for (const char* text : {"3", "-3", "3i64", "2.5f", "1f", "2.5f64", "true", "false", "8f", "0.5f",
                           "1e-07f", "inff", "nanf"}) {
    CAPTURE(text);
    CHECK(print(parse_prim_expr(text)) == text);
  }
}

TEST_CASE("the graph-level expressions of TEXT_FORMAT.md parse and print back") {
  for (const char* text :
       {"const([[1f, 2f], [3f, 4f]])", "reshape(%x, newshape=[3, 2])", "nn.relu(%x)", "@f(%a)",
        "(%a, %b)", "(%a,)", "%t.0", "()", "call_dps @add_one(%x) -> Tensor[(10), float32]",
        "if (%c) {\n  exp(%a)\n} else {\n  %b\n}",
        "%0 = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n  exp(%a)\n};\n%0(%x)"}) {
    CAPTURE(text);
    CHECK(print(parse_expr(text)) == text);
  }
  const Expr constant = parse_expr("const([[1f, 2f], [3f, 4f]])");
  REQUIRE(constant.is<ConstantNode>());
  CHECK(constant.as<ConstantNode>()->data ==
        TensorData::from_doubles(DataType::float32(), {2, 2}, {1, 2, 3, 4}));
}

TEST_CASE("a closure bound by a let is called through its variable") {
  const std::string text = "def @g(%b: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                           "  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                           "    negative(%a)\n"
                           "  };\n"
                           "  %f(%b)\n"
                           "}\n";
  const IRModule module = parse_canonical(text);
  const auto* let = function_of<FunctionNode>(module, "g")->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->value.is<FunctionNode>());
  const auto* call_node = let->body.as<CallNode>();
  REQUIRE(call_node != nullptr);
  CHECK(call_node->op.same_as(let->var));
}

TEST_CASE("a closure bound by a let may call itself") {
  const std::string text = "def @g(%b: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                           "  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                           "    %f(%a)\n"
                           "  };\n"
                           "  %f(%b)\n"
                           "}\n";
  const IRModule module = parse_canonical(text);
  const auto* let = function_of<FunctionNode>(module, "g")->body.as<LetNode>();
  REQUIRE(let != nullptr);
  const auto* inner = let->value.as<FunctionNode>()->body.as<CallNode>();
  REQUIRE(inner != nullptr);
  CHECK(inner->op.same_as(let->var));
}

TEST_CASE("a let whose value is not a function cannot refer to itself") {
  CHECK(error_of("def @f(%x: Tensor[(2), float32]) {\n"
                 "  let %c = multiply(%x, exp(%c));\n"
                 "  %c\n"
                 "}") == "model.ctir:2:29: error: undefined variable '%c' (a let's variable is "
                         "defined after its value; only a function, 'fn', may refer to itself)\n"
                         "  let %c = multiply(%x, exp(%c));\n"
                         "                            ^");
  // A closure called or projected at once is not a function: its own name is an error.
  CHECK(error_of("def @f(%x: Tensor[(2), float32]) {\n"
                 "  let %t = fn () { (%t, %x) }.0;\n"
                 "  %t\n"
                 "}") == "model.ctir:2:21: error: '%t' is used in its own value, which is not a "
                         "function (only a function, 'fn', may refer to itself; bind the closure "
                         "with its own let first)\n"
                         "  let %t = fn () { (%t, %x) }.0;\n"
                         "                    ^");
}

TEST_CASE("a let that shadows a name sees the outer definition in its value") {
  const IRModule module = parse_module("def @f(%x: Tensor[(2), float32]) {\n"
                                       "  %0 = {\n"
                                       "    let %x = exp(%x);\n"
                                       "    %x\n"
                                       "  };\n"
                                       "  %0\n"
                                       "}");
  const auto* f = function_of<FunctionNode>(module, "f");
  const auto* let = f->body.as<LetNode>();
  REQUIRE(let != nullptr);
  CHECK(let->value.as<CallNode>()->args[0].same_as(f->params[0]));
  CHECK_FALSE(let->var.same_as(f->params[0]));
  CHECK(let->body.same_as(let->var));
  // And it prints text that parses back to the same module.
  CHECK(structural_equal(parse_module(print(module)), module));
}

TEST_CASE("the statements of TEXT_FORMAT.md parse and print back") {
  const std::string text = "prim @s[%n](%B: Tensor[(%n, %n), float32], %i: int32) {\n"
                           "  let %v = %i + 1;\n"
                           "  alloc %T: Tensor[(16), float32];\n"
                           "  for %j in range(0, %n) {\n"
                           "    %B[%i, %j] = 0f;\n"
                           "  }\n"
                           "  for %j_1 in parallel(0, %n) {\n"
                           "    %T[%j_1] = 1f;\n"
                           "  }\n"
                           "  for %j_2 in vectorized(0, 4) {\n"
                           "    %T[%j_2] = 2f;\n"
                           "  }\n"
                           "  for %j_3 in unroll(0, 2) {\n"
                           "    %T[%j_3] = 3f;\n"
                           "  }\n"
                           "  if (%i < %v) {\n"
                           "    %B[%i, %v] = 0f;\n"
                           "  }\n"
                           "  if (%i < %v) {\n"
                           "    %B[%i, %v] = 0f;\n"
                           "  } else {\n"
                           "    %B[%v, %i] = 1f;\n"
                           "  }\n"
                           "}\n";
  const IRModule module = parse_canonical(text);
  const auto* prim = function_of<PrimFuncNode>(module, "s");
  REQUIRE(prim != nullptr);
  REQUIRE(prim->body->seq.size() == 8);
  CHECK(prim->body->seq[0].is<BindNode>());
  CHECK(prim->body->seq[1].is<AllocateNode>());
  CHECK(prim->body->seq[3].as<ForNode>()->kind == ForKind::parallel);
  CHECK(prim->body->seq[4].as<ForNode>()->kind == ForKind::vectorized);
  CHECK(prim->body->seq[5].as<ForNode>()->kind == ForKind::unroll);
  CHECK_FALSE(prim->body->seq[6].as<IfThenElseNode>()->else_case.defined());
  CHECK(prim->body->seq[7].as<IfThenElseNode>()->else_case.defined());
}

TEST_CASE("the tensor-level expressions of TEXT_FORMAT.md parse with C precedence") {
  for (const char* text : {"%A[%i, %j]",
                           "-%a",
                           "!%c",
                           "%a + %b",
                           "%a - %b",
                           "%a * %b",
                           "%a / %b",
                           "%i % 16",
                           "%a < %b",
                           "%a <= %b",
                           "%a > %b",
                           "%a >= %b",
                           "%a == %b",
                           "%a != %b",
                           "%c && %d",
                           "%c || %d",
                           "min(%a, %b)",
                           "max(%a, %b)",
                           "select(%c, %a, %b)",
                           "cast<float32>(%a)",
                           "(%a + %b) * %c",
                           "%a + %b * %c",
                           "%a - %b - %c",
                           "%a - (%b - %c)",
                           "%a < %b == %p",
                           "%a < (%b == %c)",
                           "%p && %q || %r",
                           "%p && (%q || %r)",
                           "- -%a",
                           "- 3",
                           "- -3",
                           "- 2.5f",
                           "%a * -3",
                           "%a - -3",
                           "!(%a < %b)",
                           "!!%p",
                           "!-%a",
                           "min(%a + 1, max(%b, %c)) * 2",
                           "cast<float32>(%a + 1) * %A[%a * 2 + 1]",
                           "-%A[%a]"}) {
    CAPTURE(text);
    CHECK(print(parse_prim_expr(text)) == text);
  }
  auto a = Var::make("a", DataType::int32());
  auto b = Var::make("b", DataType::int32());
  auto c = Var::make("c", DataType::int32());
  CHECK(structural_equal(parse_prim_expr("%a - %b - %c", {a, b, c}), (a - b) - c));
  CHECK(structural_equal(parse_prim_expr("%a + %b * %c", {a, b, c}), a + b * c));
  CHECK(structural_equal(parse_prim_expr("-(3)"), PrimExpr(Neg::make(IntImm::make(3)))));
  CHECK(structural_equal(parse_prim_expr("- 3"), PrimExpr(Neg::make(IntImm::make(3)))));
  CHECK(structural_equal(parse_prim_expr("- -3"), PrimExpr(Neg::make(IntImm::make(-3)))));
  CHECK(structural_equal(parse_prim_expr("-(-%a)", {a}), PrimExpr(Neg::make(Neg::make(a)))));
  CHECK(structural_equal(parse_prim_expr("%a - -3", {a}), a - IntImm::make(-3)));
  // A space after `-` makes it a negation, not a sign.
  CHECK(parse_prim_expr("- 3").is<NegNode>());
  // `%` followed by a name character is a variable: the modulo operator needs a space.
  CHECK(parse_prim_expr("%i % 16").is<ModNode>());
}

TEST_CASE("the error example of TEXT_FORMAT.md is reported exactly as shown") {
  const std::string text = "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {\n"
                           "  %0 = add(%x, %y;\n"
                           "  %0\n"
                           "}\n";
  CHECK(error_of(text) == "model.ctir:2:18: error: expected ')' but found ';'\n"
                          "  %0 = add(%x, %y;\n"
                          "                 ^");
  const std::optional<ParseError> error = parse_error_of(text);
  REQUIRE(error);
  CHECK(error->file() == "model.ctir");
  CHECK(error->line() == 2);
  CHECK(error->column() == 18);
  CHECK(error->message() == "expected ')' but found ';'");
  CHECK(error->source_line() == "  %0 = add(%x, %y;");
  const Error& base = *error; // a ctir::Error like every error of ctir
  CHECK(std::string(base.what()).starts_with("model.ctir:2:18"));
}

// ---- what the text means ----------------------------------------------------------------

TEST_CASE("a temporary used twice is one node and a let is a Let node") {
  const Expr e = parse_expr("%0 = add(%x, 1f);\nmultiply(%0, %0)");
  const auto* product = e.as<CallNode>();
  REQUIRE(product != nullptr);
  CHECK(product->args[0].same_as(product->args[1]));
  CHECK(product->args[0].is<CallNode>());
  // Equal text at two places is two nodes.
  const Expr twice_expr = parse_expr("multiply(add(%x, 1f), add(%x, 1f))");
  const auto* twice = twice_expr.as<CallNode>();
  CHECK_FALSE(twice->args[0].same_as(twice->args[1]));
  // Free variables are one variable per name.
  CHECK(twice->args[0].as<CallNode>()->args[0].same_as(twice->args[1].as<CallNode>()->args[0]));
}

TEST_CASE("temporaries are visible in nested blocks and invisible outside them") {
  const std::string text = "def @f(%c: bool, %x: Tensor[(2), float32]) {\n"
                           "  %0 = exp(%x);\n"
                           "  if (%c) {\n"
                           "    %1 = log(%x);\n"
                           "    %2 = sqrt(%1);\n"
                           "    add(%0, %2)\n"
                           "  } else {\n"
                           "    negative(%0)\n"
                           "  }\n"
                           "}\n";
  const IRModule module = parse_canonical(text);
  const auto* branch = function_of<FunctionNode>(module, "f")->body.as<IfNode>();
  REQUIRE(branch != nullptr);
  CHECK(branch->then_branch.as<CallNode>()->args[0].same_as(
      branch->else_branch.as<CallNode>()->args[0]));
  CHECK(error_of("def @f(%c: bool, %x: Tensor[(2), float32]) {\n"
                 "  %0 = if (%c) {\n"
                 "    %1 = log(%x);\n"
                 "    %1\n"
                 "  } else {\n"
                 "    %x\n"
                 "  };\n"
                 "  add(%0, %1)\n"
                 "}\n") ==
        "model.ctir:8:11: error: undefined variable '%1'; did you mean '%0', '%c' or '%x'?\n"
        "  add(%0, %1)\n"
        "          ^");
}

TEST_CASE("a tensor-level temporary names an expression for the rest of its block") {
  const IRModule module = parse_module("prim @f(%A: Tensor[(4), int32]) {\n"
                                       "  for %i in range(0, 4) {\n"
                                       "    %0 = %A[%i] * 2;\n"
                                       "    %1 = %0 + 1;\n"
                                       "    %A[%i] = %1 - %0;\n"
                                       "  }\n"
                                       "}\n");
  const auto* loop = function_of<PrimFuncNode>(module, "f")->body->seq[0].as<ForNode>();
  REQUIRE(loop != nullptr);
  // No statement of its own: the store's operands are the named expressions themselves.
  REQUIRE(loop->body->seq.size() == 1);
  const auto* store = loop->body->seq[0].as<TensorStoreNode>();
  REQUIRE(store != nullptr);
  const auto* difference = store->value.as<SubNode>();
  REQUIRE(difference != nullptr);
  CHECK(difference->a.as<AddNode>()->a.same_as(difference->b));
  CHECK(difference->b.is<MulNode>());
  // Canonical text writes them inline (the printer binds only expressions nested too deeply).
  CHECK(print(module).find("%A[%i] = %A[%i] * 2 + 1 - %A[%i] * 2;") != std::string::npos);
  CHECK(error_of("prim @f(%A: Tensor[(4), int32]) {\n"
                 "  if (%A[0] > 0) {\n"
                 "    %0 = 1;\n"
                 "    %A[0] = %0;\n"
                 "  }\n"
                 "  %A[1] = %0;\n"
                 "}\n")
            .starts_with("model.ctir:6:11: error: undefined variable '%0'"));
}

TEST_CASE("tensor-level temporaries that would print exponentially long text are refused") {
  // Each temporary uses the previous one twice: one node each in the IR, but printed as
  // trees, %k would be written out as 2^k loads.
  std::string text = "prim @f(%A: Tensor[(4), int32]) {\n  %0 = %A[0];\n";
  for (int k = 1; k <= 40; ++k) {
    text += "  %" + std::to_string(k) + " = %" + std::to_string(k - 1) + " + %" +
            std::to_string(k - 1) + ";\n";
  }
  text += "  %A[0] = %40;\n}\n";
  const std::string message = error_of(text);
  CAPTURE(message);
  CHECK(message.starts_with("model.ctir:43:3: error: temporaries are used so often that the "
                            "statements would be written out as more than 1048576 nodes"));
  // A few uses each are fine.
  text = "prim @f(%A: Tensor[(4), int32]) {\n  %0 = %A[0];\n  %1 = %0 * %0;\n"
         "  %A[0] = %1 + %1;\n}\n";
  CHECK(print(parse_module(text)).find("%A[0] = %A[0] * %A[0] + %A[0] * %A[0];") !=
        std::string::npos);
}

TEST_CASE("a block-valued let and a let chain build nested Let nodes") {
  const Expr e = parse_expr("let %z = {\n  let %y = exp(%x);\n  log(%y)\n};\n%z");
  const auto* outer = e.as<LetNode>();
  REQUIRE(outer != nullptr);
  const auto* inner = outer->value.as<LetNode>();
  REQUIRE(inner != nullptr);
  CHECK(inner->body.as<CallNode>()->args[0].same_as(inner->var));
  CHECK(outer->body.same_as(outer->var));
}

TEST_CASE("functions may call functions defined later in the module") {
  const std::string text = "def @main(%x: Tensor[(2), float32]) {\n"
                           "  @helper(%x)\n"
                           "}\n"
                           "\n"
                           "def @helper(%y: Tensor[(2), float32]) {\n"
                           "  exp(%y)\n"
                           "}\n";
  const IRModule module = parse_canonical(text);
  const auto* call_node = function_of<FunctionNode>(module, "main")->body.as<CallNode>();
  REQUIRE(call_node != nullptr);
  // The call names the module's own global.
  CHECK(call_node->op.same_as(module.global_var("helper")));
}

TEST_CASE("shape variables of a prim are defined by its parameters' types") {
  const std::string text =
      "prim @f[%m: int64, %n](%A: Tensor[(%m, %n), float32], %B: Tensor[(%n), float32], %s: "
      "float32) {\n"
      "  alloc %T: Tensor[(%n), float32];\n"
      "  %B[0] = %s;\n"
      "}\n";
  const IRModule module = parse_canonical(text);
  const auto* prim = function_of<PrimFuncNode>(module, "f");
  const std::vector<Var> shape = prim->shape_vars();
  REQUIRE(shape.size() == 2);
  CHECK(shape[0]->ty.as<PrimTypeNode>()->dtype == DataType::int64());
  CHECK(shape[1]->ty.as<PrimTypeNode>()->dtype == DataType::int32());
  // A parameter that is also a shape variable is that variable.
  const IRModule both = parse_module(
      "prim @g[%n](%n: int32, %A: Tensor[(%n), float32]) {\n  %A[0] = cast<float32>(%n);\n}\n");
  const auto* g = function_of<PrimFuncNode>(both, "g");
  CHECK(g->params[0].same_as(g->params[1]->ty.as<TensorTypeNode>()->shape[0]));
  CHECK(print(both) ==
        "prim @g[%n](%n: int32, %A: Tensor[(%n), float32]) {\n  %A[0] = cast<float32>(%n);\n}\n");
}

TEST_CASE("a graph-level parameter type defines the dimension variables it mentions") {
  const std::string text = "def @f(%x: Tensor[(%n), float32]) -> Tensor[(%n * 2), float32] {\n"
                           "  concatenate(%x, %x)\n"
                           "}\n";
  const IRModule module = parse_canonical(text);
  const auto* f = function_of<FunctionNode>(module, "f");
  CHECK(f->ret_type.as<TensorTypeNode>()->shape[0].as<MulNode>()->a.same_as(
      f->params[0]->ty.as<TensorTypeNode>()->shape[0]));
}

TEST_CASE("loop and let variables take the dtypes of their values") {
  const IRModule module = parse_module("prim @f(%A: Tensor[(8), int64]) {\n"
                                       "  for %i in range(0i64, 8i64) {\n"
                                       "    let %v = %A[%i] * 2i64;\n"
                                       "    let %w: int32 = cast<int32>(%v);\n"
                                       "    let %b = %w < 3;\n"
                                       "  }\n"
                                       "}\n");
  const auto* loop = function_of<PrimFuncNode>(module, "f")->body->seq[0].as<ForNode>();
  REQUIRE(loop != nullptr);
  CHECK(loop->var->ty.as<PrimTypeNode>()->dtype == DataType::int64());
  CHECK(loop->body->seq[0].as<BindNode>()->var->ty.as<PrimTypeNode>()->dtype == DataType::int64());
  CHECK(loop->body->seq[1].as<BindNode>()->var->ty.as<PrimTypeNode>()->dtype == DataType::int32());
  CHECK(loop->body->seq[2].as<BindNode>()->var->ty.as<PrimTypeNode>()->dtype ==
        DataType::boolean());
}

TEST_CASE("literals keep their dtype, value and float precision") {
  CHECK(parse_prim_expr("255u8").as<IntImmNode>()->value == 255);
  CHECK(parse_prim_expr("-3i16").as<IntImmNode>()->dtype == DataType::int16());
  CHECK(parse_prim_expr("-9223372036854775808i64").as<IntImmNode>()->value ==
        std::numeric_limits<std::int64_t>::min());
  CHECK(parse_prim_expr("2147483647").as<IntImmNode>()->value == 2147483647);
  // A float32 literal is read as a float, not as a double narrowed.
  CHECK(parse_prim_expr("0.1f").as<FloatImmNode>()->value == static_cast<double>(0.1F));
  CHECK(parse_prim_expr("0.1f64").as<FloatImmNode>()->value == 0.1);
  CHECK(parse_prim_expr("1e-45f").as<FloatImmNode>()->value ==
        static_cast<double>(std::numeric_limits<float>::denorm_min()));
  CHECK(std::signbit(parse_prim_expr("-0f").as<FloatImmNode>()->value));
  CHECK(parse_prim_expr("-inff").as<FloatImmNode>()->value ==
        -std::numeric_limits<double>::infinity());
  // float16 literals hold their float16 value.
  CHECK(parse_prim_expr("0.1f16").as<FloatImmNode>()->value == detail::round_to_float16(0.1));
  CHECK(print(parse_prim_expr("6.55e+04f16")) == "6.55e+04f16");
  for (const char* text :
       {"3i8", "3u8", "-3i16", "255u8", "0.5f16", "0.1f16", "1e+300f64", "-0f", "nanf64", "-inff16",
        "const([1u8, 2u8, 255u8])", "const([true, false])", "const([[-1i64, 7i64]])",
        "const(2.5f64)", "const([], Tensor[(0, 3), float32])", "const([[[1f, 2f]], [[3f, 4f]]])"}) {
    CAPTURE(text);
    CHECK(print(parse_expr(text)) == text);
  }
}

TEST_CASE("attributes of calls and functions keep their kinds") {
  const Expr e = parse_expr("concatenate(%x, %y, axis=-1)");
  CHECK(e.as<CallNode>()->attrs.get<std::int64_t>("axis") == -1);
  const IRModule module = parse_module(
      "prim @p(%A: Tensor[(4), float32]) attributes {a = 0.5f64, b = [1, -2], global_symbol = "
      "\"p\\n\\x01\", tir.noalias = true, z = -7} {\n"
      "  %A[0] = 0f;\n"
      "}\n");
  const Attrs& attrs = module.lookup("p")->attrs;
  CHECK(attrs.get<double>("a") == 0.5);
  CHECK(attrs.get<std::vector<std::int64_t>>("b") == std::vector<std::int64_t>{1, -2});
  CHECK(attrs.get<std::string>("global_symbol") == std::string("p\n\x01"));
  CHECK(attrs.get<bool>("tir.noalias") == true);
  CHECK(attrs.get<std::int64_t>("z") == -7);
  // Attributes stay as written: a default is not filled in.
  CHECK_FALSE(parse_expr("sum(%x)").as<CallNode>()->attrs.contains("keepdims"));
  CHECK(print(parse_expr("reshape(%x, newshape=[3, 2])")) == "reshape(%x, newshape=[3, 2])");
  CHECK(print(parse_expr("zeros(shape=[])")) == "zeros(shape=[])");
}

TEST_CASE("comments and whitespace are free") {
  const std::string text = "# a model\n"
                           "def @main(%x: Tensor[(2), float32]) # the entry\n"
                           "{ exp( %x ) # result\n"
                           "}";
  CHECK(reprint(text) == "def @main(%x: Tensor[(2), float32]) {\n  exp(%x)\n}\n");
  CHECK(parse_module("").empty());
  CHECK(parse_module("  # nothing\n\n").empty());
}

// ---- parse_expr, parse_prim_expr, parse_type --------------------------------------------

TEST_CASE("parse_expr declares free variables or resolves them from a given scope") {
  auto x = Var::make("x", tensor_type({2}, DataType::float32()));
  const Expr e = parse_expr("add(%x, %x)", {x});
  CHECK(e.as<CallNode>()->args[0].same_as(x));
  CHECK(structural_equal(e, Expr(call("add", {x, x}))));
  CHECK_THROWS_WITH_AS(parse_expr("add(%x, %y)", {x}),
                       "<input>:1:9: error: undefined variable '%y'; did you mean '%x'?\n"
                       "add(%x, %y)\n"
                       "        ^",
                       ParseError);
  // Declared free variables are untyped.
  const Expr free = parse_expr("exp(%a)");
  const auto* a = free.as<CallNode>()->args[0].as<VarNode>();
  REQUIRE(a != nullptr);
  CHECK(a->name == "a");
  CHECK_FALSE(a->ty.defined());
  // Scalar arithmetic in graph-level code is tensor-level syntax.
  CHECK(print(parse_expr("add(%x, %n + 1)")) == "add(%x, %n + 1)");
  CHECK_THROWS_AS(parse_expr("%x", {x, Var::make("x")}), Error);
}

TEST_CASE("parse_prim_expr and parse_type reject graph-level syntax") {
  CHECK_THROWS_WITH_AS(parse_prim_expr("exp(%x)"),
                       "<input>:1:1: error: expected a scalar expression but found 'exp', an "
                       "operator on whole tensors (operators are called in graph-level "
                       "functions, 'def'; tensor-level code computes element by element, as in "
                       "'%A[%i] * 2f')\n"
                       "exp(%x)\n"
                       "^",
                       ParseError);
  CHECK_THROWS_WITH_AS(parse_type("Tensor[(2), float33]"),
                       doctest::Contains("expected a dtype (bool, int8, int16, int32, int64, "
                                         "uint8, float16, float32 or float64) but found "
                                         "'float33'"),
                       ParseError);
  auto n = Var::make("n", DataType::int32());
  const Type t = parse_type("Tensor[(%n, 2), float32]", {n});
  CHECK(t.as<TensorTypeNode>()->shape[0].same_as(n));
}

// ---- spans ------------------------------------------------------------------------------

TEST_CASE("parsed nodes carry the file, line and column they come from") {
  const IRModule module =
      parse_module(std::string(main_example) + "\n" + add_one_example, "model.ctir");
  const auto* main = function_of<FunctionNode>(module, "main");
  CHECK(main->span.line == 1);
  CHECK(main->span.column == 1);
  CHECK(main->span.end_line == 5);
  CHECK(main->span.end_column == 2);
  REQUIRE(main->span.file);
  CHECK(*main->span.file == "model.ctir");
  CHECK(main->span.str() == "model.ctir:1:1");

  const auto* let = main->body.as<LetNode>();
  CHECK(let->span.line == 3);
  CHECK(let->span.column == 3);
  CHECK(let->span.end_line == 4);
  const auto* product = let->value.as<CallNode>();
  CHECK(product->span.line == 3);
  CHECK(product->span.column == 37);
  CHECK(product->span.end_column == 53); // `multiply(%0, 2f)` is 16 characters
  const auto* sum = product->args[0].as<CallNode>();
  CHECK(sum->span.line == 2); // the temporary's expression, at its binding
  CHECK(sum->span.column == 8);
  CHECK(product->args[1]->span.column == 50);
  CHECK(main->params[1]->span.column == 40); // a variable at its definition

  const auto* prim = function_of<PrimFuncNode>(module, "add_one");
  CHECK(prim->span.line == 7);
  const auto* loop = prim->body->seq[0].as<ForNode>();
  CHECK(loop->span.line == 8);
  CHECK(loop->span.column == 3);
  CHECK(loop->span.end_line == 10);
  CHECK(loop->span.end_column == 4);
  const auto* store = loop->body->seq[0].as<TensorStoreNode>();
  CHECK(store->span.line == 9);
  CHECK(store->span.column == 5);
  CHECK(store->span.end_column == 26); // includes the `;`
  CHECK(store->value->span.column == 14);
  CHECK(store->value.as<AddNode>()->b->span.column == 23);
  CHECK(loop->var->span.column == 7);
}

TEST_CASE("spans point into the line of each node for a later error report") {
  const std::string text = "def @f(%x: Tensor[(2), float32]) {\n"
                           "  %0 = exp(%x);\n"
                           "  add(%0,\n"
                           "      (%0, %x).1)\n"
                           "}\n";
  const IRModule module = parse_module(text, "f.ctir");
  const auto* sum = function_of<FunctionNode>(module, "f")->body.as<CallNode>();
  const Span& span = sum->args[1]->span;
  CHECK(span.line == 4);
  CHECK(span.column == 7);
  CHECK(span.end_column == 17);
  CHECK(sum->span.line == 3);
  CHECK(sum->span.end_line == 4);
}

// ---- errors -----------------------------------------------------------------------------

TEST_CASE("every invalid file in test/data/parser/invalid reports its expected error") {
  const std::filesystem::path dir = test_data_dir() / "parser" / "invalid";
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".ctir") {
      continue;
    }
    CAPTURE(entry.path().filename().string());
    std::filesystem::path expected_path = entry.path();
    expected_path.replace_extension(".error");
    std::string expected = read_test_file(expected_path);
    while (!expected.empty() && expected.back() == '\n') {
      expected.pop_back();
    }
    CHECK(error_of(read_test_file(entry.path()), entry.path().filename().string()) == expected);
    ++checked;
  }
  CHECK(checked >= 15);
}

TEST_CASE("syntax errors say what was expected and what was found") {
  CHECK(error_of("def @f(%x) {\n  %x\n") == "model.ctir:2:5: error: expected '}' but found end "
                                            "of input\n"
                                            "  %x\n"
                                            "    ^");
  CHECK(error_of("func @f() {}") == "model.ctir:1:1: error: expected 'def' or 'prim' but found "
                                    "'func'\n"
                                    "func @f() {}\n"
                                    "^");
  CHECK(error_of("def @f(%x) {\n  %x &\n}") ==
        "model.ctir:2:6: error: unexpected character '&' (the logical and is '&&')\n"
        "  %x &\n"
        "     ^");
  CHECK(error_of("def @f(%x) {\n\tadd(%x, \"s)\n}") == "model.ctir:2:10: error: unterminated "
                                                       "string: the closing '\"' is missing (a "
                                                       "string ends on the line where it "
                                                       "starts)\n"
                                                       "\tadd(%x, \"s)\n"
                                                       "\t        ^");
  CHECK(error_of("def @f(%0x) {\n  %0x\n}") ==
        "model.ctir:1:8: error: invalid name '%0x': a name is [A-Za-z_][A-Za-z0-9_]* or digits "
        "only\n"
        "def @f(%0x) {\n"
        "       ^");
  CHECK(error_of("prim @f(%A: Tensor[(4), float32]) {\n  %A[0] = 1.5;\n}") ==
        "model.ctir:2:11: error: the literal '1.5' has a fraction or an exponent, so it needs a "
        "float suffix (f, f16 or f64)\n"
        "  %A[0] = 1.5;\n"
        "          ^");
  CHECK(error_of("prim @f(%A: Tensor[(4), int8]) {\n  %A[0] = 300i8;\n}") ==
        "model.ctir:2:11: error: the literal '300i8' is out of range for int8\n"
        "  %A[0] = 300i8;\n"
        "          ^");
  // An int32 literal too large for int32 but not for int64 says how to write the int64.
  CHECK(error_of("prim @f(%A: Tensor[(4), int64]) {\n  %A[0] = -2147483649;\n}")
            .starts_with("model.ctir:2:11: error: the literal '-2147483649' is out of range for "
                         "int32 (an int64 literal takes the suffix i64: '-2147483649i64')\n"));
  CHECK(error_of("prim @f(%A: Tensor[(4), int64]) {\n  %A[0] = 9223372036854775808;\n}")
            .starts_with("model.ctir:2:11: error: the literal '9223372036854775808' is out of "
                         "range for int32\n"));
  CHECK(error_of("def @f() {\n  const([[1f], [2f, 3f]])\n}")
            .starts_with("model.ctir:2:23: error: the rows of a constant must have equal "
                         "lengths, but this row has 2 elements and the first has 1\n"));
}

TEST_CASE("undefined names, unknown operators and duplicates are errors at their use") {
  CHECK(error_of("def @main(%x: Tensor[(2), float32]) {\n  ad(%x, %x)\n}\n") ==
        "model.ctir:2:3: error: unknown operator 'ad'; did you mean 'add'?\n"
        "  ad(%x, %x)\n"
        "  ^");
  CHECK(error_of("def @main(%x: Tensor[(2), float32]) {\n  @mian(%x)\n}\n\ndef @main2() {\n"
                 "  @main(1f)\n}\n") ==
        "model.ctir:2:3: error: undefined global '@mian'; did you mean '@main'?\n"
        "  @mian(%x)\n"
        "  ^");
  CHECK(error_of("def @f(%x) {\n  %x\n}\n\ndef @f(%y) {\n  %y\n}\n") ==
        "model.ctir:5:5: error: '@f' is already defined (at 1:5)\n"
        "def @f(%y) {\n"
        "    ^");
  CHECK(error_of("def @f(%x, %x) {\n  %x\n}\n") ==
        "model.ctir:1:12: error: '%x' is already defined in this scope (at 1:8)\n"
        "def @f(%x, %x) {\n"
        "           ^");
  CHECK(error_of("def @f(%x) {\n  let %y = %x;\n  let %y = %x;\n  %y\n}\n") ==
        "model.ctir:3:7: error: '%y' is already defined in this scope (at 2:7)\n"
        "  let %y = %x;\n"
        "      ^");
  CHECK(error_of("prim @f(%A: Tensor[(4), float32]) {\n  %B[0] = 1f;\n}\n") ==
        "model.ctir:2:3: error: undefined variable '%B'; did you mean '%A'?\n"
        "  %B[0] = 1f;\n"
        "  ^");
  CHECK(error_of("def @main(%x: Tensor[(4), float32]) {\n  call_dps @main(%x) -> Tensor[(4), "
                 "float32]\n}\n") ==
        "model.ctir:2:12: error: call_dps calls a tensor-level function, but '@main' is a "
        "graph-level function (def): call it directly, as in '@main(...)'\n"
        "  call_dps @main(%x) -> Tensor[(4), float32]\n"
        "           ^");
}

TEST_CASE("operator calls are checked against the registry's arity and attribute schema") {
  const std::string head = "def @f(%x: Tensor[(2, 3), float32]) {\n  ";
  CHECK(error_of(head + "reshape(%x, newshap=[3, 2])\n}\n") ==
        "model.ctir:2:15: error: operator 'reshape' has no attribute 'newshap'; did you mean "
        "'newshape'? (its attributes: newshape)\n"
        "  reshape(%x, newshap=[3, 2])\n"
        "              ^");
  CHECK(error_of(head + "reshape(%x, newshape=3)\n}\n") ==
        "model.ctir:2:15: error: attribute 'newshape' of operator 'reshape' must be an int list, "
        "not an int (3); write [3] for a list of one\n"
        "  reshape(%x, newshape=3)\n"
        "              ^");
  CHECK(error_of(head + "reshape(%x)\n}\n") ==
        "model.ctir:2:3: error: operator 'reshape' requires the attribute 'newshape' (an int "
        "list: the output shape; one entry may be -1, inferred from the element count)\n"
        "  reshape(%x)\n"
        "  ^");
  CHECK(error_of(head + "add(%x)\n}\n") ==
        "model.ctir:2:3: error: operator 'add' takes 2 inputs, but 1 was given\n"
        "  add(%x)\n"
        "  ^");
  // Reached through a temporary, an operator is checked the same way (it prints as a
  // direct call).
  CHECK(error_of(head + "%0 = reshape;\n  %0(%x)\n}\n") ==
        "model.ctir:3:3: error: operator 'reshape' requires the attribute 'newshape' (an int "
        "list: the output shape; one entry may be -1, inferred from the element count)\n"
        "  %0(%x)\n"
        "  ^");
  CHECK(reprint(head + "%0 = add;\n  %0(%x, %x)\n}\n") ==
        "def @f(%x: Tensor[(2, 3), float32]) {\n  add(%x, %x)\n}\n");
  CHECK(error_of(head + "reshape(newshape=[6], %x)\n}\n") ==
        "model.ctir:2:25: error: expected an attribute 'key=value' (arguments come before "
        "attributes) but found '%x'\n"
        "  reshape(newshape=[6], %x)\n"
        "                        ^");
}

TEST_CASE("type annotations that cannot match their values are errors") {
  const std::string head = "def @f(%x: Tensor[(2, 3), float32]) {\n";
  CHECK(error_of(head + "  let %v: Tensor[(2), float32] = 2f;\n  %v\n}\n") ==
        "model.ctir:2:11: error: the type annotation Tensor[(2), float32] of '%v' does not match "
        "the type of its value, Tensor[(), float32]\n"
        "  let %v: Tensor[(2), float32] = 2f;\n"
        "          ^");
  CHECK(error_of(head + "  let %v: Tensor[(2, 3), int32] = %x;\n  %v\n}\n") ==
        "model.ctir:2:11: error: the type annotation Tensor[(2, 3), int32] of '%v' does not match "
        "the type of its value, Tensor[(2, 3), float32]\n"
        "  let %v: Tensor[(2, 3), int32] = %x;\n"
        "          ^");
  CHECK(error_of(head + "  let %v: Tensor[(3), float32] = const([1f, 2f]);\n  %v\n}\n")
            .starts_with("model.ctir:2:11: error: the type annotation Tensor[(3), float32]"));
  CHECK(error_of(head + "  let %v: Tuple[Tensor[(2, 3), float32]] = (%x, %x);\n  %v\n}\n")
            .find("does not match the type of its value, Tuple[") != std::string::npos);
  // Through an operator's type relation.
  CHECK(error_of(head + "  let %v: Tensor[(3, 2), float32] = exp(%x);\n  %v\n}\n")
            .find("the type of its value, Tensor[(2, 3), float32]") != std::string::npos);
  // The result type against the body.
  CHECK(error_of("def @f(%x: Tensor[(2, 3), float32]) -> Tensor[(2), float32] {\n  %x\n}\n") ==
        "model.ctir:1:40: error: the result type Tensor[(2), float32] does not match the type of "
        "the body, Tensor[(2, 3), float32]\n"
        "def @f(%x: Tensor[(2, 3), float32]) -> Tensor[(2), float32] {\n"
        "                                       ^");
  // Matching annotations, scalars written either way, and symbolic dims are accepted.
  CHECK(error_of(head + "  let %v: Tensor[(2, 3), float32] = %x;\n"
                        "  let %s: float32 = 2f;\n"
                        "  let %t: Tensor[(), float32] = %s;\n"
                        "  %v\n}\n") == "");
  CHECK(error_of("def @f(%x: Tensor[(%n, 3), float32]) {\n"
                 "  let %u: Tensor[(%n + 0, 3), float32] = %x;\n  %u\n}\n") == "");
  // A shape variable declared with one type and a parameter of that name with another.
  CHECK(error_of("prim @g[%n](%n: int64, %A: Tensor[(%n), float32]) {\n}\n") ==
        "model.ctir:1:17: error: the type annotation int64 of '%n' does not match its type as a "
        "shape variable, int32\n"
        "prim @g[%n](%n: int64, %A: Tensor[(%n), float32]) {\n"
        "                ^");
}

TEST_CASE("the parts of loads, min, max, select, cast and tuples are errors where they start") {
  // Each form checks an item as it ends, at the item's first token.
  const std::string def = "def @main(%x: Tensor[(4), float32], %n: int32) {\n  %t = (%x, %x);\n  ";
  CHECK(error_of(def + "add(%x, min(%n, %t))\n}\n")
            .starts_with("model.ctir:3:19: error: expected a scalar expression, but this is a "
                         "tuple"));
  CHECK(error_of(def + "add(%x, select(%t, 1f, 2f))\n}\n")
            .starts_with("model.ctir:3:18: error: expected a scalar expression, but this is a "
                         "tuple"));
  CHECK(error_of(def + "add(%x, cast<float32>(%t))\n}\n")
            .starts_with("model.ctir:3:25: error: expected a scalar expression, but this is a "
                         "tuple"));
  CHECK(error_of(def + "add(%x, %x[%t])\n}\n")
            .starts_with("model.ctir:3:14: error: expected a scalar expression, but this is a "
                         "tuple"));
  CHECK(error_of(def + "add(%x, %x[%n, %t])\n}\n")
            .starts_with("model.ctir:3:18: error: expected a scalar expression, but this is a "
                         "tuple"));
  CHECK(error_of(def + "add(%x, max(%n + %t.0, 1))\n}\n")
            .starts_with("model.ctir:3:20: error: the operands of '+' must be scalar expressions, "
                         "but this is a tuple projection"));
  CHECK(error_of(def + "%t.0[%n]\n}\n")
            .starts_with("model.ctir:3:7: error: a tuple projection cannot be indexed"));
  // A form closes with its own closer, after as many items as it takes.
  CHECK(error_of(def + "min(%n, %n, %n)\n}\n")
            .starts_with("model.ctir:3:13: error: expected ')' but found ','"));
  CHECK(error_of(def + "select(%n < 1, %n)\n}\n")
            .starts_with("model.ctir:3:20: error: expected ',' but found ')'"));
  CHECK(error_of(def + "%x[%n, %n)\n}\n")
            .starts_with("model.ctir:3:12: error: expected ']' but found ')'"));
  CHECK(error_of(def + "((%x, %x)\n}\n")
            .starts_with("model.ctir:4:1: error: expected ')' but found '}'"));
  // Prefixes apply to what follows them whole, loads and projections included.
  CHECK(print(parse_prim_expr("-%A[%i] * !%p[0]")) == "-%A[%i] * !%p[0]");
  CHECK(print(parse_expr("(%t.0, (%x,), ())")) == "%0 = (%x,);\n%1 = ();\n(%t.0, %0, %1)");
}

TEST_CASE("operators, conditions and dimensions whose types the parser knows are checked") {
  // Each is an error at the offending operand, with the expected and the found type.
  CHECK(error_of("prim @f(%P: Tensor[(4), bool]) {\n  %P[0] = !(-false);\n}\n")
            .starts_with("model.ctir:2:13: error: cannot apply '-' to a bool"));
  CHECK(error_of("prim @f(%P: Tensor[(4), bool], %n: int64) {\n  %P[0] = true || %n;\n}\n")
            .starts_with("model.ctir:2:19: error: expected a bool operand of '||', found int64"));
  CHECK(error_of("prim @f(%P: Tensor[(4), bool]) {\n  for %i in range(0, 4) {\n"
                 "    %P[%i] = !%i;\n  }\n}\n")
            .starts_with("model.ctir:3:15: error: expected a bool operand of '!', found int32"));
  CHECK(error_of("prim @f(%P: Tensor[(4), bool]) {\n  %P[0] = !!-2.5f;\n}\n")
            .starts_with("model.ctir:2:13: error: expected a bool operand of '!', found float32"));
  CHECK(error_of("prim @f(%A: Tensor[(4), float32], %n: int64) {\n"
                 "  %A[0] = select(%n + 1i64, 1f, 0f);\n}\n")
            .starts_with("model.ctir:2:18: error: expected a bool condition of 'select', found "
                         "int64"));
  CHECK(error_of("prim @f(%A: Tensor[(4), float32]) {\n  if (%A[0]) {\n  }\n}\n")
            .starts_with("model.ctir:2:7: error: expected a bool condition, found float32"));
  CHECK(error_of("prim @f[%n: bool](%A: Tensor[(%n), float32]) {\n}\n")
            .starts_with("model.ctir:1:13: error: expected an integer type for shape variable "
                         "'%n', found bool"));
  CHECK(error_of("def @main(%x: Tensor[(2.5f), float32]) {\n  %x\n}\n")
            .starts_with("model.ctir:1:23: error: expected a tensor dimension of an integer type, "
                         "found float32"));
  // What is well typed, or not known to the parser (free variables), is accepted.
  CHECK(error_of("prim @f[%n: int64](%A: Tensor[(%n, 2), float32], %P: Tensor[(4), bool]) {\n"
                 "  if (%A[0] > 0f && !%P[1]) {\n    %A[0] = select(!!%P[2], - -%A[1], 0f);\n"
                 "  }\n}\n") == "");
  CHECK_NOTHROW(parse_prim_expr("%a && -%b"));
  CHECK_NOTHROW(parse_prim_expr("select(!%a, %b, 1)"));
  CHECK_NOTHROW(parse_type("Tensor[(%n), float32]"));
}

TEST_CASE("the shape variable list of a prim must match the parameters") {
  CHECK(error_of("prim @f(%A: Tensor[(%n), float32]) {\n}\n") ==
        "model.ctir:1:21: error: undefined variable '%n' (a tensor-level function lists its shape "
        "variables after its name: prim @f[%n](...))\n"
        "prim @f(%A: Tensor[(%n), float32]) {\n"
        "                    ^");
  CHECK(error_of("prim @f[%n, %k](%A: Tensor[(%n), float32]) {\n}\n") ==
        "model.ctir:1:13: error: shape variable '%k' is not used by any parameter's type: "
        "remove it from the list, or use it as a dimension of a parameter\n"
        "prim @f[%n, %k](%A: Tensor[(%n), float32]) {\n"
        "            ^");
  // A variable used only inside a dimension expression is used, but no argument's shape
  // gives it a value: its scalar parameter must.
  CHECK(error_of("prim @f[%n, %m](%A: Tensor[(%n + %m), float32], %B: Tensor[(%n), float32]) "
                 "{\n}\n")
            .starts_with("model.ctir:1:13: error: shape variable '%m' is used only inside "
                         "dimension expressions, which cannot define it"));
  CHECK(reprint("prim @f[%n](%n: int32, %A: Tensor[(%n * 2), float32]) {\n}\n") ==
        "prim @f(%n: int32, %A: Tensor[(%n * 2), float32]) {\n}\n");
  CHECK(error_of("prim @f[%n](%n: int32) {\n}\n")
            .starts_with("model.ctir:1:9: error: shape variable '%n' is not used by any "
                         "parameter's type"));
  CHECK(error_of("prim @f(%k: int32, %A: Tensor[(%k), float32]) {\n}\n")
            .starts_with("model.ctir:1:6: error: '%k' sizes a parameter, so it is a shape "
                         "variable: list it after the function name, as in @f[%k]"));
}

TEST_CASE("the error caret follows tabs and multi-byte characters") {
  CHECK(error_of("# é\n\tdef @f(%x) {\n\t\t%x ;\n}") ==
        "model.ctir:3:6: error: expected '}' but found ';'\n"
        "\t\t%x ;\n"
        "\t\t   ^");
  CHECK(error_of("def @f(%x) {\n  add(%x, \"é\", é)\n}") ==
        "model.ctir:2:17: error: unexpected character 'é' (U+00E9): names and operators are "
        "ASCII; other characters may appear only in comments and strings\n"
        "  add(%x, \"é\", é)\n"
        "               ^");
}

TEST_CASE("positions are exact inside strings, at CRLF line ends and far down a long text") {
  // A bad escape is reported at the escape, inside its string token.
  const std::optional<ParseError> escape =
      parse_error_of("prim @p(%A: Tensor[(4), float32]) attributes {\n"
                     "  global_symbol = \"ab\\qc\"} {\n  %A[0] = 0f;\n}\n");
  REQUIRE(escape.has_value());
  CHECK(escape->line() == 2);
  CHECK(escape->column() == 22);
  // A missing `}` goes just past the last line's text, with CRLF line ends too.
  const std::optional<ParseError> crlf = parse_error_of("def @f(%x) {\r\n  %x\r\n");
  REQUIRE(crlf.has_value());
  CHECK(crlf->line() == 2);
  CHECK(crlf->column() == 5);
  // 100,000 lines down: the line and the column of the error, and the span of a node.
  std::string text = "def @f(%x: Tensor[(2), float32]) {\n";
  for (int k = 0; k < 100000; ++k) {
    text += "  %" + std::to_string(k) + " = exp(" +
            (k == 0 ? std::string("%x") : "%" + std::to_string(k - 1)) + ");\n";
  }
  const std::string good = text + "  %99999\n}\n";
  const IRModule module = parse_module(good);
  // The body is the last temporary's call, `exp(%99998)`.
  const Expr& body = function_of<FunctionNode>(module, "f")->body;
  CHECK(body->span.line == 100001);
  CHECK(body->span.column == 12);
  const std::optional<ParseError> far = parse_error_of(text + "  %99999 ;\n}\n");
  REQUIRE(far.has_value());
  CHECK(far->line() == 100002);
  CHECK(far->column() == 10);
}

// ---- input bytes ------------------------------------------------------------------------

TEST_CASE("a byte-order mark at the start is skipped and columns count from after it") {
  const std::string text = "def @f(%x: Tensor[(2), float32]) {\n  exp(%x)\n}\n";
  const IRModule with_mark = parse_module("\xEF\xBB\xBF" + text);
  CHECK(structural_equal(with_mark, parse_module(text)));
  CHECK(function_of<FunctionNode>(with_mark, "f")->params[0]->span.column == 8);
  CHECK(error_of("\xEF\xBB\xBF"
                 "def @f(%x) {\n  %x ;\n}") == "model.ctir:2:6: error: expected '}' but found ';'\n"
                                               "  %x ;\n"
                                               "     ^");
  // An empty file with only the mark is an empty module.
  CHECK(parse_module("\xEF\xBB\xBF").size() == 0);
}

TEST_CASE("a NUL byte is an error at its line and column and does not cut the report short") {
  using namespace std::string_literals;
  const std::string text = "def @f(%x) {\n  %x\0 # after\n}\n"s;
  const std::string expected = "model.ctir:2:5: error: unexpected NUL byte (text holds none: "
                               "is this a binary file?)\n"
                               "  %x<U+0000> # after\n"
                               "    ^";
  const std::optional<ParseError> error = parse_error_of(text);
  REQUIRE(error);
  // The whole report is readable as a C string: no NUL inside it.
  CHECK(std::string(error->what()) == expected);
  CHECK(error->line() == 2);
  CHECK(error->column() == 5);
  // Also inside a string, and at the very end of the input.
  CHECK(error_of("def @f(%x) attributes {note = \"a\0b\"} {\n  %x\n}"s)
            .starts_with("model.ctir:1:33: error: unexpected NUL byte"));
  CHECK(error_of("def @f(%x) {\n  %x\n}\0"s) ==
        "model.ctir:3:2: error: unexpected NUL byte (text holds none: is this a binary file?)\n"
        "}<U+0000>\n"
        " ^");
}

TEST_CASE("bytes that are not UTF-8 are one error at their location, wherever they are") {
  const std::string tail = " (the text format is UTF-8: save the file as UTF-8)";
  // A Latin-1 é in a comment, a stray continuation byte, a truncated sequence at the end,
  // an overlong encoding of '/', an encoded surrogate.
  CHECK(error_of("# caf\xe9\ndef @f(%x) {\n  %x\n}") ==
        "model.ctir:1:6: error: invalid UTF-8 byte '\\xe9'" + tail + "\n# caf<E9>\n     ^");
  CHECK(error_of("def @f(%x) {\n  %x \x80\n}") ==
        "model.ctir:2:6: error: invalid UTF-8 byte '\\x80'" + tail + "\n  %x <80>\n     ^");
  CHECK(error_of("def @f(%x) {\n  %x\n}\xe2\x82") ==
        "model.ctir:3:2: error: invalid UTF-8 byte '\\xe2'" + tail + "\n}<E2><82>\n ^");
  CHECK(error_of("# \xc0\xaf\n").starts_with("model.ctir:1:3: error: invalid UTF-8 byte '\\xc0'"));
  CHECK(error_of("# \xed\xa0\x80\n")
            .starts_with("model.ctir:1:3: error: invalid UTF-8 byte "
                         "'\\xed'"));
  // Valid UTF-8 is fine in comments and strings.
  CHECK_NOTHROW((void)parse_module("# caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"
                                   "def @f(%x) attributes {note = \"\xe2\x82\xac\"} {\n  %x\n}"));
}

// ---- deep nesting -----------------------------------------------------------------------

namespace {
constexpr std::size_t very_deep = 100'000;

void check_too_deep(const std::function<void()>& parse) {
  try {
    parse();
    FAIL("expected a ParseError");
  } catch (const ParseError& error) {
    CHECK(error.message().starts_with("nesting too deep (more than " +
                                      std::to_string(max_nesting_depth) + " levels); "));
    // The message says what to do.
    const bool hint = error.message().ends_with("a function of its own") ||
                      error.message().ends_with(" dimensions");
    CHECK(hint);
  }
}

/// A prim whose body is `open` n times, a store, then `close` n times.
std::string nested_prim(std::string_view open, std::string_view close, std::size_t n) {
  return "prim @f(%B: Tensor[(1), float32]) {\n" + repeat(open, n) + "%B[0] = 1f;\n" +
         repeat(close, n) + "}\n";
}
} // namespace

TEST_CASE("input nested 100,000 levels deep fails cleanly with 'nesting too deep'") {
  const std::size_t n = very_deep;
  SUBCASE("graph-level ifs") {
    check_too_deep(
        [&] { (void)parse_expr(repeat("if (%c) { ", n) + "%x" + repeat(" } else { %x }", n)); });
  }
  SUBCASE("block-valued lets") {
    check_too_deep(
        [&] { (void)parse_expr(repeat("let %v = { ", n) + "%x" + repeat(" }; %v", n)); });
  }
  SUBCASE("closures") {
    check_too_deep([&] { (void)parse_expr(repeat("fn (%a) { ", n) + "%a" + repeat(" }", n)); });
  }
  SUBCASE("calls") {
    check_too_deep([&] { (void)parse_expr(repeat("exp(", n) + "%x" + repeat(")", n)); });
    check_too_deep([&] { (void)parse_expr(repeat("@f(", n) + "%x" + repeat(")", n)); });
  }
  SUBCASE("for loops") {
    check_too_deep([&] { (void)parse_module(nested_prim("for %i in range(0, 1) {\n", "}\n", n)); });
  }
  SUBCASE("tensor-level ifs and blocks") {
    check_too_deep([&] { (void)parse_module(nested_prim("if (true) {\n", "}\n", n)); });
    check_too_deep([&] { (void)parse_module(nested_prim("{\n", "}\n", n)); });
  }
  SUBCASE("constants") {
    check_too_deep(
        [&] { (void)parse_expr("const(" + repeat("[", n) + "1f" + repeat("]", n) + ")"); });
  }
  SUBCASE("unclosed openers") {
    check_too_deep([&] { (void)parse_module("def @f() {\n" + repeat("{", n)); });
    check_too_deep([&] { (void)parse_expr(repeat("fn () { ", n)); });
  }
}

TEST_CASE("nesting past the limit is an error at the first construct past it") {
  // Level k holds the k-th loop (a statement), whose bounds are one level deeper: the
  // bounds of loop 500 are the first thing past the limit.
  const std::string loops = nested_prim("for %i in range(0, 1) {\n", "}\n", max_nesting_depth + 10);
  try {
    (void)parse_module(loops, "loops.ctir");
    FAIL("expected a ParseError");
  } catch (const ParseError& error) {
    CHECK(error.message().starts_with("nesting too deep"));
    CHECK(error.line() == max_nesting_depth + 1);
    CHECK(error.column() == std::string_view("for %i in range(").size() + 1);
    CHECK(std::string(error.what())
              .starts_with("loops.ctir:" + std::to_string(max_nesting_depth + 1) +
                           ":17: error: nesting too deep"));
  }
}

TEST_CASE("scalar expressions, parentheses and tuples nest without limit") {
  // They are read on the parser's own stacks: the printer writes a scalar expression in
  // a type or as a graph-level operand whole, however deep it is.
  const std::size_t n = very_deep;
  CHECK(parse_prim_expr(repeat("(", n) + "1" + repeat(")", n)).is<IntImmNode>());
  CHECK(parse_expr(repeat("(", n) + "%x" + repeat(")", n)).is<VarNode>());
  const std::string right = repeat("%a - (", n - 1) + "%a - %a" + repeat(")", n - 1);
  CHECK(print(parse_prim_expr(right)) == right);
  const std::string calls = repeat("min(1, max(", n) + "%a" + repeat(", 2))", n);
  CHECK(print(parse_prim_expr(calls)) == calls);
  const std::string forms = repeat("select(%p, cast<int32>(%A[", n) + "%a" + repeat("]), 0)", n);
  CHECK(print(parse_prim_expr(forms)) == forms);
  const Expr tuples = parse_expr(repeat("(", n) + "%x" + repeat(",)", n));
  CHECK(tuples.is<TupleNode>());
  CHECK(parse_expr(repeat("(%x, ", n) + "%x" + repeat(")", n)).is<TupleNode>());
  CHECK(parse_type("Tensor[(" + right + "), float32]").is<TensorTypeNode>());
  // An unclosed form is an error at the end of the input, not a crash.
  const std::string unclosed_at = "1:" + std::to_string(7 * n + 1) +
                                  ": error: expected a scalar expression but found end of input";
  CHECK_THROWS_WITH_AS(parse_prim_expr(repeat("min(1, ", n)),
                       doctest::Contains(unclosed_at.c_str()), ParseError);
  CHECK_THROWS_WITH_AS(parse_prim_expr(repeat("(", n) + "1" + repeat(")", n - 1)),
                       doctest::Contains("expected ')' but found end of input"), ParseError);
}

TEST_CASE("nesting just within the limit parses and prints back") {
  const std::size_t n = max_nesting_depth - 2;
  const std::string loops = nested_prim("for %i in range(0, 1) {\n", "}\n", n);
  const IRModule module = parse_module(loops);
  const std::string printed = print(module);
  CHECK(print(parse_module(printed)) == printed);
  const std::string parens = repeat("1 + (", n - 1) + "1 + 1" + repeat(")", n - 1);
  CHECK(print(parse_prim_expr(parens)) == parens);
  CHECK_NOTHROW(parse_expr(repeat("if (%c) { ", n - 1) + "%x" + repeat(" } else { %x }", n - 1)));
}

TEST_CASE("tuple and function types nest without limit") {
  // Type inference makes types as deep as the values they describe, and the printer
  // writes them whole in annotations: the parser reads them back at any depth.
  const std::size_t n = very_deep;
  const std::string tuples = repeat("Tuple[", n) + "int32" + repeat("]", n);
  const Type deep = parse_type(tuples);
  CHECK(print(deep) == tuples);
  const std::string functions = repeat("fn (int32, ", n) + "Tuple[]" + repeat(") -> bool", n);
  CHECK(print(parse_type(functions)) == functions);
  CHECK(print(parse_type("fn () -> fn () -> fn ()")) == "fn () -> fn () -> fn ()");
  // What is not a type is still an error where it starts.
  CHECK_THROWS_WITH_AS(parse_type("Tuple[int32, ]"),
                       doctest::Contains("expected a type but found ']'"), ParseError);
}

TEST_CASE("long runs that do not nest parse at any length") {
  const std::size_t n = very_deep;
  // Prefix operators are gathered in a loop.
  CHECK(parse_prim_expr(repeat("!", n) + "true").is<NotNode>());
  CHECK(parse_prim_expr(repeat("-", n) + "%a").is<NegNode>());
  // A left-associative chain is a loop.
  const PrimExpr sum = parse_prim_expr("%a" + repeat(" + 1", n));
  CHECK(sum.is<AddNode>());
  // A chain of lets and temporaries in one block.
  std::string chain = "def @main(%x: Tensor[(2), float32]) {\n";
  chain += "  %0 = add(%x, 1f);\n";
  for (std::size_t k = 1; k + 1 < n; ++k) {
    chain += "  %" + std::to_string(k) + " = add(%" + std::to_string(k - 1) + ", 1f);\n";
  }
  chain += "  let %y = add(%" + std::to_string(n - 2) + ", 1f);\n  %y\n}\n";
  CHECK(print(parse_module(chain)) == chain);
  // Many statements in a block.
  std::string stores = "prim @f(%B: Tensor[(1), float32]) {\n";
  for (std::size_t k = 0; k < n; ++k) {
    stores += "  %B[0] = 1f;\n";
  }
  stores += "}\n";
  CHECK(print(parse_module(stores)) == stores);
}
