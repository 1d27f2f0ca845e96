// Round trips through the text format: print(parse(text)) == text for canonical text,
// and parse(print(m)) is structurally equal to m, for golden files and random modules.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/text/nesting.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <random_module.hpp>

#include <doctest/doctest.h>
#include <test_data.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

using namespace ctir;
using ctir::testing::read_test_file;
using ctir::testing::test_data_dir;

namespace {

/// The .ctir files of test/data/<sub>, sorted.
std::vector<std::filesystem::path> ctir_files(const std::string& sub) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(test_data_dir() / sub)) {
    if (entry.path().extension() == ".ctir") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Both laws for canonical `text`: it prints back as itself, and printing and parsing
/// again gives a structurally equal module.
void check_round_trip(const std::string& text, const std::string& name) {
  CAPTURE(name);
  const IRModule module = parse_module(text, name);
  const std::string printed = print(module);
  CHECK(printed == text);
  const IRModule again = parse_module(printed, name);
  CHECK_NOTHROW(assert_structural_equal(module, again));
  CHECK(print(again) == printed);
}

} // namespace

TEST_CASE("every golden file of the printer parses and prints back byte for byte") {
  const std::vector<std::filesystem::path> files = ctir_files("printer");
  CHECK(files.size() >= 2);
  for (const auto& path : files) {
    check_round_trip(read_test_file(path), path.filename().string());
  }
}

TEST_CASE("every valid file of the parser's test data parses and prints back byte for byte") {
  const std::vector<std::filesystem::path> files = ctir_files("parser/valid");
  CHECK(files.size() >= 3);
  for (const auto& path : files) {
    // A byte-order mark is skipped by the parser and not printed: the text after it is
    // what prints back.
    std::string text = read_test_file(path);
    if (text.starts_with("\xEF\xBB\xBF")) {
      text.erase(0, 3);
    }
    check_round_trip(text, path.filename().string());
  }
}

TEST_CASE("the golden modules built in C++ survive printing and parsing") {
  // Seed 002's mixed module, as the printer's test builds it.
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto B = Var::make("B", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  auto prim =
      PrimFunc::make("add_one", {A, B},
                     For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f),
                               ForKind::parallel));
  auto x = Var::make("x", tensor_type({10}, DataType::float32()));
  auto dps = CallDps::make(GlobalVar::make("add_one"), {x}, tensor_type({10}, DataType::float32()));
  auto main = Function::make({x}, call("add", {call("exp", {x}), dps}),
                             tensor_type({10}, DataType::float32()));
  IRModule module;
  module.add("main", main);
  module.add("add_one", prim);
  const std::string text = print(module);
  CHECK(text == read_test_file(test_data_dir() / "printer" / "mixed_module.ctir"));
  const IRModule parsed = parse_module(text);
  CHECK_NOTHROW(assert_structural_equal(module, parsed));
}

TEST_CASE("sharing survives the round trip and so does its absence") {
  auto x = Var::make("x", tensor_type({2}, DataType::float32()));
  Expr shared = call("exp", {x});
  Expr again = call("exp", {x});
  auto f =
      Function::make({x}, call("add", {shared, call("multiply", {shared, again})}), {}, {}, "f");
  IRModule module;
  module.add("f", f);
  const IRModule parsed = parse_module(print(module));
  CHECK(structural_equal(module, parsed));
  // Unsharing a node is a structural difference, so the check above has teeth.
  auto unshared = Function::make(
      {x}, call("add", {call("exp", {x}), call("multiply", {call("exp", {x}), again})}), {}, {},
      "f");
  IRModule other;
  other.add("f", unshared);
  CHECK_FALSE(structural_equal(other, parsed));
}

