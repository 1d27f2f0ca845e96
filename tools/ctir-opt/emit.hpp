// ctir-opt's --emit: what the resulting module is written as.
#pragma once

#include <ctir/ir/module.hpp>

#include <string>
#include <string_view>

namespace ctir_opt {

/// One value of --emit: its name, what it writes, and how.
struct Emitter {
  std::string_view name;
  std::string_view description;
  std::string (*emit)(const ctir::IRModule& mod);
};

/// The emitter named `name`, or null.
const Emitter* find_emitter(std::string_view name);

/// The values of --emit for messages: `'text', 'tree' or 'dot'`.
std::string emitter_names();

/// `mod` written as the emitter `name` (which must exist) writes it; throws what the
/// emitter throws (dot: a module without a graph-level function).
std::string emit_module(const ctir::IRModule& mod, std::string_view name);

} // namespace ctir_opt
