// Passes chosen at run time: the erased Pass, the registry, textual pipelines; and the
// PassContext that runs them (scope, opt_level, required and disabled passes, config keys).
#include <ctir/ctir.hpp>
#include <ctir/passes/passes.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/runtime/pass/sequential.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <iostream>
#include <string>
#include <tuple>

using namespace ctir;

const char* const program = R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = add(const([1f, 2f]), const([3f, 4f]));
  %1 = multiply(%x, %0);
  %2 = multiply(%x, %0);
  add(%1, %2)
}
)";

// [snippet:option]
// A pass with an option, settable from a pipeline string: `CountCalls{op=multiply}`.
struct CountCalls : pass_interface<CountCalls> {
  std::string op = "add";

  static constexpr PassInfo info() {
    return {.name = "CountCalls", .description = "prints how many calls of an operator remain"};
  }
  static constexpr auto pass_options() {
    return std::tuple{pass_option("op", &CountCalls::op, "the operator to count")};
  }
  IRModule transform_module(IRModule mod, const PassContext&) const {
    int calls = 0;
    walk(mod.lookup("main"), [&](const Call& call) {
      const auto* callee = call->op.as<OpNode>();
      calls += callee != nullptr && callee->name == op ? 1 : 0;
    });
    std::cout << "  CountCalls{op=" << op << "}: " << calls << '\n';
    return mod;
  }
};
// [/snippet]

int main() {
  const IRModule input = parse_module(program, "program.ctir");

  // [snippet:registry]
  // Passes are registered explicitly (nothing registers itself before main).
  passes::register_standard_passes();
  register_pass<CountCalls>();

  // A pipeline string is parsed into one Pass; str() prints it back in canonical form.
  const Pass pipeline = parse_pipeline(
      "CountCalls{op=multiply}, FoldConstant, EliminateCommonSubexpr, CountCalls{op=multiply}");
  std::cout << "pipeline: " << pipeline.str() << '\n';
  std::cout << "EliminateCommonSubexpr has opt_level "
            << PassRegistry::global().create("EliminateCommonSubexpr").info().opt_level << '\n';
  // [/snippet]

  // [snippet:context]
  // The default context has opt_level 2: EliminateCommonSubexpr (level 3) does not run.
  std::cout << "== at the default opt_level " << PassContext::current().opt_level() << '\n';
  IRModule out = pipeline(input);

  // Entering a context makes it current on this thread until the scope ends.
  PassContext o3{{.opt_level = 3}};
  {
    auto scope = o3.enter();
    std::cout << "== inside the scope, opt_level " << PassContext::current().opt_level() << '\n';
    out = pipeline(input);
    std::cout << print(out) << '\n';
  }
  std::cout << "== after it, opt_level " << PassContext::current().opt_level() << '\n';

  // required runs a pass whatever its level; disabled wins over both.
  PassContext listed{
      {.opt_level = 0, .required = {"EliminateCommonSubexpr"}, .disabled = {"CountCalls"}}};
  out = pipeline(input, listed);
  std::cout << "== required EliminateCommonSubexpr, disabled CountCalls, opt_level 0\n"
            << print(out) << '\n';
  // [/snippet]

  // [snippet:vector]
  // A sequential of Pass values built in code; requirements are resolved when it is made
  // (FoldConstant needs InferType, which the registry provides).
  const Pass built = sequential({PassRegistry::global().create("FoldConstant"), Pass(CountCalls{})},
                                {.name = "fold_and_count", .opt_level = 0});
  std::cout << "built: " << built.str() << '\n';
  // [/snippet]

  // [snippet:config]
  // Config keys are registered with a type and a default, then set per context.
  const ConfigKey<int> limit =
      register_pass_config_option<int>("example.limit", 10, "a limit of the example");
  PassContext configured{{.config = {{"example.limit", 4}, {"pass.num_threads", 1}}}};
  std::cout << "example.limit = " << configured.config(limit) << ", default "
            << PassContext{}.config(limit) << '\n';
  std::cout << "pass.num_threads = " << configured.config(pass_num_threads) << '\n';
  try {
    configured.set_config("example.limit", ConfigValue(std::string("many")));
  } catch (const ConfigError& error) {
    std::cout << error.what() << '\n';
  }
  try {
    configured.set_config_from_string("example.limt", "3");
  } catch (const ConfigError& error) {
    std::cout << error.what() << '\n';
  }
  // [/snippet]

  // [snippet:errors]
  // A pipeline string with a mistake is a PipelineError with the column and a caret.
  try {
    static_cast<void>(parse_pipeline("FoldConstant, EliminateCommonSubexp"));
  } catch (const PipelineError& error) {
    std::cout << error.what() << '\n';
  }
  try {
    static_cast<void>(parse_pipeline("CountCalls{operator=add}"));
  } catch (const PipelineError& error) {
    std::cout << error.what() << '\n';
  }
  // [/snippet]
  return 0;
}
