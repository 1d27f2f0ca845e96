// Tests of ctir/ir/module.hpp: IRModule, an ordered copy-on-write map of named functions.
#include <ctir/ir/builder.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/prim_func.hpp>

#include <doctest/doctest.h>
#include <run_in_child.hpp>

#include <iterator>
#include <ranges>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ctir;

namespace {

/// A small graph-level function `fn (%x) { %x }` with a name hint.
Function identity(const std::string& name) {
  const Var x = Var::make("x", tensor_type({2}, DataType::float32()));
  return Function::make({x}, x, {}, {}, name);
}

/// A small tensor-level function with a name hint.
PrimFunc zero_fill(const std::string& name) {
  const Var n = Var::make("n", DataType::int32());
  const Var a = Var::make("A", TensorType::make({n}, DataType::float32()));
  const Var i = Var::make("i", DataType::int32());
  return PrimFunc::make(name, {a}, For::make(i, 0, n, TensorStore::make(a, {i}, 0.0f)));
}

std::vector<std::string> names_of(const IRModule& mod) {
  std::vector<std::string> names;
  for (auto [global, function] : mod) {
    names.push_back(global->name);
  }
  return names;
}

std::string error_message(auto&& f) {
  try {
    f();
  } catch (const Error& error) {
    return error.what();
  }
  return "<no ctir::Error>";
}

bool contains_text(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

} // namespace

TEST_CASE("a new IRModule is empty") {
  const IRModule mod;
  CHECK(mod.empty());
  CHECK(mod.size() == 0);
  CHECK(mod.begin() == mod.end());
  CHECK_FALSE(mod.contains("main"));
  CHECK_FALSE(mod.find("main").defined());
  CHECK_FALSE(mod.global_var("main").defined());
  REQUIRE(mod.node().defined());
  CHECK(mod.node()->dynamic_type_key() == "ir.IRModule");
  CHECK(mod->globals.empty());
}

TEST_CASE("add puts a function under a new name and returns its GlobalVar") {
  IRModule mod;
  const Function f = identity("f");
  const GlobalVar g = mod.add("main", f);
  CHECK(g->name == "main");
  CHECK(mod.size() == 1);
  CHECK(mod.contains("main"));
  CHECK(mod.find("main").same_as(f));
  CHECK(mod.lookup("main").same_as(f));
  CHECK(mod.global_var("main").same_as(g));
  CHECK(mod.global_at(0).same_as(g));
  CHECK(mod.function_at(0).same_as(f));
  // The name in the module, not the function's hint, is what counts.
  CHECK_FALSE(mod.contains("f"));
}

TEST_CASE("add under an existing GlobalVar keeps that very GlobalVar") {
  IRModule mod;
  const GlobalVar g = GlobalVar::make("kernel");
  mod.add(g, zero_fill("k"));
  CHECK(mod.global_var("kernel").same_as(g));
  CHECK(mod.lookup("kernel").is<PrimFuncNode>());
}

TEST_CASE("functions iterate in insertion order, whatever their names") {
  IRModule mod;
  for (const char* name : {"zeta", "alpha", "mu", "beta"}) {
    mod.add(name, identity(name));
  }
  CHECK(names_of(mod) == std::vector<std::string>{"zeta", "alpha", "mu", "beta"});
  std::size_t i = 0;
  for (auto [global, function] : mod) {
    CHECK(global.same_as(mod.global_at(i)));
    CHECK(function.same_as(mod.function_at(i)));
    ++i;
  }
  CHECK(i == 4);
}

TEST_CASE("adding a name that is taken is an error naming the function") {
  IRModule mod;
  const Function first = identity("a");
  mod.add("main", first);
  const std::string message = error_message([&] { mod.add("main", identity("b")); });
  CHECK(contains_text(message, "@main"));
  CHECK_THROWS_AS(mod.add(GlobalVar::make("main"), zero_fill("c")), Error);
  // The failed adds changed nothing.
  CHECK(mod.size() == 1);
  CHECK(mod.lookup("main").same_as(first));
}

TEST_CASE("a null function or an empty name is an error") {
  IRModule mod;
  CHECK_THROWS_AS(mod.add("f", BaseFunc()), Error);
  CHECK(contains_text(error_message([&] { mod.add("f", BaseFunc()); }), "@f"));
  CHECK_THROWS_AS(mod.add("", identity("x")), Error);
  CHECK_THROWS_AS(mod.add(GlobalVar::make(""), identity("x")), Error);
  CHECK_THROWS_AS(mod.update("g", BaseFunc()), Error);
  CHECK_THROWS_AS(mod.update("", identity("x")), Error);
  CHECK(mod.empty());
  // A module built from a list names functions by their hints, which must be there.
  CHECK_THROWS_AS((IRModule{identity("")}), Error);
}

TEST_CASE("a null GlobalVar is an error, not a crash") {
  const auto outcome = ctir_test::run_in_child([] {
    IRModule mod;
    mod.add(GlobalVar(), Function::make({}, IntImm::make(0)));
  });
  CHECK_MESSAGE(outcome.threw_error(), outcome.describe());
}

TEST_CASE("a null function in a module's initializer list is an error, not a crash") {
  const auto outcome = ctir_test::run_in_child([] { IRModule mod{BaseFunc()}; });
  CHECK_MESSAGE(outcome.threw_error(), outcome.describe());
}

TEST_CASE("lookup of a missing name lists the names there are") {
  IRModule mod;
  CHECK(contains_text(error_message([&] { (void)mod.lookup("main"); }), "@main"));
  CHECK(contains_text(error_message([&] { (void)mod.lookup("main"); }), "empty"));
  mod.add("first", identity("a"));
  mod.add("second", zero_fill("b"));
  const std::string message = error_message([&] { (void)mod.lookup("third"); });
  CHECK(contains_text(message, "@third"));
  CHECK(contains_text(message, "@first"));
  CHECK(contains_text(message, "@second"));
  CHECK_THROWS_AS((void)mod.lookup("third"), Error);
  CHECK_FALSE(mod.find("third").defined());
}

TEST_CASE("update replaces a function in place, or adds it when the name is new") {
  IRModule mod;
  mod.add("a", identity("a"));
  const GlobalVar gb = mod.add("b", identity("b"));
  mod.add("c", identity("c"));
  const PrimFunc replacement = zero_fill("b2");
  mod.update("b", replacement);
  CHECK(mod.size() == 3);
  CHECK(names_of(mod) == std::vector<std::string>{"a", "b", "c"});
  CHECK(mod.lookup("b").same_as(replacement));
  CHECK(mod.global_var("b").same_as(gb)); // the name keeps its GlobalVar
  mod.update("d", identity("d"));
  CHECK(names_of(mod) == std::vector<std::string>{"a", "b", "c", "d"});
}

TEST_CASE("update with the function that is already there keeps the same module node") {
  IRModule mod;
  const Function f = identity("f");
  mod.add("f", f);
  const Ref<IRModuleNode> before = mod.node();
  const IRModule copy = mod;
  mod.update("f", f);
  CHECK(mod.node().same_as(before));
  CHECK(mod.same_as(copy)); // nothing was unshared
}

TEST_CASE("update from another module adds and replaces, keeping this module's order") {
  IRModule mod;
  mod.add("a", identity("a"));
  mod.add("b", identity("b"));
  IRModule other;
  const PrimFunc new_b = zero_fill("b");
  const Function new_c = identity("c");
  other.add("c", new_c);
  other.add("b", new_b);
  mod.update(other);
  CHECK(names_of(mod) == std::vector<std::string>{"a", "b", "c"});
  CHECK(mod.lookup("b").same_as(new_b));
  CHECK(mod.lookup("c").same_as(new_c));
  CHECK(other.size() == 2); // the source is untouched
  mod.update(mod);          // updating from itself is a no-op
  CHECK(names_of(mod) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("remove deletes a function and keeps the others in order and findable") {
  IRModule mod;
  for (const char* name : {"a", "b", "c", "d"}) {
    mod.add(name, identity(name));
  }
  const BaseFunc d = mod.lookup("d");
  mod.remove("b");
  CHECK(names_of(mod) == std::vector<std::string>{"a", "c", "d"});
  CHECK_FALSE(mod.contains("b"));
  CHECK(mod.lookup("d").same_as(d)); // positions after the removed one still resolve
  CHECK(mod.global_var("c")->name == "c");
  mod.remove("a");
  mod.remove("d");
  CHECK(names_of(mod) == std::vector<std::string>{"c"});
  mod.add("b", zero_fill("b")); // a removed name can be used again
  CHECK(names_of(mod) == std::vector<std::string>{"c", "b"});
  CHECK(mod.lookup("b").is<PrimFuncNode>());
}

TEST_CASE("removing a missing name is an error naming it") {
  IRModule mod;
  mod.add("a", identity("a"));
  CHECK(contains_text(error_message([&] { mod.remove("nope"); }), "@nope"));
  CHECK(mod.size() == 1);
}

TEST_CASE("a copy shares the module node until one of them is modified") {
  IRModule original;
  const Function f = identity("f");
  original.add("f", f);
  IRModule copy = original;
  CHECK(copy.same_as(original));
  CHECK(copy.node().same_as(original.node()));

  const PrimFunc g = zero_fill("g");
  copy.add("g", g);
  CHECK_FALSE(copy.same_as(original));
  CHECK(original.size() == 1); // the original is unchanged
  CHECK_FALSE(original.contains("g"));
  CHECK(copy.size() == 2);
  // The functions themselves are still shared.
  CHECK(copy.lookup("f").same_as(original.lookup("f")));

  IRModule third = original;
  third.update("f", g);
  CHECK(original.lookup("f").same_as(f));
  CHECK(third.lookup("f").same_as(g));

  IRModule fourth = original;
  fourth.remove("f");
  CHECK(fourth.empty());
  CHECK(original.lookup("f").same_as(f));
}

TEST_CASE("modifying a module that is not shared keeps its node") {
  IRModule mod;
  mod.add("a", identity("a"));
  const IRModuleNode* node = mod.node().get();
  mod.add("b", identity("b"));
  mod.update("a", zero_fill("a"));
  mod.remove("b");
  CHECK(mod.node().get() == node);
}

TEST_CASE("a Ref to the module node held elsewhere sees no later modification") {
  IRModule mod;
  mod.add("a", identity("a"));
  const Ref<IRModuleNode> snapshot = mod.node();
  mod.add("b", identity("b"));
  CHECK(snapshot->globals.size() == 1);
  CHECK(mod.size() == 2);
  CHECK_FALSE(mod.node().same_as(snapshot));
  // The copy has an index of its own: lookups in it resolve.
  CHECK(mod.lookup("b").defined());
  CHECK(IRModule(snapshot).contains("a"));
  CHECK_FALSE(IRModule(snapshot).contains("b"));
}

TEST_CASE("an IRModule wraps a module node, or a fresh one for null") {
  IRModule mod;
  mod.add("a", identity("a"));
  const IRModule wrapped(mod.node());
  CHECK(wrapped.same_as(mod));
  const IRModule from_null{Ref<IRModuleNode>()};
  CHECK(from_null.empty());
  CHECK(from_null.node().defined());
}

TEST_CASE("wrapping a module node built field by field finds its functions") {
  // The name index is derived data that no structural utility sees; a node assembled from
  // its fields (or rebuilt by a generic map) must still resolve names.
  auto node = make_object<IRModuleNode>();
  const PrimFunc kernel = zero_fill("kernel");
  node->globals.push_back(GlobalVar::make("kernel"));
  node->functions.push_back(kernel);
  const IRModule mod(std::move(node).publish());
  CHECK(mod.size() == 1);
  CHECK(mod.contains("kernel"));
  CHECK(mod.find("kernel").same_as(kernel));
}

TEST_CASE("a module built from a list names each function by its hint") {
  const Function f = identity("main");
  const PrimFunc g = zero_fill("kernel");
  const IRModule mod{f, g};
  CHECK(names_of(mod) == std::vector<std::string>{"main", "kernel"});
  CHECK(mod.lookup("kernel").same_as(g));
  CHECK_THROWS_AS((IRModule{f, identity("main")}), Error);
}

TEST_CASE("an IRModule is a range the standard range algorithms accept") {
  CHECK(std::input_iterator<IRModule::iterator>);
  CHECK(std::ranges::input_range<const IRModule>);
}

TEST_CASE("functions_of selects functions by kind, in module order") {
  IRModule mod;
  const Function f1 = identity("f1");
  const PrimFunc p1 = zero_fill("p1");
  const Function f2 = identity("f2");
  const PrimFunc p2 = zero_fill("p2");
  mod.add("f1", f1);
  mod.add("p1", p1);
  mod.add("f2", f2);
  mod.add("p2", p2);

  const auto prims = mod.functions_of<PrimFuncNode>();
  REQUIRE(prims.size() == 2);
  CHECK(prims[0].first->name == "p1");
  CHECK(prims[0].second.same_as(p1));
  CHECK(prims[1].first->name == "p2");
  CHECK(prims[1].second.same_as(p2));

  const auto graphs = mod.functions_of<FunctionNode>();
  REQUIRE(graphs.size() == 2);
  CHECK(graphs[0].second.same_as(f1));
  CHECK(graphs[1].second.same_as(f2));

  CHECK(mod.functions_of<BaseFuncNode>().size() == 4);
  CHECK(IRModule().functions_of<PrimFuncNode>().empty());
}

TEST_CASE("positional access out of range is a ctir::Error") {
  IRModule mod;
  mod.add("a", identity("a"));
  CHECK_THROWS_AS((void)mod.global_at(1), Error);
  CHECK_THROWS_AS((void)mod.function_at(7), Error);
}

TEST_CASE("seed 002's mixed module holds a graph-level @main calling a tensor-level @add_one") {
  // def @main(%x: Tensor[(10), float32]) -> Tensor[(10), float32] {
  //   %1 = call_dps @add_one(%x) -> Tensor[(10), float32];
  //   %1
  // }
  // prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  //   for %i in range(0, %n) { %B[%i] = %A[%i] + 1f; }
  // }
  const auto n = Var::make("n", DataType::int32());
  const auto a = Var::make("A", TensorType::make({n}, DataType::float32()));
  const auto b = Var::make("B", TensorType::make({n}, DataType::float32()));
  const auto i = Var::make("i", DataType::int32());
  const PrimFunc add_one = PrimFunc::make(
      "add_one", {a, b},
      For::make(i, 0, n, TensorStore::make(b, {i}, TensorLoad::make(a, {i}) + 1.0f)));

  const GlobalVar add_one_global = GlobalVar::make("add_one");
  const TensorType ten = tensor_type({10}, DataType::float32());
  const Var x = Var::make("x", ten);
  const CallDps call_add_one = CallDps::make(add_one_global, {x}, ten);
  const Function main_fn = Function::make({x}, call_add_one, ten, {}, "main");

  IRModule mod;
  mod.add("main", main_fn);
  mod.add(add_one_global, add_one);

  CHECK(names_of(mod) == std::vector<std::string>{"main", "add_one"});
  CHECK(mod.lookup("main").is<FunctionNode>());
  CHECK(mod.lookup("add_one").is<PrimFuncNode>());
  REQUIRE(mod.functions_of<FunctionNode>().size() == 1);
  REQUIRE(mod.functions_of<PrimFuncNode>().size() == 1);
  CHECK(mod.functions_of<FunctionNode>()[0].second.same_as(main_fn));
  CHECK(mod.functions_of<PrimFuncNode>()[0].second.same_as(add_one));

  // The call names the callee by the module's own GlobalVar, which resolves to the PrimFunc.
  const auto* call = mod.lookup("main").as<FunctionNode>()->body.as<CallDpsNode>();
  REQUIRE(call != nullptr);
  CHECK(call->func.same_as(mod.global_var("add_one")));
  const BaseFunc callee = mod.lookup(call->func->name);
  REQUIRE(callee.is<PrimFuncNode>());
  // Destination passing: the caller's arguments plus the output fill the callee's params.
  CHECK(call->args.size() + 1 == callee.as<PrimFuncNode>()->params.size());
  CHECK(call->out_type.same_as(main_fn->ret_type));
  CHECK(callee.as<PrimFuncNode>()->shape_vars().size() == 1);
}
