// Tests of EvalError messages: what, where (span or printed node) and in which function.
#include <ctir/eval/error.hpp> // first: the header must compile on its own

#include <ctir/ir/builder.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>

using namespace ctir;
using namespace ctir::eval;

TEST_CASE("an error at a node without a span prints the node and the function") {
  auto i = Var::make("i", DataType::int32());
  const PrimExpr e = i / 0;
  const EvalError error = eval::detail::make_error(e.get(), "integer division by zero", "f");
  CHECK(std::string(error.what()) ==
        "ctir: eval error: integer division by zero in `%i / 0` (in @f)");
  CHECK(error.node().same_as(e));
  CHECK_FALSE(error.span().defined());
}

TEST_CASE("an error at a node with a span starts with file:line:col") {
  auto node = make_object<IntImmNode>();
  node->value = 3;
  node->span.file = std::make_shared<const std::string>("m.ctir");
  node->span.line = 4;
  node->span.column = 7;
  const PrimExpr e = std::move(node).publish();
  const EvalError error = eval::detail::make_error(e.get(), "bad", "");
  CHECK(std::string(error.what()) == "m.ctir:4:7: error: bad in `3`");
  CHECK(error.span().line == 4);
}

TEST_CASE("statements and graph nodes are described in one line") {
  auto A = Var::make("A", tensor_type({4}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  const Stmt store = TensorStore::make(A, {i + 1}, load(A, {i}) * 2.0f);
  CHECK(eval::detail::describe(store.get()) == "`%A[%i + 1] = %A[%i] * 2f`");
  const Stmt loop = For::make(i, 0, 4, store, ForKind::parallel);
  CHECK(eval::detail::describe(loop.get()) == "`for %i in parallel(0, 4)`");
  CHECK(eval::detail::describe(Allocate::make(A).get()) == "`alloc %A: Tensor[(4), float32]`");
  CHECK(eval::detail::describe(call("add", {A, A}).get()) == "the call of operator 'add'");
  CHECK(eval::detail::describe(TupleGetItem::make(Tuple::make({A}), 0).get()) ==
        "the projection .0");
  CHECK(eval::detail::describe(nullptr) == "the inputs");
}

TEST_CASE("long expressions are cut in messages") {
  auto x = Var::make("x", DataType::int32());
  PrimExpr e = x;
  for (int k = 0; k < 100; ++k) {
    e = e + 1;
  }
  const std::string text = eval::detail::describe(e.get());
  CHECK(text.size() <= 90);
  CHECK(text.find("...") != std::string::npos);
}
