// Registering the standard passes by name, for pipelines named at run time.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/runtime/pass/registry.hpp>

namespace ctir::passes {

/// Registers every standard pass (and PrintIR and DefaultPipeline) in `registry` under its
/// name, and the standard passes' configuration keys in the PassConfigRegistry.
///
/// Including a pass header registers nothing: a program that builds pipelines from text
/// (`parse_pipeline("InferType,FoldConstant")`) calls this once, as ctir-opt does.
/// Idempotent; a name already taken by another pass keeps its registration.
void register_standard_passes(PassRegistry& registry = PassRegistry::global());

} // namespace ctir::passes

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/register-inl.hpp>
#endif
