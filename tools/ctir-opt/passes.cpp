// The passes ctir-opt can run: the headers included here register their passes (and their
// config options) in the global registries while the program starts.
//
// ctir-opt holds no pass of its own: it runs what the library registers. The umbrella
// headers bring in every pass and config option the library defines; PrintIR is named as
// well since it is the debugging pass pipelines use most, and the standard passes (with
// the DefaultPipeline that -O0..-O3 run) in case the umbrella does not hold them yet. The
// operator kernels are attached too: FoldConstant evaluates with them.
#include <ctir/ctir.hpp>
#include <ctir/eval/kernels.hpp>
#include <ctir/pass/print_ir_pass.hpp>
#include <ctir/passes/default_pipeline.hpp>
#include <ctir/passes/passes.hpp>
#include <ctir/runtime.hpp>
#include <ctir/runtime/pass.hpp>
