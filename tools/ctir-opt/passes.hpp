// The passes ctir-opt can run.
#pragma once

namespace ctir_opt {

/// Registers every pass the library defines (and their config keys) in the global
/// registries, so that pipelines, --list-passes and --config find them by name. With the
/// environment variable CTIR_OPT_TEST_BREAK_IR=1 it also registers TestBreakIR, a pass that
/// breaks the IR on purpose, for the tests of --verify-each and --reproducer.
void register_passes();

} // namespace ctir_opt
