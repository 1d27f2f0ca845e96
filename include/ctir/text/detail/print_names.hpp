// The names the printer gives variables: the IR's name hints, made unique per function.
#pragma once

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/var.hpp>

#include <cstddef>
#include <cstdint>
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
  void clear();

  /// The printed name of `var` (without the `%`), assigned now if it has none yet. The
  /// reference is valid until the next call.
  const std::string& name_of(const VarNode* var);

  /// The printed name of `var` at a site that binds it (a parameter, a let, a loop, an
  /// allocation). A variable bound a second time (one variable object at several
  /// binding sites, as a pass may leave it) gets a fresh name there, which its later
  /// uses print: the text then binds each name once, as the parser makes it, so a
  /// second printing gives the same names.
  const std::string& define(const VarNode* var);

private:
  static std::size_t hash(std::string_view name);

  /// Gives `var` a new name (the hint, or the first free `hint_k`) and points `id` at it.
  const std::string& assign(const VarNode* var, std::uint32_t& id, bool defined);

  /// Whether some variable already has `name` (an open-addressing set of name ids).
  bool taken(std::string_view name) const;

  /// Adds the name with id `id` (1-based) to the set.
  void take(std::uint32_t id);
  void insert(std::uint32_t id);

  PointerMap<std::uint32_t> ids_;  ///< variable -> 1-based index into names_
  std::vector<std::string> names_; ///< printed names, in order of assignment
  std::vector<bool> defined_;      ///< per name: printed at a binding site already
  std::vector<std::uint32_t> slots_;
  std::unordered_map<std::string, std::size_t> next_suffix_;
};

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/print_names-inl.hpp>
#endif
