// ctir::Pass: any static pass behind one type, for pipelines chosen at run time.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/runtime/pass/detail/model.hpp>

#include <concepts>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// A pass of any static type, type-erased; cheap to copy (copies share the pass).
///
/// A Pass is itself a pass: `mod = p(mod)` runs it with the current context's
/// instruments, `p.transform_module(mod, ctx)` is its bare rewrite, and a Pass can sit in
/// a static sequential. `str()` is its pipeline text (see parse_pipeline).
class Pass : public pass_interface<Pass> {
public:
  /// Wraps (a copy of) a static pass.
  template <class P>
  requires(!std::same_as<std::remove_cvref_t<P>, Pass> && pass<std::remove_cvref_t<P>>)
      Pass(P&& pass) // NOLINT(google-explicit-constructor): lists of passes read well
      : Pass(std::make_shared<detail::PassModel<std::remove_cvref_t<P>>>(std::forward<P>(pass))) {}

  /// Wraps a static pass made from pipeline text, printing the options it was given.
  template <pass P>
  static Pass with_options(P pass, PassOptionValues given) {
    return Pass(std::make_shared<detail::PassModel<P>>(std::move(pass), std::move(given)));
  }
  /// Wraps an erased pass model (for passes the library cannot express as a static type).
  explicit Pass(std::shared_ptr<const detail::PassConcept> self);

  const PassInfo& info() const noexcept { return *info_; }
  /// The bare rewrite (use `p(mod)` or run_pass for instruments and error reports).
  IRModule transform_module(IRModule mod, const PassContext& ctx) const;
  bool is_sequential() const noexcept;
  /// The passes of a sequential built at run time (empty for other passes).
  const std::vector<Pass>& passes() const noexcept;
  /// The pass in pipeline syntax: `FoldConstant`, `UnrollLoop{max_extent=4}`,
  /// `sequential(A,B)`.
  std::string str() const;
  void print_pipeline(std::string& out) const;
  /// The wrapped static pass if it is a T, else null.
  template <class T>
  const T* target() const noexcept {
    return static_cast<const T*>(self_->target(&detail::type_tag<T>));
  }
  /// Whether both share one erased pass.
  bool same_as(const Pass& other) const noexcept { return self_ == other.self_; }
  const std::shared_ptr<const detail::PassConcept>& model() const noexcept { return self_; }

private:
  std::shared_ptr<const detail::PassConcept> self_;
  const PassInfo* info_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/erased-inl.hpp>
#endif
