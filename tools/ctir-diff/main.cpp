// ctir-diff: tells whether two modules in the ctir text format are structurally equal.
#include "load.hpp"
#include "options.hpp"
#include "report.hpp"

#include <ctir/text/diagnostic.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctir_diff {
namespace {

std::string error_line(std::string_view message) {
  if (message.starts_with("ctir: ")) {
    message.remove_prefix(6);
  }
  return "ctir-diff: error: " + std::string(message) + "\n";
}

int run(const std::vector<std::string_view>& args) {
  Options options;
  try {
    options = parse_command_line(args);
  } catch (const UsageError& error) {
    std::cerr << error_line(error.what()) << "Run 'ctir-diff --help' for usage.\n";
    return exit_error;
  }
  if (options.help) {
    std::cout << usage_text();
    return exit_equal;
  }
  std::optional<LoadedModule> lhs;
  std::optional<LoadedModule> rhs;
  try {
    lhs = load_module(options.lhs);
    rhs = load_module(options.rhs);
  } catch (const ctir::ParseError& error) {
    std::cerr << error.what() << '\n';
    return exit_error;
  } catch (const std::exception& error) {
    std::cerr << error_line(error.what());
    return exit_error;
  }
  const std::optional<ctir::StructuralMismatch> mismatch = ctir::find_structural_mismatch(
      lhs->module, rhs->module, {.map_free_vars = options.map_free_vars});
  if (!mismatch) {
    return exit_equal;
  }
  std::cout << describe_mismatch(*lhs, *rhs, *mismatch);
  return exit_different;
}

} // namespace
} // namespace ctir_diff

int main(int argc, char** argv) {
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    return ctir_diff::run(args);
  } catch (const std::exception& error) {
    std::cerr << "ctir-diff: error: " << error.what() << '\n';
  } catch (...) {
    std::cerr << "ctir-diff: error: unknown exception\n";
  }
  return ctir_diff::exit_error;
}
