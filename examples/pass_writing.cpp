// Writing passes: a module pass, a graph-level function pass and a tensor-level function pass,
// each as a lambda or a class, run alone and in a static sequential; then requirements.
#include <ctir/ctir.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <iostream>

using namespace ctir;

const char* const program = R"(
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %0 = negative(negative(%x));
  exp(%0)
}

def @helper(%a: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %a
}

prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
)";

// [snippet:lambdas]
// A module pass from a lambda: the whole module in, a module out.
constexpr auto drop_helper = make_module_pass("DropHelper", 1, [](IRModule mod) {
  mod.remove("helper");
  return mod;
});

// A graph-level function pass from a lambda: called for each Function of the module.
constexpr auto cancel_negations =
    make_function_pass({.name = "CancelNegations", .opt_level = 1}, [](Function f) {
      return map(f, [](const Call& call) -> Expr {
        const auto is_negative = [](const CallNode* c) {
          const auto* op = c != nullptr ? c->op.as<OpNode>() : nullptr;
          return op != nullptr && op->name == "negative";
        };
        const CallNode* inner = call->args.empty() ? nullptr : call->args[0].as<CallNode>();
        if (is_negative(call.get()) && is_negative(inner)) {
          return inner->args[0]; // -(-x) is x
        }
        return call;
      });
    });
// [/snippet]

// [snippet:class]
// A tensor-level function pass as a class: info() and transform_function on PrimFunc.
// pass_interface gives it the call operators `pass(mod)` and `pass(mod, ctx)`.
struct SpecializeExtent : pass_interface<SpecializeExtent> {
  std::int64_t extent = 16;

  static constexpr PassInfo info() {
    return {.name = "SpecializeExtent",
            .opt_level = 2,
            .description = "replaces the size variable %n by a constant"};
  }
  PrimFunc transform_function(PrimFunc f, const IRModule&, const PassContext&) const {
    return map(f, [&](const Var& v) -> PrimExpr {
      return v->name == "n" ? PrimExpr(IntImm::make(extent)) : PrimExpr(v);
    });
  }
};
// [/snippet]

// [snippet:requirements]
// Four passes that only say when they run. Normalize establishes "normal_form" (and its
// own name); Fuse needs it and breaks it; Schedule needs it again; Normalize needs the
// result of TypeCheck. The types in `required_passes` provide what the names ask for.
struct TypeCheck {
  static constexpr PassInfo info() { return {.name = "TypeCheck"}; }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    std::cout << "  TypeCheck\n";
    return mod;
  }
};
struct Normalize {
  using required_passes = pass_list<TypeCheck>;
  static constexpr PassInfo info() {
    return {.name = "Normalize", .required = {"TypeCheck"}, .establishes = {"normal_form"}};
  }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    std::cout << "  Normalize\n";
    return mod;
  }
};
struct Fuse {
  using required_passes = pass_list<Normalize>;
  static constexpr PassInfo info() {
    return {.name = "Fuse", .required = {"normal_form"}, .invalidates = {"normal_form"}};
  }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    std::cout << "  Fuse\n";
    return mod;
  }
};
struct Schedule {
  using required_passes = pass_list<Normalize>;
  static constexpr PassInfo info() { return {.name = "Schedule", .required = {"normal_form"}}; }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    std::cout << "  Schedule\n";
    return mod;
  }
};
// [/snippet]

int main() {
  const IRModule input = parse_module(program, "program.ctir");

  // [snippet:run]
  // Each pass runs alone with `pass(mod)` (under PassContext::current()) ...
  IRModule one = cancel_negations(input);
  std::cout << "== after CancelNegations alone\n" << print(one.lookup("main")) << '\n';

  // ... or in a static sequential, which runs a pass when the context's opt_level is at
  // least the pass's (TVM's PassEnabled): at opt_level 1, SpecializeExtent (level 2) is
  // left out.
  constexpr auto pipeline = sequential(drop_helper, cancel_negations, SpecializeExtent{});
  const IRModule at_level_1 = pipeline(input, PassContext{{.opt_level = 1}});
  const IRModule at_level_2 = pipeline(input, PassContext{{.opt_level = 2}});
  std::cout << "== opt_level 1\n" << print(at_level_1) << '\n';
  std::cout << "== opt_level 2: @add_one\n" << print(at_level_2.lookup("add_one")) << '\n';
  // [/snippet]

  // [snippet:input]
  // Passes never modify their input: `input` still has @helper and the double negation.
  std::cout << "== the input is intact: " << input.size() << " functions\n"
            << print(input.lookup("main")) << '\n';
  // [/snippet]

  // [snippet:resolution]
  // Requirements are resolved when the sequential is made (at compile time here): the
  // pipeline lists Fuse and Schedule, and runs what they need, each result once per
  // invalidation.
  constexpr auto scheduled = sequential(Fuse{}, Schedule{});
  std::cout << "== sequential(Fuse, Schedule) runs\n";
  static_cast<void>(scheduled(input));
  // [/snippet]
  return 0;
}