TEST_CASE("random modules round trip: parse(print(m)) equals m and prints the same") {
  constexpr std::uint64_t seeds = 300;
  std::size_t graph_functions = 0;
  std::size_t prim_functions = 0;
  std::size_t total_size = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    testing::RandomModuleGenerator generator(seed);
    const IRModule module = generator.module(1 + static_cast<int>(seed % 5));
    const std::string text = print(module);
    total_size += text.size();
    IRModule parsed;
    try {
      parsed = parse_module(text, "random.ctir");
    } catch (const ParseError& error) {
      FAIL_CHECK(error.what() << "\nin:\n" << text);
      continue;
    }
    try {
      assert_structural_equal(module, parsed);
    } catch (const Error& error) {
      FAIL_CHECK(error.what() << "\nin:\n" << text);
    }
    CHECK(print(parsed) == text);
    graph_functions += module.functions_of<FunctionNode>().size();
    prim_functions += module.functions_of<PrimFuncNode>().size();
  }
  // The generator really produced varied modules of both levels.
  CHECK(graph_functions > seeds);
  CHECK(prim_functions > seeds);
  CHECK(total_size > seeds * 500);
}

TEST_CASE("a random module's text changes when the module changes") {
  // The round trip could pass vacuously if printing lost information: two different
  // seeds must give different text, and the same seed the same text.
  testing::RandomModuleGenerator a(7);
  testing::RandomModuleGenerator b(7);
  testing::RandomModuleGenerator c(8);
  const std::string text_a = print(a.module());
  CHECK(text_a == print(b.module()));
  CHECK(text_a != print(c.module()));
}

TEST_CASE("random function bodies round trip through parse_expr with their parameters") {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    CAPTURE(seed);
    testing::RandomModuleGenerator generator(seed);
    // Parsed once, every variable has the unique name it prints with.
    const IRModule module = parse_module(print(generator.module(3)));
    for (const auto& [global, function] : module.functions_of<FunctionNode>()) {
      const std::string text = print(function->body);
      const Expr body = parse_expr(text, function->params);
      CHECK(print(body) == text);
      CHECK(structural_equal(body, function->body));
    }
  }
}

namespace {

/// Parses `text`, prints it, parses the print: both parses are structurally equal and
/// printing is a fixed point. Returns the first print.
std::string check_reads_back(const std::string& text) {
  const IRModule module = parse_module(text, "deep.ctir");
  const std::string printed = print(module);
  IRModule again;
  try {
    again = parse_module(printed, "printed.ctir");
  } catch (const ParseError& error) {
    FAIL_CHECK(error.what());
    return printed;
  }
  CHECK_NOTHROW(assert_structural_equal(module, again));
  CHECK(print(again) == printed);
  return printed;
}

std::string store_of(const std::string& value) {
  return "prim @f(%A: Tensor[(4), float32], %P: Tensor[(4), bool]) {\n"
         "  for %i in range(0, 4) {\n    " +
         value + ";\n  }\n}\n";
}

} // namespace

TEST_CASE("a store of 498 minus signs prints as a run of prefixes that reads back") {
  std::string minuses;
  for (int k = 0; k < 498; ++k) {
    minuses += "- ";
  }
  const std::string printed = check_reads_back(store_of("%A[%i] = " + minuses + "%A[%i]"));
  CHECK(printed.find("- - -%A[%i];") != std::string::npos);
  CHECK(printed.find("-(") == std::string::npos);
}

TEST_CASE("generated runs of prefixes far past the nesting limit print without nesting") {
  // 100,000 prefixes over a load, over a literal, and `!` over a comparison: the
  // parser reads a run in a loop, and the printer writes it as one.
  std::string minuses;
  std::string bangs;
  for (int k = 0; k < 100000; ++k) {
    minuses += k % 3 == 0 ? "-" : "- ";
    bangs += '!';
  }
  check_reads_back(store_of("%A[%i] = " + minuses + " %A[%i]"));
  check_reads_back(store_of("%A[%i] = " + minuses + " 3f"));
  check_reads_back(store_of("%A[%i] = " + minuses + " -3f"));
  check_reads_back(store_of("%P[%i] = " + bangs + "(%A[%i] < 0f)"));
}

TEST_CASE("generated nesting just under the limit, with runs of prefixes, reads back") {
  // Each level is `%x - - -(...)`: one parenthesis the input needs and the print keeps,
  // and prefixes that nest in the IR but not in the text.
  for (const int levels : {1, 10, 480}) {
    CAPTURE(levels);
    std::string value = "%A[%i]";
    for (int k = 0; k < levels; ++k) {
      value = "%A[%i] - - " + std::string(k % 2 == 0 ? "-" : "- -") + "(" + value + ")";
    }
    check_reads_back(store_of("%A[%i] = " + value));
  }
}

