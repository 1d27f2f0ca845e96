// Tests of include/ctir/traverse/format_tree.hpp: the node tree drawing of seed 003.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/format_tree.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace ctir;

namespace {
PrimFunc make_add_one() {
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  return PrimFunc::make("add_one", {A, B},
                        For::make(i, 0, n, TensorStore::make(B, {i}, load(A, {i}) + 1.0f)));
}
} // namespace

TEST_CASE("format_tree draws add_one as seed 003 does") {
  CHECK(format_tree(make_add_one()) ==
        "PrimFunc\n"
        "├── params[0]: A = Var(ty=TensorType(shape=[n], dtype=float32))\n"
        "├── params[1]: B = Var(ty=TensorType(shape=[n], dtype=float32))\n"
        "└── body: SeqStmt\n"
        "    └── seq[0]: For(begin=IntImm(value=0), end=n)\n"
        "        ├── var: i = Var(ty=int32)\n"
        "        └── body: SeqStmt\n"
        "            └── seq[0]: TensorStore(dest=B, indices=[i])\n"
        "                └── value: Add\n"
        "                    ├── a: TensorLoad(source=A, indices=[i])\n"
        "                    └── b: FloatImm(value=1.0)\n");
}

TEST_CASE("format_tree shows non-default plain fields and hides default ones") {
  Var i = Var::make("i", DataType::int32());
  Stmt loop =
      For::make(i, IntImm::make(0, DataType::int64()), 4, SeqStmt::make({}), ForKind::parallel);
  CHECK(format_tree(loop) == "For(begin=IntImm(dtype=int64, value=0), end=IntImm(value=4), "
                             "kind=parallel)\n"
                             "├── var: i = Var(ty=int32)\n"
                             "└── body: SeqStmt(seq=[])\n");
}

TEST_CASE("format_tree draws seed 002's mixed module") {
  IRModule mod;
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  mod.add("add_one",
          PrimFunc::make("add_one", {A, B},
                         For::make(i, 0, n, TensorStore::make(B, {i}, load(A, {i}) + 1.0f))));
  Var x = Var::make("x", tensor_type({10}, DataType::float32()));
  mod.add("main", Function::make({x}, CallDps::make(mod.global_var("add_one"), {x},
                                                    tensor_type({10}, DataType::float32()))));
  CHECK(format_tree(mod.node()) ==
        "IRModule(globals=[GlobalVar(name=\"add_one\"), GlobalVar(name=\"main\")])\n"
        "├── functions[0]: PrimFunc\n"
        "│   ├── params[0]: A = Var(ty=TensorType(shape=[n], dtype=float32))\n"
        "│   ├── params[1]: B = Var(ty=TensorType(shape=[n], dtype=float32))\n"
        "│   └── body: SeqStmt\n"
        "│       └── seq[0]: For(begin=IntImm(value=0), end=n)\n"
        "│           ├── var: i = Var(ty=int32)\n"
        "│           └── body: SeqStmt\n"
        "│               └── seq[0]: TensorStore(dest=B, indices=[i])\n"
        "│                   └── value: Add\n"
        "│                       ├── a: TensorLoad(source=A, indices=[i])\n"
        "│                       └── b: FloatImm(value=1.0)\n"
        "└── functions[1]: Function\n"
        "    ├── params[0]: x = Var(ty=TensorType(shape=[IntImm(value=10)], dtype=float32))\n"
        "    └── body: CallDps(args=[x], out_type=TensorType(shape=[IntImm(value=10)], "
        "dtype=float32))\n"
        "        └── func: GlobalVar(name=\"add_one\")\n");
}

TEST_CASE("format_tree of a null reference says so") { CHECK(format_tree(Stmt()) == "null\n"); }

TEST_CASE("format_tree draws a shared call once and refers to it afterwards") {
  const Var x = Var::make("x");
  const Call product = Call::make(Op::make("multiply"), {x, x});
  const Call root = Call::make(Op::make("add"), {product, product});
  CHECK(format_tree(root) == "Call\n"
                             "├── op: Op(name=\"add\")\n"
                             "├── args[0]: #0 = Call(args=[x, x])\n"
                             "│   └── op: Op(name=\"multiply\")\n"
                             "└── args[1]: #0\n");
}

TEST_CASE("format_tree of a DAG with 2^400 paths is linear in its distinct nodes") {
  Expr older = Var::make("a");
  Expr newer = Var::make("b");
  for (int k = 0; k < 400; ++k) {
    Expr next = Call::make(Op::make("add"), {newer, older});
    older = newer;
    newer = next;
  }
  const std::string drawing = format_tree(*newer);
  // Each call, its operands and one reference per further use: a few lines per binding
  // (the expanded tree would take 2^400).
  const auto lines = std::count(drawing.begin(), drawing.end(), '\n');
  CHECK(lines < 4 * 400);
  CHECK(drawing.find("#398 = ") != std::string::npos);
}
