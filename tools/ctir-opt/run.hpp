// ctir-opt --run: evaluates a function of the module on random inputs and prints them.
#pragma once

#include "io.hpp"

#include <ctir/eval/error.hpp>
#include <ctir/ir/module.hpp>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>

namespace ctir_opt {

/// A function --run names that the module does not define; `what()` says which functions
/// come close (or which there are) and, after a pipeline, that a pass removed it.
class RunError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Throws RunError unless `mod`, read from `input_name`, defines the global function `name`.
void check_run_function(const ctir::IRModule& mod, const std::string& name,
                        const std::string& input_name);

/// Throws RunError unless `mod`, the result of the pipeline, still defines `name` (which
/// the input defined); `entry_functions` is the value of transform.entry_functions.
void check_run_function_kept(const ctir::IRModule& mod, const std::string& name,
                             const std::string& entry_functions);

/// Evaluates the global function `name` of `mod` with the reference interpreter on the
/// inputs eval::random_inputs makes from `seed`, and writes to `out`, one line each:
///
///     run @main with inputs random:0
///     input 0 (%x: Tensor[(2, 3), float32]) = Tensor[(2, 3), float32] [[...], [...]]
///     output 0 = Tensor[(2, 4), float32] [[...], [...]]
///
/// Values print as eval::to_string writes them (type, then the elements as the text format
/// writes constants). A graph-level function has one output (a tuple stays one value); a
/// tensor-level one has an output per parameter, its final value, shown with the parameter
/// (`output 1 (%B: Tensor[(%n), float32]) = ...`). The first line and the inputs are
/// written (and flushed) before the function runs, so that they are shown when it fails. Throws
/// eval::EvalError (or ctir::Error) when no input can be made or the function fails.
///
/// With `compiled`, the module is compiled to native code (backend.hpp) and the function
/// runs there; the output has the same format.
void run_function(const ctir::IRModule& mod, const std::string& name, std::uint64_t seed,
                  std::ostream& out, bool compiled = false);

/// The report of an evaluation error. With a source location, its message as it is
/// (`file:line:column: error: ...`) and, when the location is in `input`, the source line
/// with a caret under the column, as the parser reports errors; without, `ctir-opt: error: `
/// and the message, then the printed module `mod` with the node underlined (when it is in
/// it).
std::string describe_eval_error(const ctir::eval::EvalError& error, const InputText& input,
                                const ctir::IRModule& mod);

} // namespace ctir_opt
