// Definitions of <ctir/pass/requirements.hpp>.
#pragma once

#include <ctir/pass/requirements.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace ctir::detail {

CTIR_INLINE std::string describe_problem(const PlanProblem& problem,
                                         std::span<const PassInfo> infos) {
  if (problem.kind == PlanProblem::Kind::missing) {
    const PassInfo& info = infos[problem.entry];
    return "ctir: pass '" + std::string(info.name) + "' requires '" +
           std::string(info.required[problem.requirement]) +
           "', which no pass in this pipeline provides";
  }
  std::string path;
  for (std::size_t i = 0; i < problem.cycle_length; ++i) {
    if (i > 0) {
      path += " -> ";
    }
    path += infos[problem.cycle[i]].name;
  }
  return "ctir: passes require each other in a cycle: " + path;
}

CTIR_INLINE bool RequirementState::contains(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < size_; ++i) {
    if (at(i) == name) {
      return true;
    }
  }
  return false;
}

CTIR_INLINE void RequirementState::apply(const PassInfo& info) {
  if (info.invalidates.contains("*")) {
    size_ = 0;
    more_.clear();
  } else {
    for (std::string_view name : info.invalidates) {
      remove(name);
    }
  }
  add(info.name);
  for (std::string_view name : info.establishes) {
    add(name);
  }
}

CTIR_INLINE std::string_view RequirementState::at(std::size_t i) const noexcept {
  return i < inline_capacity ? inline_[i] : more_[i - inline_capacity];
}

CTIR_INLINE void RequirementState::set(std::size_t i, std::string_view name) noexcept {
  if (i < inline_capacity) {
    inline_[i] = name;
  } else {
    more_[i - inline_capacity] = name;
  }
}

CTIR_INLINE void RequirementState::add(std::string_view name) {
  if (contains(name)) {
    return;
  }
  if (size_ < inline_capacity) {
    inline_[size_] = name;
  } else {
    more_.push_back(name);
  }
  ++size_;
}

CTIR_INLINE void RequirementState::remove(std::string_view name) noexcept {
  for (std::size_t i = 0; i < size_; ++i) {
    if (at(i) == name) {
      set(i, at(size_ - 1));
      --size_;
      if (size_ >= inline_capacity) {
        more_.pop_back();
      }
      return;
    }
  }
}

} // namespace ctir::detail
