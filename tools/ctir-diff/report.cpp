// ctir-diff's report of the first place where two modules differ.
#include "report.hpp"

#include <ctir/core/error.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/access_path.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace ctir_diff {
namespace {

/// The module position a path starts with: `<root>.functions[i]` or `<root>.globals[i]`.
struct FunctionStep {
  std::size_t index;
  bool in_function; ///< under functions[i] (else globals[i]: the function's name)
};

std::optional<FunctionStep> function_step(const ctir::AccessPath& path) {
  const std::span<const ctir::AccessPath::Step> steps = path.steps();
  if (steps.size() < 2 || steps[0].kind != ctir::AccessPath::Step::Kind::field ||
      steps[1].kind != ctir::AccessPath::Step::Kind::index) {
    return std::nullopt;
  }
  if (steps[0].name != "functions" && steps[0].name != "globals") {
    return std::nullopt;
  }
  return FunctionStep{steps[1].index, steps[0].name == "functions"};
}

/// `@main.body.args[0]` for a path inside function `main`, else the path from the root.
std::string location(const ctir::IRModule& module, const ctir::AccessPath& path) {
  const std::optional<FunctionStep> step = function_step(path);
  if (!step || !step->in_function || step->index >= module.size()) {
    return path.str();
  }
  std::string out = "@" + module.global_at(step->index)->name;
  const std::span<const ctir::AccessPath::Step> steps = path.steps();
  for (std::size_t i = 2; i < steps.size(); ++i) {
    if (steps[i].kind == ctir::AccessPath::Step::Kind::field) {
      out += '.' + steps[i].name;
    } else {
      out += '[' + std::to_string(steps[i].index) + ']';
    }
  }
  return out + "\n  (" + path.str() + ")";
}

/// Function `index` of `module` with the name in its first line underlined (the mismatch
/// is in the module's list of names; a name's first printed place would be a call site).
std::string show_function_name(const ctir::IRModule& module, std::size_t index) {
  const std::string text = ctir::print(module.function_at(index));
  const std::string name = "@" + module.global_at(index)->name;
  const std::size_t line_end = std::min(text.find('\n'), text.size());
  const std::size_t at = text.find(name); // `def @name(` or `prim @name[`: the first one
  if (at >= line_end) {
    return {};
  }
  std::string out =
      text.substr(0, line_end) + "\n" + std::string(at, ' ') + std::string(name.size(), '^') + "\n";
  if (line_end < text.size()) {
    out += text.substr(line_end + 1);
  }
  return out;
}

/// `path` from inside function `functions[i]`: its steps after the first two.
ctir::AccessPath within_function(const ctir::AccessPath& path) {
  ctir::AccessPath inner;
  const std::span<const ctir::AccessPath::Step> steps = path.steps();
  for (std::size_t k = 2; k < steps.size(); ++k) {
    if (steps[k].kind == ctir::AccessPath::Step::Kind::field) {
      inner.push_field(steps[k].name);
    } else {
      inner.push_index(steps[k].index);
    }
  }
  return inner;
}

/// The text of one side: its function with `node` underlined, the lines around `node` in
/// the module, or a one-line description when the node cannot be shown in the text.
std::string show(const ctir::IRModule& module, const ctir::AccessPath& path,
                 const ctir::ObjectRef& node) {
  if (!node.defined()) {
    return "  null\n";
  }
  if (node.same_as(module.node())) {
    // The other module has an element this one lacks: the mismatch is the length.
    return "  (nothing: the module has only " + std::to_string(module.size()) +
           (module.size() == 1 ? " function)\n" : " functions)\n");
  }
  try {
    const std::optional<FunctionStep> step = function_step(path);
    if (step && !step->in_function && step->index < module.size()) {
      if (std::string text = show_function_name(module, step->index); !text.empty()) {
        return text;
      }
    }
    if (step && step->in_function && step->index < module.size()) {
      const ctir::BaseFunc& function = module.function_at(step->index);
      const ctir::PrintedText printed = ctir::print_with_ranges(function);
      // The place the path leads to: a variable at the differing use, not its definition.
      if (const std::optional<ctir::TextRange> range =
              printed.range_at(ctir::ObjectRef(function), within_function(path))) {
        return printed.underline(*range, std::numeric_limits<std::size_t>::max());
      }
    }
    std::string text =
        ctir::print_with_ranges(ctir::ObjectRef(module.node())).underline(node.get());
    if (!text.empty()) {
      return text;
    }
  } catch (const ctir::Error&) {
    // IR the text format cannot show: the description below still names the node.
  }
  return "  " + ctir::detail::structural_short_repr(node.get()) + "\n";
}

} // namespace

std::string describe_mismatch(const LoadedModule& lhs, const LoadedModule& rhs,
                              const ctir::StructuralMismatch& mismatch) {
  std::string out = lhs.name + " and " + rhs.name + " differ: " + mismatch.reason + "\n";
  out += lhs.name + " at " + location(lhs.module, mismatch.lhs_path) + ":\n";
  out += show(lhs.module, mismatch.lhs_path, mismatch.lhs_node);
  out += rhs.name + " at " + location(rhs.module, mismatch.rhs_path) + ":\n";
  out += show(rhs.module, mismatch.rhs_path, mismatch.rhs_node);
  return out;
}

} // namespace ctir_diff
