// Test support: the differential pipeline check. A module and a textual pipeline with its
// context (opt level, disabled and required passes, config) run through the runtime layer
// with the verifier after every pass; the result must verify, round trip through the text
// format, leave the input unchanged, and compute what the input computes.
//
// Used by the differential fuzzer (test/fuzz/diff_fuzzer.cpp), which generates cases,
// minimizes failures and saves them under test/data/regressions, and by the test that
// replays every saved case (test/laws/regressions.test.cpp). No test framework here.
#pragma once

#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/random_inputs.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/instruments/verify.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/passes/unroll_loop.hpp>
#include <ctir/runtime/pass/erased.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>
#include <ctir/traverse/map.hpp>

#include <random_module.hpp>
#include <scoped_text_module.hpp>
#include <value_compare.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::testing {

/// A pipeline as ctir-opt runs it: the pipeline string and the context's settings.
struct PipelineRun {
  std::string pipeline;
  int opt_level = 2;
  std::vector<std::string> disabled = {};
  std::vector<std::string> required = {};
  /// Config settings as `key=value` text (`tensor.UnrollLoop.max_extent=4`).
  std::vector<std::pair<std::string, std::string>> config = {};

  /// The ctir-opt options that run it: `--opt-level 2 --config k=v -p 'A,B' --verify-each`
  /// (the words of a `# ctir-opt reproducer:` line).
  std::string command_line() const;
};

/// One differential case: a module and what runs on it.
struct DiffCase {
  IRModule module;
  PipelineRun run;
};

/// What the check found.
struct DiffResult {
  enum class Kind : std::uint8_t {
    /// Every check held.
    passed,
    /// A pass refused the module with an error (ill-typed input, a strict UnrollLoop): not
    /// a failure.
    refused,
    /// The input is not well-formed: the case says nothing (not a failure).
    invalid_input,
    /// Failures:
    pipeline_error,  ///< the pipeline string or its context does not parse
    verify_failed,   ///< the verifier rejected a pass's output (--verify-each)
    pass_error,      ///< a pass threw on a well-typed input
    unexpected,      ///< an exception that is not a ctir::Error
    not_well_formed, ///< the result does not verify
    round_trip,      ///< the result does not print, parse back equal and print the same
    input_changed,   ///< the input module changed
    behaviour,       ///< the interpreter gives other results after the pipeline
  };
  Kind kind = Kind::passed;
  std::string message;
  /// Functions times seeds compared under the interpreter.
  int compared = 0;

  bool failed() const noexcept { return kind > Kind::invalid_input; }
};

inline std::string_view to_string(DiffResult::Kind kind) noexcept {
  switch (kind) {
  case DiffResult::Kind::passed:
    return "passed";
  case DiffResult::Kind::refused:
    return "refused";
  case DiffResult::Kind::invalid_input:
    return "invalid input";
  case DiffResult::Kind::pipeline_error:
    return "pipeline error";
  case DiffResult::Kind::verify_failed:
    return "verify-each failed";
  case DiffResult::Kind::pass_error:
    return "pass error on a well-typed input";
  case DiffResult::Kind::unexpected:
    return "unexpected exception";
  case DiffResult::Kind::not_well_formed:
    return "result not well-formed";
  case DiffResult::Kind::round_trip:
    return "round trip";
  case DiffResult::Kind::input_changed:
    return "input changed";
  case DiffResult::Kind::behaviour:
    return "different behaviour";
  }
  return "?";
}

namespace detail {

/// `word` quoted for a POSIX shell when it needs to be.
inline std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '=' || c == ',' || c == '/';
  });
  if (plain) {
    return word;
  }
  std::string out = "'";
  for (char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

/// The words of a POSIX shell line (single and double quotes, backslash escapes).
inline std::vector<std::string> shell_words(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) {
        words.push_back(word);
        word.clear();
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const std::size_t end = line.find('\'', i + 1);
      word += line.substr(i + 1, end - i - 1);
      i = end == std::string_view::npos ? line.size() : end;
    } else if (c == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) {
          ++i;
        }
        word += line[i];
      }
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
    } else {
      word += c;
    }
  }
  if (in_word) {
    words.push_back(word);
  }
  return words;
}

