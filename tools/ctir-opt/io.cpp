// ctir-opt's input and output: a file or the standard streams, read and written whole.
#include "io.hpp"

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <system_error>

namespace ctir_opt {
namespace {

std::string reason(int error) { return std::error_code(error, std::generic_category()).message(); }

/// Closes a FILE at the end of a scope.
struct FileCloser {
  std::FILE* file;
  ~FileCloser() {
    if (file != nullptr) {
      std::fclose(file);
    }
  }
};

} // namespace

InputText read_input(const std::string& path) {
  if (path == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) {
      throw IoError("cannot read the standard input");
    }
    return {std::move(text), "<stdin>"};
  }
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw IoError("cannot read '" + path + "': " + reason(errno));
  }
  FileCloser closer{file};
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const std::size_t count = std::fread(buffer, 1, sizeof(buffer), file);
    text.append(buffer, count);
    if (count < sizeof(buffer)) {
      break;
    }
  }
  if (std::ferror(file) != 0) {
    // Reading a folder fails here (EISDIR), not at fopen.
    throw IoError("cannot read '" + path + "': " + reason(errno != 0 ? errno : EIO));
  }
  return {std::move(text), path};
}

void write_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    std::cout.flush();
    if (!std::cout) {
      throw IoError("cannot write the standard output");
    }
    return;
  }
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    throw IoError("cannot write '" + path + "': " + reason(errno));
  }
  FileCloser closer{file};
  const std::size_t written = std::fwrite(text.data(), 1, text.size(), file);
  const int flushed = std::fflush(file);
  if (written != text.size() || flushed != 0) {
    throw IoError("cannot write '" + path + "': " + reason(errno != 0 ? errno : EIO));
  }
}

} // namespace ctir_opt
