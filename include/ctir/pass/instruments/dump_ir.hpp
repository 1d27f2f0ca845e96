// The dump-IR instrument: the module before the first pass and after every pass, as numbered
// .ctir files in a folder.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instruments/print_ir.hpp>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace ctir {

/// Settings of DumpIRInstrument.
struct DumpIROptions {
  /// Skip the file of a pass that returned its input module unchanged (the same object).
  bool skip_unchanged = false;
};

/// Writes the module to numbered files in a folder, one per step of the pipeline:
///
///     000_before.ctir              the module the first pass received
///     001_InferType.ctir           the module after the first pass run
///     002_FoldConstant.ctir        after the second, and so on
///
/// - Every pass run that returns counts, sequentials included (a sequential's file follows
///   those of the passes it ran), in the order the runs end. Passes vetoed by should_run
///   and passes that threw write nothing.
/// - Numbers have at least three digits and never repeat while the instrument lives, so
///   the files sort in pipeline order (up to 999 steps).
/// - When a pass receives a module that is not the last one written (the pipeline was
///   started again on another module), that module is written first, as
///   `NNN_before_<Pass>.ctir`.
/// - Characters of a pass name other than letters, digits, `_`, `-` and `.` become `_`.
/// - Each file starts with a `#` comment saying what it holds, then the module in the text
///   format (a file parses back as the module).
/// - The folder is created when the first file is written; existing files of the same
///   names are replaced, others are left alone.
///
/// A handle: copies share the numbering and the list of files written.
class DumpIRInstrument {
public:
  explicit DumpIRInstrument(std::filesystem::path directory, DumpIROptions options = {})
      : state_(std::make_shared<State>()) {
    state_->directory = std::move(directory);
    state_->options = options;
  }

  static std::string_view name() noexcept { return "DumpIR"; }

  void exit_pass_ctx() const noexcept { state_->open.clear(); }
  void run_before_pass(const IRModule& mod, const PassInfo& info) const {
    State& state = *state_;
    if (!state.last_written || !state.last_written->same_as(mod)) {
      const std::string file =
          state.next == 0 ? std::string("before") : "before_" + file_name_part(info.name);
      write(file, "# ctir IR before pass " + std::string(info.name) + "\n", mod);
    }
    state.open.push_back({std::string(info.name), mod});
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) const {
    State& state = *state_;
    std::optional<IRModule> input;
    for (std::size_t i = state.open.size(); i-- > 0;) {
      if (state.open[i].name == info.name) {
        input = std::move(state.open[i].input);
        state.open.resize(i);
        break;
      }
    }
    if (state.options.skip_unchanged && input && input->same_as(mod)) {
      return;
    }
    write(file_name_part(info.name), "# ctir IR after pass " + std::string(info.name) + "\n", mod);
  }
  void run_after_pass_failed(const IRModule&, const PassInfo& info, const Error&) const {
    State& state = *state_;
    for (std::size_t i = state.open.size(); i-- > 0;) {
      if (state.open[i].name == info.name) {
        state.open.resize(i);
        break;
      }
    }
  }

  const std::filesystem::path& directory() const noexcept { return state_->directory; }
  /// The files written so far, in order.
  const std::vector<std::filesystem::path>& files() const noexcept { return state_->files; }

  /// `name` with every character a file name should not hold replaced by `_`.
  static std::string file_name_part(std::string_view name) {
    std::string part;
    for (char c : name) {
      const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
      part += safe ? c : '_';
    }
    if (part.empty() || part == "." || part == "..") {
      part = "pass";
    }
    return part;
  }

private:
  struct Open {
    std::string name;
    IRModule input;
  };
  struct State {
    std::filesystem::path directory;
    DumpIROptions options;
    std::size_t next = 0;
    std::optional<IRModule> last_written;
    std::vector<Open> open;
    std::vector<std::filesystem::path> files;
  };

  void write(const std::string& what, const std::string& header, const IRModule& mod) const {
    State& state = *state_;
    std::error_code error;
    std::filesystem::create_directories(state.directory, error);
    if (error) {
      throw Error("ctir: DumpIR cannot create the folder '" + state.directory.string() +
                  "': " + error.message());
    }
    char number[32];
    std::snprintf(number, sizeof(number), "%03zu_", state.next);
    const std::filesystem::path path = state.directory / (number + what + ".ctir");
    const std::string text = header + detail::module_text_or_reason(mod);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    file.close();
    if (!file) {
      throw Error("ctir: DumpIR cannot write '" + path.string() + "'");
    }
    ++state.next;
    state.last_written = mod;
    state.files.push_back(path);
  }

  std::shared_ptr<State> state_;
};

} // namespace ctir
