// RemoveUnusedFunctions: drops the functions of a module that no entry function reaches.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ctir::passes {

/// The configuration key of RemoveUnusedFunctions: the entry functions, as a
/// comma-separated list of names (`"main"`, `"main, init"`; a leading `@` is allowed,
/// blanks around names are ignored).
inline constexpr std::string_view entry_functions_key = "transform.entry_functions";

/// The typed key of `transform.entry_functions`, registered in the PassConfigRegistry on the
/// first call (register_standard_passes calls it too).
ConfigKey<std::string> entry_functions_option();

/// The names in a `transform.entry_functions` value: split at commas, blanks and a
/// leading `@` removed. Throws ctir::Error for an empty name (`"main,,init"`, `""`).
std::vector<std::string> parse_entry_functions(std::string_view text);

/// `mod` without the functions that `entries` do not reach (see RemoveUnusedFunctions);
/// `mod` itself when every function is reached. Throws ctir::Error naming an entry the
/// module does not have.
IRModule remove_unused_functions(const IRModule& mod, const std::vector<std::string>& entries);

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
  IRModule transform_module(IRModule mod, const PassContext& ctx) const;
};

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/remove_unused_functions-inl.hpp>
#endif
