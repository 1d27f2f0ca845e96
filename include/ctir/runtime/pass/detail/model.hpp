// The type erasure behind ctir::Pass: one small Concept, one Model per static pass type.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instrument.hpp>
#include <ctir/pass/options.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/detail/syntax.hpp>

#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace ctir {

class Pass;

namespace detail {

/// What every erased pass can do.
struct PassConcept {
  PassConcept() = default;
  PassConcept(const PassConcept&) = delete;
  PassConcept& operator=(const PassConcept&) = delete;
  virtual ~PassConcept();
  virtual const PassInfo& info() const noexcept = 0;
  /// The bare rewrite (instruments and error reports are added by run_pass).
  virtual IRModule transform(IRModule mod, const PassContext& ctx) const = 0;
  /// Appends the pass in pipeline syntax.
  virtual void print(std::string& out) const = 0;
  virtual bool is_sequential() const noexcept = 0;
  /// The passes of a sequential (null for other passes).
  virtual const std::vector<Pass>* children() const noexcept = 0;
  virtual const void* target(const void* tag) const noexcept = 0;
};

template <class P>
void print_pass(const P& pass, const PassOptionValues& given, std::string& out);

/// Appends `sequential{name=...,opt_level=...}` (only the settings that are not defaults).
void print_sequential_head(const PassInfo& info, std::string& out);

template <class... Ps>
void print_static_sequential(const Sequential<Ps...>& seq, std::string& out) {
  print_sequential_head(seq.info(), out);
  out += '(';
  bool first = true;
  std::apply(
      [&](const auto&... passes) {
        (
            [&] {
              if (!first) {
                out += ',';
              }
              first = false;
              print_pass(passes, {}, out);
            }(),
            ...);
      },
      seq.passes());
  out += ')';
}

template <class T>
inline constexpr bool is_static_sequential_type_v = false;
template <class... Ps>
inline constexpr bool is_static_sequential_type_v<Sequential<Ps...>> = true;

/// Appends a static pass in pipeline syntax: its name and options (the ones it was made
/// with from text, else the ones that differ from the defaults), or a sequential.
template <class P>
void print_pass(const P& pass, const PassOptionValues& given, std::string& out) {
  if constexpr (requires { pass.print_pipeline(out); }) {
    pass.print_pipeline(out); // Pass, and the runtime sequential
  } else if constexpr (is_static_sequential_type_v<P>) {
    print_static_sequential(pass, out);
  } else {
    out += info_of(pass).name;
    append_options(out, given.empty() ? changed_pass_options(pass) : given);
  }
}

template <class P>
class PassModel final : public PassConcept {
public:
  explicit PassModel(P pass, PassOptionValues given = {})
      : pass_(std::move(pass)), info_(named_info(info_of(pass_), pass_class_name<P>())),
        given_(std::move(given)) {}

  const PassInfo& info() const noexcept override { return info_; }
  IRModule transform(IRModule mod, const PassContext& ctx) const override {
    return invoke_raw(pass_, std::move(mod), ctx);
  }
  void print(std::string& out) const override { print_pass(pass_, given_, out); }
  bool is_sequential() const noexcept override { return detail::is_sequential(pass_); }
  const std::vector<Pass>* children() const noexcept override {
    if constexpr (requires { pass_.passes(); }) {
      if constexpr (std::is_same_v<std::decay_t<decltype(pass_.passes())>, std::vector<Pass>>) {
        return &pass_.passes();
      }
    }
    return nullptr;
  }
  const void* target(const void* tag) const noexcept override {
    return tag == &type_tag<P> ? &pass_ : nullptr;
  }

private:
  P pass_;
  PassInfo info_;
  PassOptionValues given_;
};

} // namespace detail
} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/detail/model-inl.hpp>
#endif
