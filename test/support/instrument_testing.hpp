// Helpers for the tests of the built-in instruments: a one-operator module, passes that keep
// or change it, a temporary folder and a stream capture.
#pragma once

#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/module_pass.hpp>

#include <filesystem>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>

namespace ctir::testing {

/// `def @main(%x: Tensor[(2), float32]) { <op>(%x) }`
inline IRModule unary_module(const std::string& op) {
  const Var x = Var::make("x", tensor_type({2}, DataType::float32()));
  IRModule mod;
  mod.add("main", Function::make({x}, call(op, {x}), {}, {}, "main"));
  return mod;
}

/// How unary_module("exp") and unary_module("log") print.
inline const std::string exp_text = "def @main(%x: Tensor[(2), float32]) {\n  exp(%x)\n}\n";
inline const std::string log_text = "def @main(%x: Tensor[(2), float32]) {\n  log(%x)\n}\n";

/// A pass that leaves the module alone.
inline auto keep_pass(std::string name) {
  return make_module_pass(PassInfo{.name = std::move(name)}, [](IRModule mod) { return mod; });
}

/// A pass that replaces the module by unary_module("log").
inline auto exp_to_log_pass(std::string name) {
  return make_module_pass(PassInfo{.name = std::move(name)},
                          [](IRModule) { return unary_module("log"); });
}

/// A fresh folder name under the system's temporary folder; the folder (if created) is
/// removed with its files when this object goes.
class TempDir {
public:
  explicit TempDir(const std::string& prefix) {
    std::random_device seed;
    path_ = std::filesystem::temp_directory_path() /
            (prefix + std::to_string(seed()) + "_" + std::to_string(seed()));
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

/// Sends what `stream` receives to a string while it lives.
class Capture {
public:
  explicit Capture(std::ostream& stream) : stream_(stream), old_(stream.rdbuf(buffer_.rdbuf())) {}
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  ~Capture() { stream_.rdbuf(old_); }
  std::string str() const { return buffer_.str(); }

private:
  std::ostream& stream_;
  std::ostringstream buffer_;
  std::streambuf* old_;
};

} // namespace ctir::testing
