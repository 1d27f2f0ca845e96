// Definitions of <ctir/pass/print_ir_pass.hpp>.
#pragma once

#include <ctir/pass/print_ir_pass.hpp>

#include <ctir/core/error.hpp>
#include <ctir/pass/instruments/print_ir.hpp>

#include <cstddef>
#include <cstdio>
#include <ostream>
#include <string>
#include <utility>

namespace ctir {

CTIR_INLINE PrintIR::PrintIR(std::ostream& os, std::string header_text)
    : header(std::move(header_text)), out(&os) {}

CTIR_INLINE IRModule PrintIR::transform_module(IRModule mod, const PassContext&) const {
  std::FILE* file = nullptr;
  if (out == nullptr) {
    if (stream == "stderr") {
      file = stderr;
    } else if (stream == "stdout") {
      file = stdout;
    } else {
      throw Error("ctir: PrintIR: stream must be 'stderr' or 'stdout', not '" + stream + "'");
    }
  }
  std::string text;
  if (!header.empty()) {
    text = "# " + header + "\n";
    // A header of several lines stays one comment line, so the output still parses.
    for (std::size_t i = 2; i + 1 < text.size(); ++i) {
      text[i] = text[i] == '\n' ? ' ' : text[i];
    }
  }
  text += detail::module_text_or_reason(mod);
  if (out != nullptr) {
    *out << text;
    out->flush();
  } else {
    std::fwrite(text.data(), 1, text.size(), file);
    std::fflush(file);
  }
  return mod;
}

} // namespace ctir
