// The print-IR instrument: prints the module before and/or after the passes it is told to.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/text/printer.hpp>

#include <initializer_list>
#include <iostream>
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
  PassFilter(std::initializer_list<std::string_view> names) {
    for (std::string_view name : names) {
      names_.emplace_back(name);
    }
  }
  explicit PassFilter(std::vector<std::string> names) : names_(std::move(names)) {}

  static PassFilter all() {
    PassFilter filter;
    filter.all_ = true;
    return filter;
  }
  static PassFilter none() { return {}; }
  /// `"all"` or `"*"`: every pass; `""`: none; otherwise pass names separated by commas
  /// (blanks around names are ignored).
  static PassFilter parse(std::string_view text) {
    const auto trim = [](std::string_view s) {
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
      }
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
      }
      return s;
    };
    text = trim(text);
    if (text == "all" || text == "*") {
      return all();
    }
    PassFilter filter;
    while (!text.empty()) {
      const std::size_t comma = text.find(',');
      const std::string_view name = trim(text.substr(0, comma));
      if (!name.empty()) {
        filter.names_.emplace_back(name);
      }
      text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    }
    return filter;
  }

  /// Whether the filter selects the pass named `name`.
  bool matches(std::string_view name) const noexcept {
    if (all_) {
      return true;
    }
    for (const std::string& candidate : names_) {
      if (candidate == name) {
        return true;
      }
    }
    return false;
  }
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
inline std::string module_text_or_reason(const IRModule& mod) {
  try {
    return print(mod);
  } catch (const Error& error) {
    return std::string("# cannot print the module: ") + error.what() + "\n";
  }
}

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
/// The stream must outlive the instrument (the default is std::cerr).
class PrintIRInstrument {
public:
  /// Prints before the passes `before` selects and after those `after` selects.
  explicit PrintIRInstrument(PassFilter before, PassFilter after = {},
                             std::ostream& out = std::cerr)
      : before_(std::move(before)), after_(std::move(after)), out_(&out) {}

  /// Before every pass.
  static PrintIRInstrument before_all(std::ostream& out = std::cerr) {
    return PrintIRInstrument(PassFilter::all(), {}, out);
  }
  /// After every pass.
  static PrintIRInstrument after_all(std::ostream& out = std::cerr) {
    return PrintIRInstrument({}, PassFilter::all(), out);
  }
  /// Before the passes `passes` selects.
  static PrintIRInstrument before(PassFilter passes, std::ostream& out = std::cerr) {
    return PrintIRInstrument(std::move(passes), {}, out);
  }
  /// After the passes `passes` selects.
  static PrintIRInstrument after(PassFilter passes, std::ostream& out = std::cerr) {
    return PrintIRInstrument({}, std::move(passes), out);
  }

  static std::string_view name() noexcept { return "PrintBeforeAfter"; }

  void run_before_pass(const IRModule& mod, const PassInfo& info) const {
    if (before_.matches(info.name)) {
      write("before", mod, info);
    }
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) const {
    if (after_.matches(info.name)) {
      write("after", mod, info);
    }
  }

  const PassFilter& before_filter() const noexcept { return before_; }
  const PassFilter& after_filter() const noexcept { return after_; }

private:
  void write(std::string_view when, const IRModule& mod, const PassInfo& info) const {
    std::string text = "# IR ";
    text += when;
    text += " pass ";
    text += info.name;
    text += '\n';
    text += detail::module_text_or_reason(mod);
    *out_ << text;
    out_->flush(); // the output is most wanted right before a crash
  }

  PassFilter before_;
  PassFilter after_;
  std::ostream* out_;
};

} // namespace ctir
