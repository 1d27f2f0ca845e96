// ctir-opt --run: evaluates a function of the module on random inputs and prints them.
#include "run.hpp"

#include "backend.hpp"
#include "diagnostics.hpp"

#include <ctir/core/detail/names.hpp>
#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/eval/random_inputs.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/text/detail/lexer.hpp> // skip_byte_order_mark
#include <ctir/text/diagnostic.hpp>
#include <ctir/text/printer.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir_opt {
namespace {

std::vector<std::string> function_names(const ctir::IRModule& mod) {
  std::vector<std::string> names;
  for (const auto& [global, function] : mod) {
    names.push_back(global->name);
  }
  return names;
}

/// `(%x: Tensor[(2, 3), float32])`: a parameter as its function declares it.
std::string describe_param(const ctir::Var& param) {
  std::string text = "(%" + param->name;
  if (param->ty.defined()) {
    text += ": " + ctir::type_str(param->ty);
  }
  return text + ")";
}

/// Line `line` (1-based) of `text`, without its newline; nullopt past the end.
std::optional<std::string_view> line_of(std::string_view text, std::uint32_t line) {
  // The parser skips a leading byte-order mark, so its columns count from after it: shown
  // with the line, the mark would push the caret one place right.
  text = ctir::detail::skip_byte_order_mark(text);
  std::size_t begin = 0;
  for (std::uint32_t k = 1; k < line; ++k) {
    const std::size_t newline = text.find('\n', begin);
    if (newline == std::string_view::npos) {
      return std::nullopt;
    }
    begin = newline + 1;
  }
  if (begin > text.size() || (begin == text.size() && line > 1)) {
    return std::nullopt;
  }
  return ctir::detail::source_line_at(text, begin).first;
}

} // namespace

void check_run_function(const ctir::IRModule& mod, const std::string& name,
                        const std::string& input_name) {
  if (mod.contains(name)) {
    return;
  }
  std::vector<std::string> names = function_names(mod);
  std::string message = "--run: " + input_name + " defines no function '@" + name + "'";
  std::vector<std::string> nearest = ctir::detail::nearest_names(name, names);
  if (!nearest.empty()) {
    for (std::string& candidate : nearest) {
      candidate.insert(0, "@");
    }
    message += ctir::detail::did_you_mean(nearest);
  } else if (names.empty()) {
    message += " (it defines no function at all)";
  } else {
    for (std::string& candidate : names) {
      candidate.insert(0, "@");
    }
    message += " (it defines " + ctir::detail::quoted_list(names) + ")";
  }
  throw RunError(message);
}

void check_run_function_kept(const ctir::IRModule& mod, const std::string& name,
                             const std::string& entry_functions) {
  if (!mod.contains(name)) {
    throw RunError("--run: the pipeline removed the function '@" + name +
                   "' (RemoveUnusedFunctions keeps only what the entry functions '" +
                   entry_functions + "' reach; --config transform.entry_functions=" +
                   entry_functions + "," + name + " keeps it too)");
  }
}

void run_function(const ctir::IRModule& mod, const std::string& name, std::uint64_t seed,
                  std::ostream& out, bool compiled) {
  const ctir::BaseFunc function = mod.lookup(name);
  const auto* prim = function.as<ctir::PrimFuncNode>();
  const auto* graph = function.as<ctir::FunctionNode>();
  const std::vector<ctir::Var> no_params;
  const std::vector<ctir::Var>& params =
      prim != nullptr ? prim->params : (graph != nullptr ? graph->params : no_params);

  out << "run @" << name << " with inputs random:" << seed << '\n' << std::flush;
  std::vector<ctir::eval::Value> inputs = ctir::eval::random_inputs(function, seed);
  std::string text;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    text += "input " + std::to_string(k) + " ";
    if (k < params.size() && params[k].defined()) {
      text += describe_param(params[k]) + " ";
    }
    text += "= " + ctir::eval::to_string(inputs[k]) + "\n";
  }
  out << text << std::flush;

  std::vector<ctir::eval::Value> outputs;
  if (compiled) {
    outputs = run_compiled(mod, name, std::move(inputs));
  } else {
    ctir::eval::Interpreter interpreter(mod);
    outputs = interpreter.call(name, std::move(inputs));
  }
  text.clear();
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    text += "output " + std::to_string(k) + " ";
    // A tensor-level function's outputs are its parameters' final values.
    if (prim != nullptr && k < params.size() && params[k].defined()) {
      text += describe_param(params[k]) + " ";
    }
    text += "= " + ctir::eval::to_string(outputs[k]) + "\n";
  }
  out << text << std::flush;
}

std::string describe_eval_error(const ctir::eval::EvalError& error, const InputText& input,
                                const ctir::IRModule& mod) {
  const ctir::Span& span = error.span();
  std::string text;
  if (span.defined()) {
    // `file:line:column: error: ...` already: reported as the parser reports its errors.
    text = error.what();
    if (text.empty() || text.back() != '\n') {
      text += '\n';
    }
    if (span.file && *span.file == input.name) {
      if (const std::optional<std::string_view> line = line_of(input.text, span.line)) {
        text += ctir::detail::displayed_line(*line) + '\n';
        text += ctir::detail::caret_line(*line, span.column == 0 ? 0 : span.column - 1U) + '\n';
      }
    }
    return text;
  }
  text = format_error(error.what());
  if (error.node().defined()) {
    text += ctir::print_with_ranges(mod).underline(error.node().get(), 2);
  }
  return text;
}

} // namespace ctir_opt