namespace {

/// parse(print(m)) is structurally equal to `m` and prints the same text; returns the
/// text. IR built in C++ may nest deeper than any text the parser reads: the printer
/// must write it so that it reads back.
std::string check_built_round_trip(const IRModule& module) {
  const std::string printed = print(module);
  IRModule again;
  try {
    again = parse_module(printed, "printed.ctir");
  } catch (const ParseError& error) {
    FAIL_CHECK(error.what());
    return printed;
  }
  CHECK(structural_equal(module, again));
  CHECK(print(again) == printed);
  return printed;
}

/// `prim @f(%A: Tensor[(4), float32], %B: Tensor[(4), float32]) { for %i ... { %B[%i] =
/// value(%A[%i]); } }`.
template <class MakeValue>
IRModule store_module(MakeValue&& make_value) {
  const Var A = Var::make("A", TensorType::make({PrimExpr(4)}, DataType::float32()));
  const Var B = Var::make("B", TensorType::make({PrimExpr(4)}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  const PrimExpr value = make_value(load(A, {i}));
  return IRModule{
      PrimFunc::make("f", {A, B}, For::make(i, 0, 4, TensorStore::make(B, {i}, value)))};
}

/// The deepest nesting of parentheses in `text`.
std::size_t max_parentheses(const std::string& text) {
  std::size_t open = 0;
  std::size_t most = 0;
  for (const char c : text) {
    open = c == '(' ? open + 1 : (c == ')' && open > 0 ? open - 1 : open);
    most = std::max(most, open);
  }
  return most;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

} // namespace

TEST_CASE("tensor-level expressions nested far past the parser's limit read back") {
  for (const int depth : {1000, 100000}) {
    CAPTURE(depth);
    SUBCASE("left-nested operators print as one chain, without temporaries") {
      const std::string text = check_built_round_trip(store_module([&](const PrimExpr& x) {
        PrimExpr value = x;
        for (int k = 0; k < depth; ++k) {
          value = k % 2 == 0 ? value - x : value + 1.0f;
        }
        return value;
      }));
      CHECK(text.find("%0 =") == std::string::npos);
      CHECK(max_parentheses(text) == 2); // the signature's `Tensor[(4), ...]`
    }
    SUBCASE("right-nested operators bind a temporary every 64 levels of parentheses") {
      const std::string text = check_built_round_trip(store_module([&](const PrimExpr& x) {
        PrimExpr value = x;
        for (int k = 0; k < depth; ++k) {
          value = k % 3 == 0 ? x - value : (k % 3 == 1 ? x * value : x / -value);
        }
        return value;
      }));
      CHECK(text.find("    %0 = %A[%i] ") != std::string::npos);
      CHECK(max_parentheses(text) <= 66);
      // Two levels in three are parenthesized (`x / -(...)` is not, under a `-`).
      CHECK(count_of(text, " = ") >= static_cast<std::size_t>(depth / 100));
    }
    SUBCASE("nested min, max, select and cast") {
      const std::string text = check_built_round_trip(store_module([&](const PrimExpr& x) {
        PrimExpr value = x;
        for (int k = 0; k < depth; ++k) {
          switch (k % 4) {
          case 0:
            value = min(value, x);
            break;
          case 1:
            value = max(x, value);
            break;
          case 2:
            value = select(lt(x, 0.0f), x, value);
            break;
          default:
            value = cast(DataType::float32(), cast(DataType::int32(), value));
            break;
          }
        }
        return value;
      }));
      CHECK(text.find("%1 = ") != std::string::npos);
      CHECK(max_parentheses(text) <= 66);
    }
  }
}

TEST_CASE("a deep loop bound, let value and if condition bind temporaries before the statement") {
  const Var A = Var::make("A", TensorType::make({PrimExpr(4)}, DataType::int32()));
  const Var i = Var::make("i", DataType::int32());
  const Var v = Var::make("v", DataType::int32());
  PrimExpr deep = 4;
  for (int k = 0; k < 1000; ++k) {
    deep = 1 - deep;
  }
  // A variable used once below the limit and once past it: both uses read back.
  PrimExpr uses = i;
  for (int k = 0; k < 200; ++k) {
    uses = i * (uses + 1);
  }
  const Stmt body = SeqStmt::make(
      {Bind::make(v, deep),
       For::make(i, 0, deep * 0 + 4,
                 SeqStmt::make({IfThenElse::make(
                     lt(uses, v), SeqStmt::make({TensorStore::make(A, {i}, uses)}), Stmt())}))});
  const std::string text = check_built_round_trip(IRModule{PrimFunc::make("g", {A}, body)});
  // Each statement is preceded by the temporaries of its deep parts, inner first.
  const auto line_before = [&](const std::string& line) {
    const std::size_t at = text.find("\n" + line);
    REQUIRE(at != std::string::npos);
    return text.substr(text.rfind('\n', at - 1) + 1, at - text.rfind('\n', at - 1) - 1);
  };
  CHECK(text.find("  %0 = 1 - (1 - (") < text.find("  let %v = "));
  CHECK(line_before("  let %v = 1 - (1 - (").starts_with("  %"));
  CHECK(line_before("  for %i in range(0, (1 - (1 - (").starts_with("  %"));
  CHECK(line_before("    if (%i * (%i * (").starts_with("    %"));
  CHECK(line_before("      %A[%i] = %i * (%i * (").starts_with("      %"));
  CHECK(max_parentheses(text) <= 66);
}

TEST_CASE("graph-level calls and tuples nested 100,000 deep read back") {
  const Var x = Var::make("x", TensorType::make({PrimExpr(2)}, DataType::float32()));
  Expr calls = x;
  Expr tuples = x;
  for (int k = 0; k < 100000; ++k) {
    calls = call(k % 2 == 0 ? "add" : "multiply", {calls, x});
    tuples = Tuple::make({tuples, x});
  }
  const std::string text = check_built_round_trip(
      IRModule{Function::make({x}, Tuple::make({calls, tuples}), {}, {}, "main")});
  CHECK(text.find("%199999 = ") != std::string::npos);
}

namespace {

/// A scalar expression of `n` nested `depth` levels deep in the text: min, a right
/// operand and max in turn.
PrimExpr nested_in_text(const PrimExpr& n, int depth) {
  PrimExpr value = n;
  for (int k = 0; k < depth; ++k) {
    value = k % 3 == 0 ? min(value, n) : (k % 3 == 1 ? n - value : max(n, value));
  }
  return value;
}

} // namespace

TEST_CASE("a deep scalar expression in a type or a graph-level operand reads back") {
  // A type is written whole (no statement precedes a parameter's type to bind parts of
  // it), and so is a scalar operand of a graph-level call: the parser reads scalar
  // expressions at any depth.
  for (const int depth : {1000, 100000}) {
    CAPTURE(depth);
    SUBCASE("in the types of a tensor-level function's parameters and allocations") {
      const Var n = Var::make("n", DataType::int32());
      const Var A =
          Var::make("A", TensorType::make({nested_in_text(n, depth)}, DataType::float32()));
      PrimExpr chain = n;
      for (int k = 0; k < depth; ++k) {
        chain = chain + 1; // `%n + 1 + 1 ...`: a left-nested chain does not nest
      }
      const Var T =
          Var::make("T", TensorType::make({chain, nested_in_text(n, depth)}, DataType::float32()));
      const std::string text = check_built_round_trip(IRModule{PrimFunc::make(
          "f", {n, A},
          SeqStmt::make({Allocate::make(T), TensorStore::make(A, {0}, PrimExpr(1.0f))}))});
      CHECK(max_parentheses(text) > 2 * static_cast<std::size_t>(depth) / 3);
      CHECK(text.find("%0 = ") == std::string::npos);
    }
    SUBCASE("in the types of a graph-level function and as an operand of a call") {
      const Var n = Var::make("n", DataType::int32());
      const Var x = Var::make("x", TensorType::make({n}, DataType::int32()));
      const Var y = Var::make("y", TensorType::make({nested_in_text(n, depth)}, DataType::int32()));
      const Var z = Var::make("z", TensorType::make({nested_in_text(n, depth)}, DataType::int32()));
      const Expr body =
          Let::make(z, y, Tuple::make({call("add", {x, nested_in_text(n, depth)}), z}));
      const std::string text =
          check_built_round_trip(IRModule{Function::make({x, y}, body, {}, {}, "main")});
      CHECK(text.find("  %0 = add(%x, ") != std::string::npos);
      CHECK(max_parentheses(text) > 2 * static_cast<std::size_t>(depth) / 3);
    }
  }
}

namespace {

/// A tensor-level function whose store sits under `depth` nested blocks of `kind` (0:
/// loops, 1: ifs, 2: bare blocks), its value `value_depth` levels deep.
IRModule nested_blocks(int kind, std::size_t depth, int value_depth) {
  const Var n = Var::make("n", DataType::int32());
  const Var A = Var::make("A", TensorType::make({PrimExpr(4)}, DataType::int32()));
  PrimExpr value = 1;
  for (int k = 0; k < value_depth; ++k) {
    value = n - value;
  }
  Stmt body = TensorStore::make(A, {0}, value);
  for (std::size_t k = 0; k < depth; ++k) {
    const SeqStmt block = SeqStmt::make({body});
    body = kind == 0   ? Stmt(For::make(Var::make("i", DataType::int32()), 0, 1, block))
           : kind == 1 ? Stmt(IfThenElse::make(lt(n, 4), block))
                       : Stmt(block);
  }
  return IRModule{PrimFunc::make("f", {n, A}, SeqStmt::make({body}))};
}

/// A graph-level function whose result sits under `depth` nested `kind` (0: ifs in then
/// branches, 1: closures in lets, 2: lets in let values).
IRModule nested_values(int kind, std::size_t depth) {
  const Var x = Var::make("x", TensorType::make({PrimExpr(4)}, DataType::float32()));
  const Var c = Var::make("c", TensorType::make({}, DataType::boolean()));
  Expr body = x;
  for (std::size_t k = 0; k < depth; ++k) {
    const Var v = Var::make(kind == 1 ? "f" : "v");
    body = kind == 0   ? Expr(If::make(c, body, x))
           : kind == 1 ? Expr(Let::make(v, Function::make({}, body), v))
                       : Expr(Let::make(v, body, v));
  }
  return IRModule{Function::make({x, c}, body, {}, {}, "main")};
}

/// `module` prints text that the parser refuses as nested too deeply, at `token` on a
/// line past the first `min_line` lines.
void check_too_deep_at(const IRModule& module, const std::string& token, std::size_t min_line) {
  const std::string text = print(module);
  try {
    (void)parse_module(text, "deep.ctir");
    FAIL("expected a ParseError");
  } catch (const ParseError& error) {
    CHECK(error.message().starts_with("nesting too deep"));
    CHECK(error.line() > min_line);
    const std::string at = error.source_line().substr(error.column() - 1, token.size());
    CHECK(at == token);
  }
}

} // namespace

TEST_CASE(
    "blocks nested to the nesting limit read back, and deeper ones are an error at their place") {
  // The text nests a level per block, a level for a statement and one for an
  // expression however deep it is: a store's 64-deep value under 498 blocks reads back.
  const std::size_t limit = max_nesting_depth;
  for (int kind = 0; kind < 3; ++kind) {
    CAPTURE(kind);
    check_built_round_trip(nested_blocks(kind, limit - 2, 64));
    check_too_deep_at(nested_blocks(kind, limit - 1, 0), "0] = 1;", limit - 1);
    check_too_deep_at(nested_blocks(kind, 100000, 0),
                      kind == 2 ? "{" : (kind == 0 ? "0, 1)" : "%n < 4"), limit);
  }
  // An if's branches are a level below its condition; a closure's body a level below
  // the let that binds it; a let's value, the last level, may be a variable.
  const std::size_t most[] = {limit - 1, limit - 1, limit};
  const std::string past[] = {"%c", "%x", "%x"};
  for (int kind = 0; kind < 3; ++kind) {
    CAPTURE(kind);
    check_built_round_trip(nested_values(kind, most[kind]));
    check_too_deep_at(nested_values(kind, most[kind] + 1), past[kind], limit - 1);
    check_too_deep_at(nested_values(kind, 100000), kind == 0 ? "%c" : (kind == 1 ? "fn" : "{"),
                      limit - 1);
  }
}
