// Tests of ctir/pass/instruments/immutable_input.hpp: passes must not change their input.
#include <ctir/pass/instruments/immutable_input.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// A module `def @main(%x) { add(%x, <c>) }` whose literal the test can still change: the
/// literal is made mutable (make_object) and the test keeps a non-const pointer to it, as
/// a pass with a const_cast would have.
struct MutableModule {
  IRModule mod;
  FloatImmNode* literal = nullptr;

  MutableModule() {
    Owned<FloatImmNode> owned = make_object<FloatImmNode>();
    owned->value = 1.0;
    literal = owned.get();
    const Var x = Var::make("x", tensor_type({2}, DataType::float32()));
    mod.add("main",
            Function::make({x}, call("add", {x, std::move(owned).publish()}), {}, {}, "main"));
    mod.add("helper", Function::make({x}, x, {}, {}, "helper"));
  }
};

} // namespace

TEST_CASE("the immutable-input check catches a pass that changes a node of its input in place") {
  MutableModule input;
  FloatImmNode* literal = input.literal;
  const auto misbehaving = make_module_pass("Misbehaving", 0, [literal](IRModule mod) {
    literal->value = 2.0; // in place, where every holder of the module sees it
    return mod;
  });

  SUBCASE("as a static instrument") {
    InstrumentedPassContext ctx{{}, ImmutableInputInstrument()};
    const std::string message = error_of([&] { misbehaving(input.mod, ctx); });
    CHECK(message == "Error in instrument ImmutableInput (run_after_pass of pass Misbehaving): "
                     "ctir: pass 'Misbehaving' modified its input module in place: @main "
                     "changed; passes must build new nodes (with clone_object or ctir::map) "
                     "and leave their input as it was");
  }
  SUBCASE("as a runtime instrument, inside a sequential") {
    const auto keep = make_module_pass("Keep", 0, [](IRModule mod) { return mod; });
    PassContext ctx{{.instruments = {ImmutableInputInstrument()}}};
    const std::string message = error_of([&] { sequential(keep, misbehaving)(input.mod, ctx); });
    CHECK(contains(message, "(run_after_pass of pass Misbehaving): ctir: pass 'Misbehaving' "
                            "modified its input module in place: @main changed;"));
  }
  CHECK(literal->value == 2.0);
}

TEST_CASE("the immutable-input check passes a pass that builds new nodes and one that changes "
          "its own copy of the module") {
  MutableModule input;
  const auto rebuild = make_module_pass("Rebuild", 0, [](IRModule mod) {
    const Var y = Var::make("y", tensor_type({2}, DataType::float32()));
    mod.update("main", Function::make({y}, call("exp", {y}), {}, {}, "main"));
    if (mod.contains("helper")) {
      mod.remove("helper");
    }
    return mod;
  });
  PassContext ctx{{.instruments = {ImmutableInputInstrument()}}};
  const IRModule before = input.mod;
  const IRModule result = sequential(rebuild, rebuild)(input.mod, ctx);
  CHECK(result.size() == 1);
  CHECK(input.mod.same_as(before));
  CHECK(input.mod.size() == 2); // copy on write: the input kept both functions
}

TEST_CASE("the immutable-input check reports a function replaced or renamed in the module node") {
  // A module node the test can still change, as a const_cast of the module's node would.
  Owned<IRModuleNode> owned = make_object<IRModuleNode>();
  IRModuleNode* node = owned.get();
  IRModule mod(std::move(owned).publish());
  mod.add("main", identity_function("main"));
  mod.add("helper", identity_function("helper"));
  REQUIRE(mod.node().get() == node);

  const auto replace = make_module_pass("Replace", 0, [node](IRModule m) {
    node->functions[1] = identity_function("other");
    return m;
  });
  ImmutableInputInstrument check;
  PassContext ctx{{.instruments = {Instrument::reference(check)}}};
  CHECK(contains(error_of([&] { replace(mod, ctx); }),
                 "modified its input module in place: @helper was replaced;"));

  const auto rename = make_module_pass("Rename", 0, [node](IRModule m) {
    node->globals[0] = GlobalVar::make("renamed");
    node->functions.pop_back();
    node->globals.pop_back();
    return m;
  });
  CHECK(contains(error_of([&] { rename(mod, ctx); }),
                 "modified its input module in place: it held 2 functions and now holds 1, "
                 "function 0 was @main and is now @renamed;"));
}

TEST_CASE("the immutable-input check forgets failed passes and is named ImmutableInput") {
  EventLog log;
  PassContext ctx{{.instruments = {ImmutableInputInstrument()}}};
  CHECK_THROWS_AS(throwing_pass("Broken", log)(sample_module(), ctx), PassError);
  const auto keep = make_module_pass("Keep", 0, [](IRModule mod) { return mod; });
  CHECK_NOTHROW(keep(sample_module(), ctx));
  static_assert(pass_instrument<ImmutableInputInstrument>);
  CHECK(Instrument(ImmutableInputInstrument()).name() == "ImmutableInput");
}
