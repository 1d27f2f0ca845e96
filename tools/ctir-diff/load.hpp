// ctir-diff's inputs: a module read and parsed from a file or standard input.
#pragma once

#include <ctir/ir/module.hpp>

#include <stdexcept>
#include <string>

namespace ctir_diff {

/// A module and the name it was read from (the path as given, or `<stdin>`).
struct LoadedModule {
  std::string name;
  ctir::IRModule module;
};

/// A file that cannot be read; `what()` names it and says why.
class LoadError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads and parses `path` ("-": standard input). Throws LoadError, or ctir::ParseError
/// (`file:line:column: error: ...`).
LoadedModule load_module(const std::string& path);

} // namespace ctir_diff
