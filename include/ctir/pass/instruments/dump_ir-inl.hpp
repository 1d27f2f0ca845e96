// Definitions of <ctir/pass/instruments/dump_ir.hpp>.
#pragma once

#include <ctir/pass/instruments/dump_ir.hpp>

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

struct DumpIRInstrument::State {
  struct Open {
    std::string name;
    IRModule input;
  };
  std::filesystem::path directory;
  DumpIROptions options;
  std::size_t next = 0;
  std::optional<IRModule> last_written;
  std::vector<Open> open;
  std::vector<std::filesystem::path> files;
};

CTIR_INLINE DumpIRInstrument::DumpIRInstrument(std::filesystem::path directory,
                                               DumpIROptions options)
    : state_(std::make_shared<State>()) {
  state_->directory = std::move(directory);
  state_->options = options;
}

CTIR_INLINE void DumpIRInstrument::exit_pass_ctx() const noexcept { state_->open.clear(); }

CTIR_INLINE void DumpIRInstrument::run_before_pass(const IRModule& mod,
                                                   const PassInfo& info) const {
  State& state = *state_;
  if (!state.last_written || !state.last_written->same_as(mod)) {
    const std::string file =
        state.next == 0 ? std::string("before") : "before_" + file_name_part(info.name);
    write(file, "# ctir IR before pass " + std::string(info.name) + "\n", mod);
  }
  state.open.push_back({std::string(info.name), mod});
}

CTIR_INLINE void DumpIRInstrument::run_after_pass(const IRModule& mod, const PassInfo& info) const {
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

CTIR_INLINE void DumpIRInstrument::run_after_pass_failed(const IRModule&, const PassInfo& info,
                                                         const Error&) const {
  State& state = *state_;
  for (std::size_t i = state.open.size(); i-- > 0;) {
    if (state.open[i].name == info.name) {
      state.open.resize(i);
      break;
    }
  }
}

CTIR_INLINE const std::filesystem::path& DumpIRInstrument::directory() const noexcept {
  return state_->directory;
}

CTIR_INLINE const std::vector<std::filesystem::path>& DumpIRInstrument::files() const noexcept {
  return state_->files;
}

CTIR_INLINE std::string DumpIRInstrument::file_name_part(std::string_view name) {
  std::string part;
  for (char c : name) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
    part += safe ? c : '_';
  }
  if (part.empty() || part == "." || part == "..") {
    part = "pass";
  }
  return part;
}

CTIR_INLINE void DumpIRInstrument::write(const std::string& what, const std::string& header,
                                         const IRModule& mod) const {
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

} // namespace ctir