inline std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += (out.empty() ? "" : ",") + name;
  }
  return out;
}

inline std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) {
      out.emplace_back(text.substr(start, comma - start));
    }
    start = comma + 1;
  }
  return out;
}

/// The first line of an error message (the rest is printed IR).
inline std::string first_line(std::string_view message) {
  return std::string(message.substr(0, message.find('\n')));
}

} // namespace detail

inline std::string PipelineRun::command_line() const {
  std::string out = "--opt-level " + std::to_string(opt_level);
  if (!disabled.empty()) {
    out += " --disable " + detail::join(disabled);
  }
  if (!required.empty()) {
    out += " --required " + detail::join(required);
  }
  for (const auto& [key, value] : config) {
    out += " --config " + detail::shell_quote(key + "=" + value);
  }
  return out + " -p " + detail::shell_quote(pipeline) + " --verify-each";
}

/// Reads the options of a `# ctir-opt reproducer:` line (see PipelineRun::command_line);
/// nullopt for a line without `-p` or with another option.
inline std::optional<PipelineRun> parse_command_line(std::string_view line) {
  const std::vector<std::string> words = detail::shell_words(line);
  PipelineRun run;
  bool has_pipeline = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "--verify-each") {
      continue;
    }
    if (i + 1 >= words.size()) {
      return std::nullopt;
    }
    const std::string& value = words[++i];
    if (word == "-p") {
      run.pipeline = value;
      has_pipeline = true;
    } else if (word == "--opt-level") {
      run.opt_level = std::stoi(value);
    } else if (word == "--disable") {
      run.disabled = detail::split(value);
    } else if (word == "--required") {
      run.required = detail::split(value);
    } else if (word == "--config") {
      const std::size_t eq = value.find('=');
      if (eq == std::string::npos) {
        return std::nullopt;
      }
      run.config.emplace_back(value.substr(0, eq), value.substr(eq + 1));
    } else {
      return std::nullopt;
    }
  }
  if (!has_pipeline) {
    return std::nullopt;
  }
  return run;
}

/// The marker of the line that holds a saved case's pipeline.
inline constexpr std::string_view reproducer_marker = "# ctir-opt reproducer: ";

/// A saved case as a file: the pipeline line (ctir-opt's reproducer syntax, so that
/// `ctir-opt FILE --run-reproducer` runs the pipeline), comment lines, then the module.
inline std::string case_file_text(const DiffCase& c, const std::vector<std::string>& comments) {
  std::string out = std::string(reproducer_marker) + c.run.command_line() + "\n";
  for (const std::string& comment : comments) {
    std::istringstream lines(comment);
    for (std::string line; std::getline(lines, line);) {
      out += "# " + line + "\n";
    }
  }
  return out + print(c.module);
}

/// Reads a saved case; throws ctir::Error for a file without a pipeline line or whose
/// module does not parse.
inline DiffCase read_case_file(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  std::optional<PipelineRun> run;
  for (std::string line; std::getline(lines, line) && line.starts_with("#");) {
    if (line.starts_with(reproducer_marker)) {
      run = parse_command_line(std::string_view(line).substr(reproducer_marker.size()));
    }
  }
  if (!run) {
    throw Error(name + ": no '" + std::string(reproducer_marker) + "' line with a pipeline");
  }
  return DiffCase{parse_module(text, name), *run};
}

/// Settings of check_case.
struct DiffOptions {
  /// Random inputs per function: seeds 1 to this.
  std::uint64_t seeds = 2;
  /// Evaluation steps per call before the interpreter gives up (a limit, not a failure).
  std::uint64_t max_steps = 2'000'000;
};

