// The dump-IR instrument: the module before the first pass and after every pass, as numbered
// .ctir files in a folder.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <filesystem> // std::filesystem::path is part of the instrument's interface
#include <memory>
#include <string>
#include <string_view>
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
  explicit DumpIRInstrument(std::filesystem::path directory, DumpIROptions options = {});

  static std::string_view name() noexcept { return "DumpIR"; }

  void exit_pass_ctx() const noexcept;
  void run_before_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass_failed(const IRModule& mod, const PassInfo& info, const Error& error) const;

  const std::filesystem::path& directory() const noexcept;
  /// The files written so far, in order.
  const std::vector<std::filesystem::path>& files() const noexcept;

  /// `name` with every character a file name should not hold replaced by `_`.
  static std::string file_name_part(std::string_view name);

private:
  struct State;

  void write(const std::string& what, const std::string& header, const IRModule& mod) const;

  std::shared_ptr<State> state_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/dump_ir-inl.hpp>
#endif
