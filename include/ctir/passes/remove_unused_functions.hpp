// RemoveUnusedFunctions: drops the functions of a module that no entry function reaches.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/traverse/walk.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ctir::passes {

/// The configuration key of RemoveUnusedFunctions: the entry functions, as a
/// comma-separated list of names (`"main"`, `"main, init"`; a leading `@` is allowed,
/// blanks around names are ignored).
inline constexpr std::string_view entry_functions_key = "transform.entry_functions";

/// The typed key of `transform.entry_functions`, registered in the PassConfigRegistry on the
/// first call (register_standard_passes calls it too).
inline ConfigKey<std::string> entry_functions_option() {
  static const ConfigKey<std::string> key = register_pass_config_option<std::string>(
      entry_functions_key, "main",
      "RemoveUnusedFunctions keeps what these functions reach: a comma-separated list of "
      "names, e.g. \"main,init\"");
  return key;
}

/// The names in a `transform.entry_functions` value: split at commas, blanks and a
/// leading `@` removed. Throws ctir::Error for an empty name (`"main,,init"`, `""`).
inline std::vector<std::string> parse_entry_functions(std::string_view text) {
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

/// `mod` without the functions that `entries` do not reach (see RemoveUnusedFunctions);
/// `mod` itself when every function is reached. Throws ctir::Error naming an entry the
/// module does not have.
inline IRModule remove_unused_functions(const IRModule& mod,
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

/// Removes the functions that the entry functions do not reach.
///
/// The entry functions are named by the config key `transform.entry_functions` (a
/// comma-separated list, default `"main"`). A function is reached when a reached function
/// mentions its global: a call `@f(...)`, `call_dps @f(...)`, or `@f` used as a value.
/// Everything else goes; the order of the rest is kept. An entry the module does not have
/// is an error naming it and the module's functions. A module without `@main`, while the key
/// is not set, has no known entry (a library of kernels, say): it is left as it is, rather
/// than emptied.
struct RemoveUnusedFunctions : pass_interface<RemoveUnusedFunctions> {
  static constexpr PassInfo info() {
    return {.name = "RemoveUnusedFunctions",
            .opt_level = 1,
            .description = "drops the functions the entry functions do not reach"};
  }
  IRModule transform_module(IRModule mod, const PassContext& ctx) const {
    if (ctx.find_config(entry_functions_key) == nullptr && !mod.contains("main")) {
      return mod;
    }
    return remove_unused_functions(mod,
                                   parse_entry_functions(ctx.config(entry_functions_option())));
  }
};

} // namespace ctir::passes
