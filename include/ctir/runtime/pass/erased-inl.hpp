// Definitions of <ctir/runtime/pass/erased.hpp>.
#pragma once

#include <ctir/runtime/pass/erased.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ctir {

CTIR_INLINE Pass::Pass(std::shared_ptr<const detail::PassConcept> self)
    : self_(std::move(self)), info_(&self_->info()) {}

CTIR_INLINE IRModule Pass::transform_module(IRModule mod, const PassContext& ctx) const {
  return self_->transform(std::move(mod), ctx);
}

CTIR_INLINE bool Pass::is_sequential() const noexcept { return self_->is_sequential(); }

CTIR_INLINE const std::vector<Pass>& Pass::passes() const noexcept {
  static const std::vector<Pass> none;
  const std::vector<Pass>* children = self_->children();
  return children != nullptr ? *children : none;
}

CTIR_INLINE std::string Pass::str() const {
  std::string out;
  self_->print(out);
  return out;
}

CTIR_INLINE void Pass::print_pipeline(std::string& out) const { self_->print(out); }

} // namespace ctir
