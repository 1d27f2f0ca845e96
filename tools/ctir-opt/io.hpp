// ctir-opt's input and output: a file or the standard streams, read and written whole.
#pragma once

#include <stdexcept>
#include <string>

namespace ctir_opt {

/// A file that cannot be read or written; `what()` names it and says why.
class IoError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Text read from a file or standard input, with the name diagnostics use for it.
struct InputText {
  std::string text;
  /// The path as given, or `<stdin>`.
  std::string name;
};

/// Reads `path` whole ("-": standard input). Throws IoError.
InputText read_input(const std::string& path);

/// Writes `text` to `path` ("-": standard output), replacing the file. Throws IoError.
void write_output(const std::string& path, const std::string& text);

} // namespace ctir_opt
