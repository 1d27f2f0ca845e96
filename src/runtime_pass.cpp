// ctir::compiled: the runtime pass layer (Pass, the registry, runtime sequentials, pipelines).
#include <ctir/runtime/pass/detail/model-inl.hpp>
#include <ctir/runtime/pass/detail/syntax-inl.hpp>
#include <ctir/runtime/pass/erased-inl.hpp>
#include <ctir/runtime/pass/pipeline-inl.hpp>
#include <ctir/runtime/pass/registry-inl.hpp>
#include <ctir/runtime/pass/resolve-inl.hpp>
#include <ctir/runtime/pass/sequential-inl.hpp>
