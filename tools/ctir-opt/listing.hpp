// The listings ctir-opt prints: passes (--list-passes) and config options (--list-configs).
#pragma once

#include <string>

namespace ctir_opt {

/// Every registered pass with its opt_level and description, as a table.
std::string list_passes();

/// Every registered pass config option with its type, default and description, as a table.
std::string list_configs();

} // namespace ctir_opt
