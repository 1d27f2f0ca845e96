// The print-IR instrument: prints the module before and/or after the passes it is told to.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>

#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

/// Which passes an instrument acts on: none, all, or the ones named.
///
///     PassFilter::all()                  every pass (sequentials too)
///     PassFilter{"FoldConstant", "Dce"}  these two
///     PassFilter::parse("all")           from a command line: "all", "*", "" or "A,B"
class PassFilter {
public:
  /// No pass.
  PassFilter() = default;
  /// The passes named (none if the list is empty).
  PassFilter(std::initializer_list<std::string_view> names);
  explicit PassFilter(std::vector<std::string> names);

  static PassFilter all();
  static PassFilter none() { return {}; }
  /// `"all"` or `"*"`: every pass; `""`: none; otherwise pass names separated by commas
  /// (blanks around names are ignored).
  static PassFilter parse(std::string_view text);

  /// Whether the filter selects the pass named `name`.
  bool matches(std::string_view name) const noexcept;
  bool is_all() const noexcept { return all_; }
  bool is_none() const noexcept { return !all_ && names_.empty(); }
  /// The names selected (empty for all() and none()).
  const std::vector<std::string>& names() const noexcept { return names_; }

private:
  bool all_ = false;
  std::vector<std::string> names_;
};

namespace detail {

/// The module's text; IR the text format cannot express becomes a comment saying why
/// (a debugging aid must not stop the pipeline it watches).
std::string module_text_or_reason(const IRModule& mod);

/// Writes `text` to `out` and flushes it, or to the standard error stream when `out` is
/// null (the output of a debugging aid is most wanted right before a crash).
void write_and_flush(std::ostream* out, std::string_view text);

} // namespace detail

/// Prints the module before and/or after chosen passes, each printing headed by a comment
/// line that names the pass, so the output stays valid text format:
///
///     # IR before pass FoldConstant
///     def @main(%x: Tensor[(2), float32]) {
///       exp(%x)
///     }
///
/// TVM's PrintBeforeAll/PrintAfterAll, without changing the pipeline (compare the PrintIR
/// pass). Works as a static instrument and wrapped in an Instrument:
///
///     PassContext ctx{{.instruments = {PrintIRInstrument::after({"FoldConstant"})}}};
///
/// The stream must outlive the instrument (the default is the standard error stream).
class PrintIRInstrument {
public:
  /// Prints before the passes `before` selects and after those `after` selects, to the
  /// standard error stream.
  explicit PrintIRInstrument(PassFilter before, PassFilter after = {});
  /// Prints before the passes `before` selects and after those `after` selects, to `out`.
  explicit PrintIRInstrument(PassFilter before, PassFilter after, std::ostream& out);

  /// Before every pass.
  static PrintIRInstrument before_all();
  static PrintIRInstrument before_all(std::ostream& out);
  /// After every pass.
  static PrintIRInstrument after_all();
  static PrintIRInstrument after_all(std::ostream& out);
  /// Before the passes `passes` selects.
  static PrintIRInstrument before(PassFilter passes);
  static PrintIRInstrument before(PassFilter passes, std::ostream& out);
  /// After the passes `passes` selects.
  static PrintIRInstrument after(PassFilter passes);
  static PrintIRInstrument after(PassFilter passes, std::ostream& out);

  static std::string_view name() noexcept { return "PrintBeforeAfter"; }

  void run_before_pass(const IRModule& mod, const PassInfo& info) const;
  void run_after_pass(const IRModule& mod, const PassInfo& info) const;

  const PassFilter& before_filter() const noexcept { return before_; }
  const PassFilter& after_filter() const noexcept { return after_; }

private:
  void write(std::string_view when, const IRModule& mod, const PassInfo& info) const;

  PassFilter before_;
  PassFilter after_;
  std::ostream* out_; ///< null: the standard error stream
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/instruments/print_ir-inl.hpp>
#endif
