// Tests of <ctir/codegen/module.hpp>: native modules agree with the interpreter, and
// every misuse is a clear error.
#include <ctir/codegen/module.hpp>

#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/random_inputs.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include "random_module.hpp"
#include "test_data.hpp"
#include "value_compare.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace ctir;
using ctir::codegen::BuildError;
using ctir::codegen::NativeModule;

namespace {

/// The module after LegalizeOps and DefaultPipeline at -O3: what a user compiles.
IRModule lowered(const IRModule& mod) {
  static const Pass pipeline = [] {
    PassRegistry& registry = PassRegistry::global();
    passes::register_standard_passes(registry);
    return parse_pipeline("LegalizeOps,DefaultPipeline", registry);
  }();
  return pipeline(mod, PassContext({.opt_level = 3}));
}

std::string error_of(const auto& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

struct Tally {
  int compared = 0;
  int errors_agreed = 0;
  int unsupported = 0;
};

/// Runs every function of `mod` on random inputs, interpreted and native; the results
/// (or the fact of an error) must agree.
void compare_all(const IRModule& mod, const NativeModule& native, std::uint64_t seed,
                 Tally& tally) {
  for (const auto& entry : mod) {
    // A named copy: clang 14 cannot capture a structured binding in CAPTURE's lambda.
    const std::string name = entry.first->name;
    CAPTURE(name);
    std::vector<eval::Value> inputs;
    try {
      inputs = eval::random_inputs(mod, name, seed);
    } catch (const Error&) {
      continue; // a function type no random value exists for (closures as parameters)
    }
    std::vector<eval::Value> expected;
    std::string expected_error;
    try {
      eval::Interpreter interpreter(mod);
      expected = interpreter.call(name, inputs);
    } catch (const Error& e) {
      expected_error = e.what();
    }
    std::vector<eval::Value> actual;
    std::string actual_error;
    try {
      actual = native.get_function(name)(inputs);
    } catch (const Error& e) {
      actual_error = e.what();
    }
    if (actual_error.find("native code cannot run") != std::string::npos ||
        actual_error.find("has no native code") != std::string::npos) {
      ++tally.unsupported; // closures, operators LegalizeOps does not lower: documented
      continue;
    }
    CAPTURE(expected_error);
    CAPTURE(actual_error);
    REQUIRE(expected_error.empty() == actual_error.empty());
    if (!expected_error.empty()) {
      ++tally.errors_agreed;
      continue;
    }
    REQUIRE(expected.size() == actual.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      std::string why;
      CAPTURE(k);
      CHECK_MESSAGE(testing::values_agree(expected[k], actual[k], false, why), why);
    }
    ++tally.compared;
  }
}

} // namespace

TEST_CASE("every golden module of the passes runs natively as the interpreter runs it") {
  Tally tally;
  int modules = 0;
  const auto root = testing::test_data_dir() / "passes";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() == ".ctir") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() > 30);
  for (const auto& file : files) {
    CAPTURE(file.string());
    std::string text = testing::read_test_file(file);
    if (const auto cut = text.find("#### expected"); cut != std::string::npos) {
      text.resize(cut);
    }
    const IRModule mod = lowered(parse_module(text, file.string()));
    const NativeModule native = build(mod);
    compare_all(mod, native, 7, tally);
    ++modules;
  }
  MESSAGE("modules: ", modules, ", functions compared: ", tally.compared,
          ", errors in both: ", tally.errors_agreed,
          ", left to the interpreter: ", tally.unsupported);
  CHECK(tally.compared > 60);
}

TEST_CASE("generated modules run natively as the interpreter runs them, before and after "
          "lowering") {
  Tally tally;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    CAPTURE(seed);
    testing::RandomModuleGenerator generator(seed, {.in_bounds = true, .well_typed = true});
    IRModule mod = generator.module(3);
    if (seed % 2 == 0) {
      mod = lowered(mod);
    }
    const NativeModule native = build(mod);
    compare_all(mod, native, seed, tally);
  }
  MESSAGE("functions compared: ", tally.compared, ", errors in both: ", tally.errors_agreed,
          ", left to the interpreter: ", tally.unsupported);
  CHECK(tally.compared > 12);
}

namespace {

constexpr std::string_view kernels = R"(
prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in parallel(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
prim @shift(%A: Tensor[(4), int32], %k: int32, %B: Tensor[(4), int32]) {
  for %i in range(0, 4) {
    %B[%i] = %A[(%i + %k) % 4] / %k;
  }
}
prim @pair[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n + 1), float32]) {
  %B[%n] = %A[0];
}
def @main(%x: Tensor[(3), float32]) -> Tensor[(3), float32] {
  %0 = call_dps @add_one(%x) -> Tensor[(3), float32];
  call_dps @add_one(%0) -> Tensor[(3), float32]
}
def @unlowered(%x: Tensor[(3), float32]) -> Tensor[(3), float32] {
  exp(%x)
}
)";

eval::Value f32(std::vector<double> values) {
  const auto n = static_cast<std::int64_t>(values.size());
  return eval::Value(TensorData::from_doubles(DataType::float32(), {n}, values));
}