namespace detail {

/// Whether the round-trip law holds for `module`; what is wrong otherwise.
inline std::optional<std::string> round_trip_problem(const IRModule& module) {
  const std::string printed = print(module);
  IRModule parsed;
  try {
    parsed = parse_module(printed, "printed.ctir");
  } catch (const Error& error) {
    return "the printed module does not parse: " + std::string(error.what()) + "\n" + printed;
  }
  try {
    assert_structural_equal(module, parsed);
  } catch (const Error& error) {
    return "the printed module reads back as another module: " + std::string(error.what());
  }
  if (const std::string again = print(parsed); again != printed) {
    return "printing is not a fixed point:\n" + printed + "\nprints again as\n" + again;
  }
  return std::nullopt;
}

/// Compares the functions of `before` that `after` still has on random inputs.
inline std::optional<std::string> behaviour_problem(const IRModule& before, const IRModule& after,
                                                    const DiffOptions& options, int& compared) {
  const eval::InterpreterOptions limits{.max_steps = options.max_steps};
  for (std::size_t i = 0; i < before.size(); ++i) {
    const std::string name = before.global_at(i)->name;
    const BaseFunc changed = after.find(name);
    if (!changed.defined()) {
      continue;
    }
    for (std::uint64_t seed = 1; seed <= options.seeds; ++seed) {
      std::vector<eval::Value> inputs;
      std::vector<eval::Value> expected;
      try {
        inputs = eval::random_inputs(before, name, seed);
        eval::Interpreter interp(before, limits);
        expected = interp.call(name, inputs);
      } catch (const Error&) {
        // An input that fails may fail differently or not at all after a pass (a pass may
        // remove a computation that fails and whose result is unused).
        continue;
      }
      const auto* prim = changed.as<PrimFuncNode>();
      if (prim != nullptr) {
        for (std::size_t k = 0; k < inputs.size() && k < prim->params.size(); ++k) {
          inputs[k] = reshape_to(inputs[k], prim->params[k]->ty);
        }
      }
      std::vector<eval::Value> actual;
      try {
        eval::Interpreter interp(after, limits);
        actual = interp.call(name, inputs);
      } catch (const Error& error) {
        return "@" + name + " (inputs of seed " + std::to_string(seed) +
               ") computes before the pipeline and fails after it: " + first_line(error.what());
      }
      if (actual.size() != expected.size()) {
        return "@" + name + " returns " + std::to_string(actual.size()) + " values, not " +
               std::to_string(expected.size());
      }
      for (std::size_t k = 0; k < actual.size(); ++k) {
        std::string why;
        if (!values_agree(expected[k], actual[k], prim != nullptr, why)) {
          return "@" + name + " (inputs of seed " + std::to_string(seed) + ") result " +
                 std::to_string(k) + ": " + why;
        }
      }
      ++compared;
    }
  }
  return std::nullopt;
}

/// Whether InferType accepts the module (a pass may refuse an ill-typed module).
inline bool well_typed(const IRModule& module) {
  try {
    static_cast<void>(passes::InferType{}(module));
    return true;
  } catch (const Error&) {
    return false;
  }
}

/// The WellFormedError inside an InstrumentError, if it is one.
inline const WellFormedError* verifier_error(const std::exception_ptr& original) {
  try {
    if (original) {
      std::rethrow_exception(original);
    }
  } catch (const WellFormedError& error) {
    static thread_local std::optional<WellFormedError> kept;
    kept.emplace(error);
    return &*kept;
  } catch (...) {
  }
  return nullptr;
}

} // namespace detail

