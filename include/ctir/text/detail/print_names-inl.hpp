// Definitions of <ctir/text/detail/print_names.hpp>.
#pragma once

#include <ctir/text/detail/print_names.hpp>

#include <ctir/text/detail/print_literal.hpp>

#include <algorithm>
#include <functional>
#include <utility>

namespace ctir::detail {

CTIR_INLINE void NameTable::clear() {
  ids_.clear();
  names_.clear();
  defined_.clear();
  next_suffix_.clear();
  if (slots_.size() > 4096) {
    slots_.assign(16, 0);
  } else {
    std::fill(slots_.begin(), slots_.end(), 0U);
  }
}

CTIR_INLINE const std::string& NameTable::name_of(const VarNode* var) {
  auto [id, inserted] = ids_.try_emplace(var);
  if (!inserted) {
    return names_[*id - 1];
  }
  return assign(var, *id, false);
}

CTIR_INLINE const std::string& NameTable::define(const VarNode* var) {
  auto [id, inserted] = ids_.try_emplace(var);
  if (inserted) {
    return assign(var, *id, true);
  }
  if (!defined_[*id - 1]) {
    defined_[*id - 1] = true;
    return names_[*id - 1];
  }
  return assign(var, *id, true);
}

CTIR_INLINE const std::string& NameTable::assign(const VarNode* var, std::uint32_t& id,
                                                 bool defined) {
  std::string base = sanitize_var_name(var->name);
  std::string name = base;
  if (taken(name)) {
    // Remember where the search stopped, so that a million `%x` take linear time.
    std::size_t& suffix = next_suffix_[base];
    do {
      ++suffix;
      name = base + '_' + std::to_string(suffix);
    } while (taken(name));
  }
  names_.push_back(std::move(name));
  defined_.push_back(defined);
  id = static_cast<std::uint32_t>(names_.size());
  take(id);
  return names_.back();
}

CTIR_INLINE std::size_t NameTable::hash(std::string_view name) {
  return std::hash<std::string_view>{}(name);
}

CTIR_INLINE bool NameTable::taken(std::string_view name) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash(name) & mask; slots_[i] != 0; i = (i + 1) & mask) {
    if (names_[slots_[i] - 1] == name) {
      return true;
    }
  }
  return false;
}

CTIR_INLINE void NameTable::take(std::uint32_t id) {
  if (2 * names_.size() > slots_.size()) {
    std::vector<std::uint32_t> old(2 * slots_.size(), 0);
    old.swap(slots_);
    for (std::uint32_t existing = 1; existing < id; ++existing) {
      insert(existing);
    }
  }
  insert(id);
}

CTIR_INLINE void NameTable::insert(std::uint32_t id) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash(names_[id - 1]) & mask;
  while (slots_[i] != 0) {
    i = (i + 1) & mask;
  }
  slots_[i] = id;
}

} // namespace ctir::detail
