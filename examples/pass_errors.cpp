// What a caller sees when a pass, an instrument or a pipeline goes wrong: PassError (with the
// offending node's location), the input left intact, InstrumentError, PipelineError.
#include <ctir/ctir.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/runtime/pass/sequential.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <exception>
#include <iostream>

using namespace ctir;

const char* const program = R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = exp(%x);
  add(%0, %0)
}
)";

// [snippet:failing]
// A pass that refuses exp: it names the offending node with a NodeError.
struct RejectExp {
  static constexpr PassInfo info() { return {.name = "RejectExp"}; }
  Function transform_function(Function f, const IRModule&, const PassContext&) const {
    walk(f, [](const Call& call) {
      const auto* op = call->op.as<OpNode>();
      if (op != nullptr && op->name == "exp") {
        throw NodeError(call, "exp is not supported on this target");
      }
    });
    return f;
  }
};
// [/snippet]

int main() {
  const IRModule input = parse_module(program, "program.ctir");

  // [snippet:pass_error]
  // The exception reaches the caller once, as a PassError naming the innermost pass, even
  // through nested sequentials; the input module is left as it was.
  const auto inner = sequential(PassInfo{.name = "inner"}, RejectExp{});
  const auto outer = sequential(PassInfo{.name = "outer"}, inner);
  IRModule mod = input;
  try {
    mod = outer(mod);
  } catch (const PassError& error) {
    std::cout << error.what() << '\n';
    std::cout << "pass_name(): " << error.pass_name() << '\n';
    std::cout << "message():   " << error.message() << '\n';
    try {
      std::rethrow_exception(error.original());
    } catch (const NodeError& original) {
      std::cout << "original():  a NodeError about " << print(original.node()) << '\n';
    }
  }
  std::cout << "the module is unchanged: " << std::boolalpha << mod.same_as(input) << '\n';
  // [/snippet]

  // [snippet:instrument_error]
  // An exception from an instrument hook is an InstrumentError naming the instrument, the
  // hook and the pass.
  struct Refuse {
    std::string name() const { return "Refuse"; }
    void run_before_pass(const IRModule&, const PassInfo& info) const {
      throw Error("not today: " + std::string(info.name));
    }
  };
  try {
    PassContext ctx{{.instruments = {Refuse{}}}};
    auto scope = ctx.enter();
    mod = make_module_pass("Identity", 0, [](IRModule m) { return m; })(mod);
  } catch (const InstrumentError& error) {
    std::cout << error.what() << '\n';
    std::cout << "hook(): " << error.hook() << ", pass_name(): " << error.pass_name() << '\n';
  }
  // [/snippet]

  // [snippet:pipeline_error]
  // A run-time sequential resolves requirements when it is made: a cycle, or a requirement
  // nothing provides, is a PipelineError naming the passes.
  const auto pass_named = [](std::string_view name, std::string_view needs) {
    return Pass(make_module_pass(PassInfo{.name = name, .required = {needs}},
                                 [](IRModule m) { return m; }));
  };
  PassRegistry empty;
  try {
    static_cast<void>(
        sequential({pass_named("A", "B"), pass_named("B", "A")}, {.name = "sequential"}, empty));
  } catch (const PipelineError& error) {
    std::cout << error.what() << '\n';
  }
  try {
    static_cast<void>(sequential({pass_named("A", "Layout")}, {.name = "sequential"}, empty));
  } catch (const PipelineError& error) {
    std::cout << error.what() << '\n';
  }
  // [/snippet]
  return 0;
}
