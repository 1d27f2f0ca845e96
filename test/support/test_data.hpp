// Where the tests' input files are (test/data), and reading one whole.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace ctir::testing {

/// test/data: the build passes its path in CTIR_TEST_DATA_DIR.
inline std::filesystem::path test_data_dir() {
#ifdef CTIR_TEST_DATA_DIR
  return std::filesystem::path(CTIR_TEST_DATA_DIR);
#else
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data";
#endif
}

/// The contents of a file; the test stops (REQUIRE) when it cannot be opened.
inline std::string read_test_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace ctir::testing
