// Definitions of <ctir/passes/remove_unused_functions.hpp>.
#pragma once

#include <ctir/passes/remove_unused_functions.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/graph/expr.hpp>
#include <ctir/traverse/walk.hpp>

#include <algorithm>
#include <cstddef>
#include <unordered_set>

namespace ctir::passes {

CTIR_INLINE ConfigKey<std::string> entry_functions_option() {
  static const ConfigKey<std::string> key = register_pass_config_option<std::string>(
      entry_functions_key, "main",
      "RemoveUnusedFunctions keeps what these functions reach: a comma-separated list of "
      "names, e.g. \"main,init\"");
  return key;
}

CTIR_INLINE std::vector<std::string> parse_entry_functions(std::string_view text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view name = text.substr(start, comma - start);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) {
      name.remove_prefix(1);
    }
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) {
      name.remove_suffix(1);
    }
    if (!name.empty() && name.front() == '@') {
      name.remove_prefix(1);
    }
    if (name.empty()) {
      throw Error("ctir: " + std::string(entry_functions_key) + " = \"" + std::string(text) +
                  "\" has an empty name; give a comma-separated list of function names");
    }
    names.emplace_back(name);
    if (comma == text.size()) {
      return names;
    }
    start = comma + 1;
  }
}

CTIR_INLINE IRModule remove_unused_functions(const IRModule& mod,
                                             const std::vector<std::string>& entries) {
  std::unordered_set<std::string> reached;
  std::vector<std::string> work;
  for (const std::string& name : entries) {
    if (!mod.contains(name)) {
      std::string names;
      for (std::size_t i = 0; i < mod.size(); ++i) {
        names += (i == 0 ? "@" : ", @") + mod.global_at(i)->name;
      }
      throw Error("ctir: RemoveUnusedFunctions: the entry function @" + name +
                  " is not in the module (" +
                  (names.empty() ? std::string("which is empty") : "which has " + names) +
                  "); set " + std::string(entry_functions_key) + " to the entry functions");
    }
    if (reached.insert(name).second) {
      work.push_back(name);
    }
  }
  while (!work.empty()) {
    const BaseFunc f = mod.lookup(work.back());
    work.pop_back();
    // Global calls, call_dps and any other mention of a global all reach it.
    walk(f, [&](const GlobalVar& global) {
      if (mod.contains(global->name) && reached.insert(global->name).second) {
        work.push_back(global->name);
      }
    });
  }
  if (reached.size() == mod.size()) {
    return mod;
  }
  IRModule out = mod;
  for (std::size_t i = 0; i < mod.size(); ++i) {
    if (!reached.contains(mod.global_at(i)->name)) {
      out.remove(mod.global_at(i)->name);
    }
  }
  return out;
}

CTIR_INLINE IRModule RemoveUnusedFunctions::transform_module(IRModule mod,
                                                             const PassContext& ctx) const {
  if (ctx.find_config(entry_functions_key) == nullptr && !mod.contains("main")) {
    return mod;
  }
  return remove_unused_functions(mod, parse_entry_functions(ctx.config(entry_functions_option())));
}

} // namespace ctir::passes
