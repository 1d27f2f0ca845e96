// The names the printer gives variables: the IR's name hints, made unique per function.
#pragma once

#include <ctir/ir/var.hpp>
#include <ctir/text/detail/print_literal.hpp>
#include <ctir/text/detail/print_map.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ctir::detail {

/// Assigns each variable its printed name on first sight, in printing order.
///
/// A variable keeps its (sanitized) name hint unless an earlier variable of the same
/// function took it; then it gets the first free `name_1`, `name_2`, ... Printed names
/// never consist of digits only, so they cannot clash with the temporaries `%0`, `%1`.
/// Because the names depend only on the IR and the printing order, printing is
/// deterministic, and text that was printed reads back with the same names, which a
/// second printing keeps.
class NameTable {
public:
  NameTable() : slots_(16, 0) {}

  /// Forgets every name (a new function starts).
  void clear() {
    ids_.clear();
    names_.clear();
    next_suffix_.clear();
    if (slots_.size() > 4096) {
      slots_.assign(16, 0);
    } else {
      std::fill(slots_.begin(), slots_.end(), 0U);
    }
  }

  /// The printed name of `var` (without the `%`), assigned now if it has none yet. The
  /// reference is valid until the next call.
  const std::string& name_of(const VarNode* var) {
    auto [id, inserted] = ids_.try_emplace(var);
    if (!inserted) {
      return names_[*id - 1];
    }
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
    *id = static_cast<std::uint32_t>(names_.size());
    take(*id);
    return names_.back();
  }

private:
  static std::size_t hash(std::string_view name) { return std::hash<std::string_view>{}(name); }

  /// Whether some variable already has `name` (an open-addressing set of name ids).
  bool taken(std::string_view name) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(name) & mask; slots_[i] != 0; i = (i + 1) & mask) {
      if (names_[slots_[i] - 1] == name) {
        return true;
      }
    }
    return false;
  }

  /// Adds the name with id `id` (1-based) to the set.
  void take(std::uint32_t id) {
    if (2 * names_.size() > slots_.size()) {
      std::vector<std::uint32_t> old(2 * slots_.size(), 0);
      old.swap(slots_);
      for (std::uint32_t existing = 1; existing < id; ++existing) {
        insert(existing);
      }
    }
    insert(id);
  }
  void insert(std::uint32_t id) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash(names_[id - 1]) & mask;
    while (slots_[i] != 0) {
      i = (i + 1) & mask;
    }
    slots_[i] = id;
  }

  PointerMap<std::uint32_t> ids_;  ///< variable -> 1-based index into names_
  std::vector<std::string> names_; ///< printed names, in order of assignment
  std::vector<std::uint32_t> slots_;
  std::unordered_map<std::string, std::size_t> next_suffix_;
};

} // namespace ctir::detail
