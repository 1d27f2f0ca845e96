// The passes ctir-opt can run.
#pragma once

namespace ctir_opt {

/// Registers every pass the library defines (and their config keys) in the global
/// registries, so that pipelines, --list-passes and --config find them by name.
void register_passes();

} // namespace ctir_opt