/// Runs the case and checks it (see the file comment). A module that is not well-formed
/// is `invalid_input`; a pass refusing an ill-typed module, or a strict UnrollLoop refusing
/// a loop, is `refused`.
inline DiffResult check_case(const DiffCase& c, const DiffOptions& options = {}) {
  using Kind = DiffResult::Kind;
  DiffResult result;
  if (!verify_well_formed(c.module).empty()) {
    result.kind = Kind::invalid_input;
    result.message = verify_well_formed(c.module).front().str();
    return result;
  }
  const std::string input_text = print(c.module);
  std::optional<Pass> pass;
  PassContextOptions settings;
  try {
    pass.emplace(parse_pipeline(c.run.pipeline));
    settings.opt_level = c.run.opt_level;
    settings.disabled = c.run.disabled;
    settings.required = c.run.required;
    for (const auto& [key, text] : c.run.config) {
      settings.config.push_back({key, PassConfigRegistry::global().parse(key, text)});
    }
    settings.instruments.emplace_back(VerifyWellFormedInstrument({.check_input = false}));
  } catch (const Error& error) {
    return {Kind::pipeline_error, error.what()};
  }
  IRModule out;
  try {
    PassContext ctx(settings);
    const PassContextScope scope = ctx.enter();
    out = (*pass)(c.module);
  } catch (const InstrumentError& error) {
    if (detail::verifier_error(error.original()) != nullptr) {
      return {Kind::verify_failed, error.what()};
    }
    return {Kind::unexpected, error.what()};
  } catch (const Error& error) {
    const std::string message = error.what();
    const bool strict = std::any_of(c.run.config.begin(), c.run.config.end(), [](const auto& kv) {
      return kv.first == passes::unroll_strict_key && kv.second == "true";
    });
    if ((strict && message.find("UnrollLoop cannot unroll") != std::string::npos) ||
        !detail::well_typed(c.module)) {
      return {Kind::refused, message};
    }
    return {Kind::pass_error, message};
  } catch (const std::exception& error) {
    return {Kind::unexpected, error.what()};
  }
  if (print(c.module) != input_text) {
    return {Kind::input_changed, "the input module prints differently after the pipeline"};
  }
  if (const std::vector<WellFormedDiagnostic> problems = verify_well_formed(out);
      !problems.empty()) {
    return {Kind::not_well_formed, problems.front().str() + "\n" + print(out)};
  }
  if (std::optional<std::string> problem = detail::round_trip_problem(out)) {
    return {Kind::round_trip, *problem};
  }
  try {
    if (std::optional<std::string> problem =
            detail::behaviour_problem(c.module, out, options, result.compared)) {
      return {Kind::behaviour, *problem};
    }
  } catch (const std::exception& error) {
    return {Kind::unexpected, std::string("while comparing results: ") + error.what()};
  }
  return result;
}

// ---- generating cases --------------------------------------------------------------------

/// Random choices from the fuzzer's bytes, then, when they run out, from a generator seeded
/// by them: small byte changes change single choices.
class ByteChooser {
public:
  ByteChooser(const std::uint8_t* data, std::size_t size, std::uint64_t seed)
      : data_(data), size_(size), rng_(seed) {}
  explicit ByteChooser(std::uint64_t seed) : ByteChooser(nullptr, 0, seed) {}

  /// A number in [0, n).
  int pick(int n) {
    if (n <= 1) {
      return 0;
    }
    if (pos_ < size_) {
      return data_[pos_++] % n;
    }
    return static_cast<int>(rng_() % static_cast<std::uint64_t>(n));
  }
  bool chance(int percent) { return pick(100) < percent; }

private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::mt19937_64 rng_;
};

/// A random pipeline of the standard passes (PrintIR aside: it writes to a stream), with
/// nested sequentials (some with their own opt_level), and a random context: opt level 0
/// to 3, sometimes a disabled or a required pass, and UnrollLoop's configuration. The names
/// come from a registry of their own, so that a seed draws the same pipeline whatever
/// passes a program (a test that registers a deliberately wrong one) has added globally.
inline PipelineRun random_pipeline(ByteChooser& choose) {
  static const std::vector<std::string> names = [] {
    PassRegistry standard;
    passes::register_standard_passes(standard);
    std::vector<std::string> kept;
    for (const std::string& name : standard.names()) {
      if (name != "PrintIR") {
        kept.push_back(name);
      }
    }
    return kept;
  }();
  const auto any_name = [&] {
    return names[static_cast<std::size_t>(choose.pick(static_cast<int>(names.size())))];
  };
  std::function<std::string(int)> list = [&](int depth) {
    std::string out;
    for (int k = 1 + choose.pick(depth == 0 ? 6 : 3); k-- > 0;) {
      if (!out.empty()) {
        out += ",";
      }
      if (depth < 2 && choose.chance(12)) {
        std::string options;
        if (choose.chance(50)) {
          options = "{opt_level=" + std::to_string(choose.pick(4)) + "}";
        }
        out += "sequential" + options + "(" + list(depth + 1) + ")";
      } else {
        out += any_name();
      }
    }
    return out;
  };
  PipelineRun run;
  run.pipeline = list(0);
  run.opt_level = choose.pick(4);
  if (choose.chance(10)) {
    run.disabled.push_back(any_name());
  }
  if (choose.chance(10)) {
    run.required.push_back(any_name());
  }
  if (choose.chance(30)) {
    static const char* const extents[] = {"0", "1", "4", "16", "100"};
    run.config.emplace_back(std::string(passes::unroll_max_extent_key), extents[choose.pick(5)]);
  }
  if (choose.chance(10)) {
    run.config.emplace_back(std::string(passes::unroll_strict_key), "true");
  }
  return run;
}

