// ctir-diff's inputs: a module read and parsed from a file or standard input.
#include "load.hpp"

#include <ctir/text/parser.hpp>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <system_error>

namespace ctir_diff {
namespace {

std::string reason(int error) { return std::error_code(error, std::generic_category()).message(); }

std::string read_file(const std::string& path) {
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw LoadError("cannot read '" + path + "': " + reason(errno));
  }
  std::string text;
  char buffer[1 << 16];
  std::size_t count = 0;
  do {
    count = std::fread(buffer, 1, sizeof(buffer), file);
    text.append(buffer, count);
  } while (count == sizeof(buffer));
  const bool failed = std::ferror(file) != 0;
  const int error = errno != 0 ? errno : EIO;
  std::fclose(file);
  if (failed) {
    throw LoadError("cannot read '" + path + "': " + reason(error)); // a folder: EISDIR
  }
  return text;
}

} // namespace

LoadedModule load_module(const std::string& path) {
  if (path == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) {
      throw LoadError("cannot read the standard input");
    }
    return {"<stdin>", ctir::parse_module(text, "<stdin>")};
  }
  const std::string text = read_file(path);
  return {path, ctir::parse_module(text, path)};
}

} // namespace ctir_diff
