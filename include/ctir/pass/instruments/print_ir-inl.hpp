// Definitions of <ctir/pass/instruments/print_ir.hpp>.
#pragma once

#include <ctir/pass/instruments/print_ir.hpp>

#include <ctir/core/error.hpp>
#include <ctir/text/printer.hpp>

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

CTIR_INLINE PassFilter::PassFilter(std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    names_.emplace_back(name);
  }
}

CTIR_INLINE PassFilter::PassFilter(std::vector<std::string> names) : names_(std::move(names)) {}

CTIR_INLINE PassFilter PassFilter::all() {
  PassFilter filter;
  filter.all_ = true;
  return filter;
}

CTIR_INLINE PassFilter PassFilter::parse(std::string_view text) {
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

CTIR_INLINE bool PassFilter::matches(std::string_view name) const noexcept {
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

namespace detail {

CTIR_INLINE std::string module_text_or_reason(const IRModule& mod) {
  try {
    return print(mod);
  } catch (const Error& error) {
    return std::string("# cannot print the module: ") + error.what() + "\n";
  }
}

CTIR_INLINE void write_and_flush(std::ostream* out, std::string_view text) {
  if (out != nullptr) {
    *out << text;
    out->flush();
  } else {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
}

} // namespace detail

CTIR_INLINE PrintIRInstrument::PrintIRInstrument(PassFilter before, PassFilter after)
    : before_(std::move(before)), after_(std::move(after)), out_(nullptr) {}

CTIR_INLINE PrintIRInstrument::PrintIRInstrument(PassFilter before, PassFilter after,
                                                 std::ostream& out)
    : before_(std::move(before)), after_(std::move(after)), out_(&out) {}

CTIR_INLINE PrintIRInstrument PrintIRInstrument::before_all() {
  return PrintIRInstrument(PassFilter::all(), {});
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::before_all(std::ostream& out) {
  return PrintIRInstrument(PassFilter::all(), {}, out);
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::after_all() {
  return PrintIRInstrument({}, PassFilter::all());
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::after_all(std::ostream& out) {
  return PrintIRInstrument({}, PassFilter::all(), out);
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::before(PassFilter passes) {
  return PrintIRInstrument(std::move(passes), {});
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::before(PassFilter passes, std::ostream& out) {
  return PrintIRInstrument(std::move(passes), {}, out);
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::after(PassFilter passes) {
  return PrintIRInstrument({}, std::move(passes));
}
CTIR_INLINE PrintIRInstrument PrintIRInstrument::after(PassFilter passes, std::ostream& out) {
  return PrintIRInstrument({}, std::move(passes), out);
}

CTIR_INLINE void PrintIRInstrument::run_before_pass(const IRModule& mod,
                                                    const PassInfo& info) const {
  if (before_.matches(info.name)) {
    write("before", mod, info);
  }
}

CTIR_INLINE void PrintIRInstrument::run_after_pass(const IRModule& mod,
                                                   const PassInfo& info) const {
  if (after_.matches(info.name)) {
    write("after", mod, info);
  }
}

CTIR_INLINE void PrintIRInstrument::write(std::string_view when, const IRModule& mod,
                                          const PassInfo& info) const {
  std::string text = "# IR ";
  text += when;
  text += " pass ";
  text += info.name;
  text += '\n';
  text += detail::module_text_or_reason(mod);
  detail::write_and_flush(out_, text);
}

} // namespace ctir
