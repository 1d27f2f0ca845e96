// PassInfo: a pass's name, optimisation level, requirements and effects, usable at compile time.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

namespace ctir {

/// A short list of names (required passes, established results, invalidated results)
/// that lives in constant expressions: `{"InferType", "FoldConstant"}`.
///
/// The capacity is fixed so that a PassInfo is a literal type a static pass can return
/// from a `static constexpr info()`; a pass that invalidates more than `capacity` results
/// says so with the wildcard `"*"`.
class NameList {
public:
  static constexpr std::size_t capacity = 8;

  constexpr NameList() noexcept = default;
  constexpr NameList(std::initializer_list<std::string_view> names) {
    for (std::string_view name : names) {
      push_back(name);
    }
  }

  /// Appends a name; throws (a compile error in a constant expression) past `capacity`.
  constexpr void push_back(std::string_view name) {
    if (size_ == capacity) {
      throw Error("ctir: a PassInfo name list holds at most 8 names (use \"*\" in invalidates "
                  "for 'everything')");
    }
    names_[size_++] = name;
  }

  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr std::string_view operator[](std::size_t i) const noexcept { return names_[i]; }
  constexpr const std::string_view* begin() const noexcept { return names_.data(); }
  constexpr const std::string_view* end() const noexcept { return names_.data() + size_; }
  constexpr bool contains(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < size_; ++i) {
      if (names_[i] == name) {
        return true;
      }
    }
    return false;
  }

  friend constexpr bool operator==(const NameList& a, const NameList& b) noexcept {
    if (a.size_ != b.size_) {
      return false;
    }
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (a.names_[i] != b.names_[i]) {
        return false;
      }
    }
    return true;
  }

private:
  std::array<std::string_view, capacity> names_{};
  std::size_t size_ = 0;
};

/// What the pass infrastructure knows about a pass.
///
/// - `name` identifies the pass (registry key, PassContext required/disabled lists,
///   instrument output, errors).
/// - `opt_level`: a sequential runs the pass only when the context's opt_level is at least
///   this (unless the context lists the pass as required or disabled).
/// - `required`: results that must be valid before the pass runs in a sequential. A result
///   is the name of a pass, or a name some pass lists in `establishes`. ctir resolves them
///   transitively and skips a required pass whose result is still valid.
/// - `establishes`: results this pass makes valid besides its own name.
/// - `invalidates`: results this pass makes invalid (`"*"`: all of them). Nothing by default.
///
/// Names are views: they must outlive the pass (string literals, or names interned with
/// `intern_name`; the pass factories intern names given at run time).
struct PassInfo {
  std::string_view name;
  int opt_level = 0;
  NameList required = {};
  NameList establishes = {};
  NameList invalidates = {};
  std::string_view description = {};

  /// Whether running this pass makes `result` valid.
  constexpr bool establishes_result(std::string_view result) const noexcept {
    return result == name || establishes.contains(result);
  }
  /// Whether running this pass makes `result` invalid.
  constexpr bool invalidates_result(std::string_view result) const noexcept {
    return invalidates.contains("*") || invalidates.contains(result);
  }

  friend constexpr bool operator==(const PassInfo&, const PassInfo&) = default;
};

/// A view of `name` that lives as long as the process: equal names share one copy.
///
/// Passes built at run time (from a pipeline string, a registry, a command line) keep
/// their names here so that a PassInfo can stay a cheap literal type of views.
std::string_view intern_name(std::string_view name);

namespace detail {

/// `info` with every name interned, so it no longer refers to the caller's strings. In a
/// constant expression the names are already literals and are kept as they are.
/// The name of a pass class, as the compiler spells it, for errors about the class.
template <class P>
constexpr std::string_view pass_class_name() noexcept {
#if defined(__clang__) || defined(__GNUC__)
  // "... pass_class_name() [with P = ns::MyPass; ...]" (g++) or "... [P = ns::MyPass]" (clang).
  const std::string_view signature = __PRETTY_FUNCTION__;
  const std::size_t start = signature.find("P = ");
  if (start != std::string_view::npos) {
    const std::size_t first = start + 4;
    const std::size_t end = signature.find_first_of(";]", first);
    return signature.substr(first, end == std::string_view::npos ? end : end - first);
  }
#endif
  return "a pass class";
}

/// A sequential's PassInfo: named "sequential" when given no name
/// (`sequential(PassInfo{.opt_level = 2}, ...)`), as TVM names it.
constexpr PassInfo sequential_info(PassInfo info) {
  if (info.name.empty()) {
    info.name = "sequential";
  }
  return info;
}

/// A pass's PassInfo, checked to have a name; `pass_class` names the kind of pass in the
/// error (a compile error when the pass is built in a constant expression).
constexpr const PassInfo& named_info(const PassInfo& info, std::string_view pass_class) {
  if (info.name.empty()) {
    throw Error(std::string(pass_class) +
                ": a pass needs a name; give its PassInfo one: PassInfo{.name = \"MyPass\"}");
  }
  return info;
}

constexpr PassInfo stable_info(const PassInfo& info) {
  if (std::is_constant_evaluated()) {
    return info;
  }
  PassInfo result = info;
  const auto intern_list = [](const NameList& names) {
    NameList out;
    for (std::string_view name : names) {
      out.push_back(intern_name(name));
    }
    return out;
  };
  result.name = intern_name(info.name);
  result.required = intern_list(info.required);
  result.establishes = intern_list(info.establishes);
  result.invalidates = intern_list(info.invalidates);
  result.description = intern_name(info.description);
  return result;
}

} // namespace detail
} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/info-inl.hpp>
#endif
