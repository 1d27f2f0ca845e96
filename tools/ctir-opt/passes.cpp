// The passes ctir-opt can run: every pass the library defines, registered by name when the
// program starts (ctir-opt holds no pass of its own, but one for its tests, see below).
#include "passes.hpp"

#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <cstdlib>
#include <cstring>

namespace ctir_opt {
namespace {

/// The environment variable that registers TestBreakIR, to test what --verify-each and
/// --reproducer do when a pass breaks the IR (no standard pass is known to).
constexpr const char* break_ir_variable = "CTIR_OPT_TEST_BREAK_IR";

/// Breaks the IR on purpose: the body of every graph-level function becomes a use of a
/// variable `%broken` that is defined nowhere.
struct TestBreakIR {
  ctir::PassInfo info() const {
    return {.name = "TestBreakIR",
            .opt_level = 0,
            .description = "for ctir-opt's tests: makes every graph-level function use an "
                           "undefined variable"};
  }
  ctir::IRModule transform_module(ctir::IRModule mod, const ctir::PassContext&) const {
    ctir::IRModule out;
    for (std::size_t i = 0; i < mod.size(); ++i) {
      ctir::BaseFunc function = mod.function_at(i);
      if (const auto* graph = function.as<ctir::FunctionNode>()) {
        function = ctir::Function::make(graph->params, ctir::Var::make("broken"), graph->ret_type,
                                        graph->attrs, graph->name);
      }
      out.add(mod.global_at(i)->name, function);
    }
    return out;
  }
};

} // namespace

void register_passes() {
  ctir::passes::register_standard_passes();
  if (const char* value = std::getenv(break_ir_variable);
      value != nullptr && std::strcmp(value, "1") == 0 &&
      !ctir::PassRegistry::global().contains("TestBreakIR")) {
    ctir::PassRegistry::global().add<TestBreakIR>();
  }
}

} // namespace ctir_opt
