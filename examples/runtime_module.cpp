// From a graph-level model to native code: lower the operators, optimize, compile the
// tensor-level functions through C, load them and run the model; the interpreter agrees.
#include <ctir/codegen/module.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/random_inputs.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/text/parser.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace ctir;

int main() {
  // [snippet:model]
  IRModule model = parse_module(R"(
def @main(%x: Tensor[(2, 3), float32], %w: Tensor[(3, 4), float32], %b: Tensor[(4), float32]) -> Tensor[(2, 4), float32] {
  %0 = matmul(%x, %w);
  %1 = add(%0, %b);
  nn.relu(%1)
}
)");
  // [/snippet]

  // [snippet:lower]
  passes::register_standard_passes();
  const Pass pipeline = parse_pipeline("LegalizeOps,DefaultPipeline");
  const IRModule lowered = pipeline(model, PassContext({.opt_level = 3}));
  // [/snippet]

  // [snippet:build]
  const codegen::NativeModule native = build(lowered); // C -> cc -O2 -shared -> dlopen
  const codegen::NativeFunction main_fn = native.get_function("main");
  const std::vector<eval::Value> inputs = eval::random_inputs(lowered, "main", 4);
  const eval::Value result = main_fn(inputs)[0];
  // [/snippet]

  eval::Interpreter interpreter(lowered);
  const eval::Value expected = interpreter.call("main", inputs)[0];
  std::printf("native:      %s\n", eval::to_string(result).c_str());
  std::printf("interpreter: %s\n", eval::to_string(expected).c_str());

  // [snippet:save]
  const std::string path = (std::filesystem::temp_directory_path() / "model.so").string();
  native.save(path); // model.so and model.so.ctir (the signatures)
  const codegen::NativeModule loaded = codegen::NativeModule::load(path);
  const bool same = loaded.get_function("main")(inputs)[0] == result;
  // [/snippet]
  std::printf("reloaded module agrees: %s\n", same ? "yes" : "no");
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".ctir");
  return same && result == expected ? 0 : 1;
}