/// A case from the fuzzer's bytes (or a seed): a generated module, and a random pipeline.
/// One seed in three gives a ScopedTextGenerator module (lets, closures and sharing in if
/// branches); the others a RandomModuleGenerator module (graph and tensor functions, loops
/// of every kind), well typed and with tensor indices in bounds so that it runs, read back
/// from its printed text as a saved case would be.
inline DiffCase random_case(const std::uint8_t* data, std::size_t size) {
  std::uint64_t seed = 0;
  for (std::size_t i = 0; i < size && i < 8; ++i) {
    seed = seed << 8U | data[i];
  }
  const std::size_t skip = std::min<std::size_t>(size, 8);
  ByteChooser choose(data + skip, size - skip, seed ^ 0x9e3779b97f4a7c15ULL);
  const int depth = 1 + static_cast<int>(seed / 3 % 5);
  if (seed % 3 == 0) {
    IRModule parsed = parse_module(ScopedTextGenerator(seed).module(depth), "scoped.ctir");
    return DiffCase{std::move(parsed), random_pipeline(choose)};
  }
  RandomModuleGenerator generator(seed, {.in_bounds = true, .well_typed = true});
  const IRModule generated = generator.module(depth);
  return DiffCase{parse_module(print(generated), "generated.ctir"), random_pipeline(choose)};
}

inline DiffCase random_case(std::uint64_t seed) {
  std::uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<std::uint8_t>(seed >> (56 - 8 * i));
  }
  return random_case(bytes, 8);
}

// ---- minimizing --------------------------------------------------------------------------

namespace detail {

/// The top-level elements of a pipeline string (commas outside parentheses and braces).
inline std::vector<std::string> pipeline_elements(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      if (i > start) {
        out.emplace_back(text.substr(start, i - start));
      }
      start = i + 1;
    } else if (text[i] == '(' || text[i] == '{') {
      ++depth;
    } else if (text[i] == ')' || text[i] == '}') {
      --depth;
    }
  }
  return out;
}

/// Simpler pipelines than `run`: one element removed, a sequential replaced by its
/// contents, a context setting dropped, a lower opt level.
inline std::vector<PipelineRun> simpler_pipelines(const PipelineRun& run) {
  std::vector<PipelineRun> out;
  const std::vector<std::string> elements = pipeline_elements(run.pipeline);
  for (std::size_t i = 0; i < elements.size() && elements.size() > 1; ++i) {
    std::vector<std::string> rest = elements;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
    PipelineRun simpler = run;
    simpler.pipeline = join(rest);
    out.push_back(simpler);
  }
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string& element = elements[i];
    if (element.starts_with("sequential")) {
      const std::size_t open = element.find('(');
      std::vector<std::string> flat = elements;
      flat[i] = element.substr(open + 1, element.size() - open - 2);
      PipelineRun simpler = run;
      simpler.pipeline = join(flat);
      if (!flat[i].empty()) {
        out.push_back(simpler);
      }
    }
  }
  for (std::size_t i = 0; i < run.config.size(); ++i) {
    PipelineRun simpler = run;
    simpler.config.erase(simpler.config.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(simpler);
  }
  if (!run.disabled.empty()) {
    PipelineRun simpler = run;
    simpler.disabled.clear();
    out.push_back(simpler);
  }
  if (!run.required.empty()) {
    PipelineRun simpler = run;
    simpler.required.clear();
    out.push_back(simpler);
  }
  if (run.opt_level > 0) {
    PipelineRun simpler = run;
    --simpler.opt_level;
    out.push_back(simpler);
  }
  return out;
}

