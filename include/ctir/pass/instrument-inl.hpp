// Definitions of <ctir/pass/instrument.hpp>.
#pragma once

#include <ctir/pass/instrument.hpp>

#include <memory>
#include <string>
#include <utility>

namespace ctir {

// Out of line so that the compiled library holds the one vtable of the interface.
CTIR_INLINE detail::InstrumentConcept::~InstrumentConcept() = default;

CTIR_INLINE Instrument::Instrument(std::shared_ptr<detail::InstrumentConcept> self)
    : self_(std::move(self)) {}

CTIR_INLINE std::string Instrument::name() const { return self_->name(); }
CTIR_INLINE void Instrument::enter_pass_ctx() const { self_->enter_pass_ctx(); }
CTIR_INLINE void Instrument::exit_pass_ctx() const { self_->exit_pass_ctx(); }
CTIR_INLINE bool Instrument::should_run(const IRModule& mod, const PassInfo& info) const {
  return self_->should_run(mod, info);
}
CTIR_INLINE void Instrument::run_before_pass(const IRModule& mod, const PassInfo& info) const {
  self_->run_before_pass(mod, info);
}
CTIR_INLINE void Instrument::run_after_pass(const IRModule& mod, const PassInfo& info) const {
  self_->run_after_pass(mod, info);
}
CTIR_INLINE void Instrument::run_after_pass_failed(const IRModule& mod, const PassInfo& info,
                                                   const Error& error) const {
  self_->run_after_pass_failed(mod, info, error);
}

} // namespace ctir
