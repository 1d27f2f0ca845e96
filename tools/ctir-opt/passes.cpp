// The passes ctir-opt can run: the headers included here register their passes (and their
// config options) in the global registries while the program starts.
//
// ctir-opt holds no pass of its own: it runs what the library registers. The umbrella
// headers bring in every pass and config option the library defines; PrintIR is named as
// well since it is the debugging pass pipelines use most.
#include <ctir/ctir.hpp>
#include <ctir/pass/print_ir_pass.hpp>
#include <ctir/runtime.hpp>
#include <ctir/runtime/pass.hpp>
