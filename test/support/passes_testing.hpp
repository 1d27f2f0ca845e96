// Helpers for the standard pass tests: golden files, and running modules before and after.
//
// A golden file test/data/passes/<Pass>/<case>.ctir holds the input module, then a line
// `#### expected`, then the module the pass must produce (compared structurally). A file
// without the marker is an input that the pass must leave unchanged.
#pragma once

#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/random_inputs.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <doctest/doctest.h>
#include <random_module.hpp>
#include <test_data.hpp>
#include <value_compare.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ctir::testing {

inline std::filesystem::path passes_data_dir() { return test_data_dir() / "passes"; }

/// One golden case: the input and what the pass makes of it.
struct GoldenCase {
  std::string name;
  IRModule input;
  IRModule expected;
  /// False for a file without `#### expected`: the pass must return the input itself.
  bool changes = true;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// The cases of test/data/passes/<pass>/, sorted by file name (at least one: a missing
/// directory fails the test).
inline std::vector<GoldenCase> golden_cases(std::string_view pass) {
  const std::filesystem::path dir = passes_data_dir() / std::string(pass);
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".ctir") {
        files.push_back(entry.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  REQUIRE_MESSAGE(!files.empty(), "no golden files in " << dir.string());
  std::vector<GoldenCase> cases;
  for (const auto& file : files) {
    const std::string text = read_text(file);
    const std::string marker = "#### expected";
    const std::size_t at = text.find(marker);
    GoldenCase c;
    c.name = file.filename().string();
    c.input = parse_module(text.substr(0, at), c.name);
    c.changes = at != std::string::npos;
    c.expected = at == std::string::npos
                     ? c.input
                     : parse_module(text.substr(at + marker.size()), c.name + " (expected)");
    cases.push_back(std::move(c));
  }
  return cases;
}

/// Runs every function of `before` that `after` still has on random inputs (seeds 1 to 3)
/// in both modules and checks that the results agree (see values_agree). A seed on which
/// `before` fails (an error at run time) is skipped: a pass may remove errors, never add
/// them. Returns how many runs were compared.
inline int check_same_behaviour(const IRModule& before, const IRModule& after,
                                bool any_shape = false) {
  int compared = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const std::string name = before.global_at(i)->name;
    const BaseFunc changed = after.find(name);
    if (!changed.defined()) {
      continue;
    }
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      std::vector<eval::Value> inputs;
      std::vector<eval::Value> expected;
      try {
        inputs = eval::random_inputs(before, name, seed);
        eval::Interpreter interp(before);
        expected = interp.call(name, inputs);
      } catch (const Error&) {
        continue;
      }
      if (const auto* prim = changed.as<PrimFuncNode>()) {
        for (std::size_t k = 0; k < inputs.size() && k < prim->params.size(); ++k) {
          inputs[k] = reshape_to(inputs[k], prim->params[k]->ty);
        }
      }
      std::vector<eval::Value> actual;
      try {
        eval::Interpreter interp(after);
        actual = interp.call(name, inputs);
      } catch (const Error& e) {
        FAIL_CHECK("@" << name << " (seed " << seed << ") fails after the pass: " << e.what());
        continue;
      }
      REQUIRE(actual.size() == expected.size());
      for (std::size_t k = 0; k < actual.size(); ++k) {
        std::string why;
        const bool agree = values_agree(expected[k], actual[k], any_shape, why);
        CHECK_MESSAGE(agree, "@" << name << " (seed " << seed << ") result " << k << ": " << why);
      }
      ++compared;
    }
  }
  return compared;
}

/// How check_golden_laws compares results on random inputs.
struct GoldenLawOptions {
  /// At least this many runs (functions times seeds) must be compared.
  int min_runs = 9;
  /// Compare tensors by their row-major elements (for passes that reshape buffers).
  bool any_shape = false;
  /// The output must be typed: InferType returns it as the very same module.
  bool stays_typed = false;
};

/// Checks the laws a pass keeps on its golden cases in test/data/passes/<dir>:
/// - it turns each input into the expected module (structurally equal), and an input
///   without an expected part into the very same module object;
/// - running it on its own output changes nothing (idempotence);
/// - every function keeps its results on random inputs (see check_same_behaviour);
/// - with `stays_typed`, the output is typed.
/// `pass` is anything callable as IRModule(IRModule): a static pass, a Pass, a lambda.
template <class PassLike>
void check_golden_laws(std::string_view dir, const PassLike& pass, GoldenLawOptions options = {}) {
  int compared = 0;
  for (const GoldenCase& c : golden_cases(dir)) {
    CAPTURE(c.name);
    const IRModule once = pass(c.input);
    CHECK_NOTHROW(assert_structural_equal(once, c.expected));
    if (!c.changes) {
      CHECK_MESSAGE(once.same_as(c.input), "an unchanged module must come back as itself");
    }
    CHECK_NOTHROW(assert_structural_equal(pass(once), once));
    if (options.stays_typed) {
      CHECK_MESSAGE(passes::InferType{}(once).same_as(once), "the output is not typed");
    }
    compared += check_same_behaviour(c.input, once, options.any_shape);
  }
  CHECK(compared >= options.min_runs);
}

/// The first `count` generated modules (RandomModuleGenerator, seeds 1, 2, ...) that
/// InferType accepts. Generated modules are well formed but not always well typed (a call
/// may miss an argument), and the graph-level passes reject or skip ill-typed code.
inline std::vector<IRModule> well_typed_generated_modules(std::size_t count) {
  std::vector<IRModule> typed;
  for (std::uint64_t seed = 1; typed.size() < count; ++seed) {
    IRModule mod = RandomModuleGenerator(seed).module(3);
    try {
      static_cast<void>(passes::InferType{}(mod));
      typed.push_back(std::move(mod));
    } catch (const Error&) {
    }
  }
  return typed;
}

/// `%k = add(%k-1, %k-2)` for `bindings` bindings from `x` and `y`: every node is used
/// twice and there are 2^bindings paths, so a pass finishes only if it meets each node once.
inline Expr fibonacci_dag(const Expr& x, const Expr& y, int bindings) {
  Expr older = x;
  Expr newer = y;
  for (int k = 0; k < bindings; ++k) {
    Expr next = Call::make(Op::make("add"), {newer, older});
    older = newer;
    newer = std::move(next);
  }
  return newer;
}

/// `fn (%x) { fn (%p0) { ... fn (%p<depth-1>) { body(%x) } } }`, each parameter a
/// Tensor[(2), float32]. Once typed, each closure's type holds the types of all the
/// closures inside it (one shared object per level, depth^2 / 2 type nodes if expanded),
/// so a pass over it is linear only if it does not walk types.
template <class Body>
Function nested_closures(int depth, Body body) {
  const Var x = Var::make("x", TensorType::make({2}, DataType::float32()));
  Expr inner = body(x);
  for (int k = 0; k < depth; ++k) {
    inner = Function::make({Var::make("p" + std::to_string(k), x->ty)}, inner);
  }
  return Function::make({x}, inner, Type(), {}, "main");
}

/// The body of the innermost closure of `nested_closures`.
inline Expr innermost_body(const Function& f) {
  Expr body = f->body;
  while (const auto* closure = body.as<FunctionNode>()) {
    body = closure->body;
  }
  return body;
}

} // namespace ctir::testing