eval::Value i32(std::vector<double> values) {
  const auto n = static_cast<std::int64_t>(values.size());
  return eval::Value(TensorData::from_doubles(DataType::int32(), {n}, values));
}

} // namespace

TEST_CASE("a native module runs its tensor-level and graph-level functions") {
  const NativeModule native = build(parse_module(kernels));
  const std::vector<eval::Value> outs = native.get_function("add_one")({f32({1, 2}), f32({0, 0})});
  REQUIRE(outs.size() == 2);
  CHECK(outs[0] == f32({1, 2})); // inputs come back unchanged
  CHECK(outs[1] == f32({2, 3}));
  CHECK(native.get_function("main")({f32({1, 2, 3})})[0] == f32({3, 4, 5}));
  // Floor division and modulo, as the interpreter defines them.
  const eval::Value k = eval::Value(eval::Scalar::make_int(DataType::int32(), -3));
  CHECK(native.get_function("shift")({i32({7, -7, 8, -8}), k, i32({0, 0, 0, 0})})[2] ==
        i32({2, -3, 2, -3}));
}

TEST_CASE("a wrong call of a native function is an error before native code runs") {
  const NativeModule native = build(parse_module(kernels));
  const codegen::NativeFunction add_one = native.get_function("add_one");
  CHECK(error_of([&] { add_one({f32({1})}); })
            .find("@add_one takes 2 arguments, but 1 were "
                  "given") != std::string::npos);
  CHECK(error_of([&] {
          add_one({i32({1}), f32({1})});
        }).find("argument 0 (%A: Tensor[(%n), float32]) has dtype int32, not float32") !=
        std::string::npos);
  CHECK(error_of([&] {
          add_one({eval::Value(TensorData(DataType::float32(), {1, 1})), f32({1})});
        }).find("has rank 2, not 1") != std::string::npos);
  CHECK(error_of([&] {
          add_one({f32({1, 2}), f32({1})});
        }).find("dimension 0 of %B (%n) is 1, expected 2") != std::string::npos);
  CHECK(error_of([&] {
          native.get_function("pair")({f32({1, 2}), f32({1, 2})});
        }).find("dimension 0 of %B (%n + 1) is 2, expected 3") != std::string::npos);
  CHECK(error_of([&] {
          native.get_function("shift")({i32({1, 2, 3, 4}), i32({1}), i32({0})});
        }).find("must be a int32 scalar") != std::string::npos);
  CHECK(error_of([&] {
          native.get_function("nope");
        }).find("the native module has no function @nope (it has @add_one") != std::string::npos);
}

TEST_CASE("errors inside native code are reported, not crashes") {
  const NativeModule native = build(parse_module(kernels));
  const eval::Value zero = eval::Value(eval::Scalar::make_int(DataType::int32(), 0));
  const std::string by_zero = error_of([&] {
    native.get_function("shift")({i32({1, 2, 3, 4}), zero, i32({0, 0, 0, 0})});
  });
  CAPTURE(by_zero);
  CHECK(by_zero.find("by zero") != std::string::npos);
  const NativeModule oob = build(parse_module(R"(
prim @oob(%A: Tensor[(4), float32], %B: Tensor[(4), float32]) {
  for %i in range(0, 4) {
    %B[%i] = %A[%i + 1];
  }
})"));
  CHECK(error_of([&] {
          oob.get_function("oob")({f32({1, 2, 3, 4}), f32({0, 0, 0, 0})});
        }).find("index out of bounds in %A[%i + 1]") != std::string::npos);
  CHECK(error_of([&] {
          native.get_function("unlowered")({f32({1, 2, 3})});
        }).find("the operator 'exp' has no native code") != std::string::npos);
}

TEST_CASE("a missing or failing C compiler is a clear error") {
  const IRModule mod = parse_module(kernels);
  const std::string missing = error_of([&] {
    codegen::BuildOptions options;
    options.compiler = "/nonexistent/cc";
    build(mod, options);
  });
  CHECK(missing.find("the C compiler '/nonexistent/cc' failed") != std::string::npos);
  CHECK(missing.find("not found") != std::string::npos);
  const std::string failing = error_of([&] {
    codegen::BuildOptions options;
    options.flags = {"-fno-such-flag"};
    build(mod, options);
  });
  CHECK(failing.find("-fno-such-flag") != std::string::npos);
  // CC chooses the compiler when the options do not.
  const char* saved = std::getenv("CC");
  const std::string old = saved != nullptr ? saved : "";
  setenv("CC", "/nonexistent", 1);
  const std::string from_env = error_of([&] { build(mod); });
  if (saved != nullptr) {
    setenv("CC", old.c_str(), 1);
  } else {
    unsetenv("CC");
  }
  CHECK(from_env.find("the C compiler '/nonexistent' failed") != std::string::npos);
}

TEST_CASE("a saved native module loads and runs again") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ctir-save-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "kernels.so").string();
  {
    const NativeModule native = build(parse_module(kernels));
    native.save(path);
  }
  const NativeModule loaded = NativeModule::load(path);
  CHECK(loaded.get_function("main")({f32({0, 1, 2})})[0] == f32({2, 3, 4}));
  CHECK(loaded.module().contains("add_one"));
  CHECK(error_of([&] { NativeModule::load((dir / "missing.so").string()); }).find("cannot read") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}
