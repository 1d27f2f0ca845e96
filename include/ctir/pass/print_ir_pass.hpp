// The PrintIR pass: prints the module where it stands in a pipeline and returns it unchanged.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/options.hpp>
#include <ctir/pass/run.hpp>

#include <ostream>
#include <string>
#include <tuple>

namespace ctir {

/// Prints the module in the text format and returns the very same module object (TVM's
/// `transform.PrintIR`). Registered as `PrintIR` (by register_standard_passes), so pipeline
/// strings can use it:
///
///     InferType,PrintIR{header="after InferType"},FoldConstant
///
/// Options: `header` (printed first as a `# header` comment line when not empty) and
/// `stream` (`stderr`, the default, or `stdout`). In C++ it can also print to any stream,
/// which must outlive the pass: `PrintIR(os, "after InferType")`.
///
/// Its opt_level is 0, so a sequential always runs it; to print around passes without
/// changing the pipeline, use PrintIRInstrument.
struct PrintIR : pass_interface<PrintIR> {
  std::string header;
  std::string stream = "stderr";
  /// When set, the stream printed to (`stream` is then not consulted).
  std::ostream* out = nullptr;

  PrintIR() = default;
  explicit PrintIR(std::ostream& os, std::string header_text = {});

  static constexpr PassInfo info() {
    return {.name = "PrintIR",
            .opt_level = 0,
            .description = "prints the module (header=..., stream=stderr|stdout)"};
  }
  static constexpr auto pass_options() {
    return std::tuple{pass_option("header", &PrintIR::header, "a comment line printed first"),
                      pass_option("stream", &PrintIR::stream, "stderr or stdout")};
  }

  /// Prints `mod` and returns it. Throws Error for a `stream` other than stderr and stdout.
  IRModule transform_module(IRModule mod, const PassContext&) const;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/print_ir_pass-inl.hpp>
#endif
