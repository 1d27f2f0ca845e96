// Everything ctir has: the static layer, the type-erased layer, the text format, the
// interpreter, the standard passes, the instruments and the native backend.
#pragma once

#include <ctir/codegen/codegen.hpp>
#include <ctir/ctir.hpp>
#include <ctir/eval/eval.hpp>
#include <ctir/pass/instruments/all.hpp>
#include <ctir/passes/passes.hpp>
#include <ctir/runtime.hpp>
#include <ctir/text/text.hpp>
