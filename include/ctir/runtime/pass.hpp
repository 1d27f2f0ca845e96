// The runtime pass layer: Pass (type-erased), the registry, runtime sequentials, pipeline strings.
#pragma once

#include <ctir/pass/pass.hpp>
#include <ctir/runtime/pass/erased.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/runtime/pass/resolve.hpp>
#include <ctir/runtime/pass/sequential.hpp>
