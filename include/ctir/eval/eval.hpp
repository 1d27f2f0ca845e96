// The reference interpreter, all of it: values, scalar semantics, kernels, random inputs.
#pragma once

#include <ctir/eval/error.hpp>         // IWYU pragma: export
#include <ctir/eval/interpreter.hpp>   // IWYU pragma: export
#include <ctir/eval/kernels.hpp>       // IWYU pragma: export
#include <ctir/eval/random_inputs.hpp> // IWYU pragma: export
#include <ctir/eval/scalar.hpp>        // IWYU pragma: export
#include <ctir/eval/value.hpp>         // IWYU pragma: export