/// The module without function `index`.
inline IRModule without_function(const IRModule& module, std::size_t index) {
  IRModule out;
  for (std::size_t i = 0; i < module.size(); ++i) {
    if (i != index) {
      out.add(module.global_at(i)->name, module.function_at(i));
    }
  }
  return out;
}

/// `module` with the `target`-th candidate simplification applied (counted over every
/// node the map visits): a statement dropped from a block, an if replaced by one branch,
/// a let replaced by its body, a call replaced by an argument. `count` says how many
/// candidates there are.
inline IRModule simplify_nth(const IRModule& module, std::size_t target, std::size_t& count) {
  count = 0;
  const auto hit = [&] { return count++ == target; };
  IRModule out;
  for (std::size_t i = 0; i < module.size(); ++i) {
    const BaseFunc function = module.function_at(i);
    BaseFunc changed = function;
    if (function.as<PrimFuncNode>() != nullptr) {
      changed = map(downcast<PrimFuncNode>(function), on<SeqStmt>([&](const SeqStmt& seq) -> Stmt {
                      for (std::size_t k = 0; k < seq->seq.size(); ++k) {
                        if (seq->seq.size() > 1 && hit()) {
                          std::vector<Stmt> rest(seq->seq.begin(), seq->seq.end());
                          rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
                          return SeqStmt::make(std::move(rest));
                        }
                      }
                      return seq;
                    }),
                    on<IfThenElse>([&](const IfThenElse& s) -> Stmt {
                      if (hit()) {
                        return s->then_case;
                      }
                      return s;
                    }));
    } else if (function.as<FunctionNode>() != nullptr) {
      changed = map(downcast<FunctionNode>(function),
                    on<Let>([&](const Let& let) -> Expr { return hit() ? let->body : Expr(let); }),
                    on<If>([&](const If& e) -> Expr {
                      if (hit()) {
                        return e->then_branch;
                      }
                      return hit() ? e->else_branch : Expr(e);
                    }),
                    on<Call>([&](const Call& call) -> Expr {
                      for (const Expr& arg : call->args) {
                        if (hit()) {
                          return arg;
                        }
                      }
                      return call;
                    }));
    }
    out.add(module.global_at(i)->name, changed);
  }
  return out;
}

} // namespace detail

/// A smaller case that fails the same way: the pipeline shrunk first (elements removed,
/// sequentials flattened, settings dropped), then the module (functions removed, then
/// statements, branches, lets and calls replaced by a part), each step kept only when the
/// check still fails with the same kind of failure. The module is kept as it reads back
/// from its printed text.
inline DiffCase minimize(DiffCase c, DiffResult::Kind kind, const DiffOptions& options = {},
                         int max_checks = 2000) {
  int checks = 0;
  const auto still_fails = [&](const DiffCase& candidate) {
    ++checks;
    try {
      return check_case(candidate, options).kind == kind;
    } catch (const std::exception&) {
      return false;
    }
  };
  for (bool progress = true; progress && checks < max_checks;) {
    progress = false;
    for (const PipelineRun& run : detail::simpler_pipelines(c.run)) {
      if (still_fails({c.module, run})) {
        c.run = run;
        progress = true;
        break;
      }
    }
  }
  for (bool progress = true; progress && checks < max_checks;) {
    progress = false;
    for (std::size_t i = 0; i < c.module.size() && c.module.size() > 1; ++i) {
      const IRModule smaller = detail::without_function(c.module, i);
      if (still_fails({smaller, c.run})) {
        c.module = smaller;
        progress = true;
        break;
      }
    }
  }
  for (bool progress = true; progress && checks < max_checks;) {
    progress = false;
    std::size_t count = 0;
    detail::simplify_nth(c.module, static_cast<std::size_t>(-1), count);
    for (std::size_t target = 0; target < count && checks < max_checks; ++target) {
      std::size_t ignored = 0;
      IRModule smaller;
      try {
        smaller = parse_module(print(detail::simplify_nth(c.module, target, ignored)), "min");
      } catch (const Error&) {
        continue;
      }
      if (still_fails({smaller, c.run})) {
        c.module = smaller;
        progress = true;
        break;
      }
    }
  }
  return c;
}

} // namespace ctir::testing
