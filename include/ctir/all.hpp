// Everything ctir has: the static layer, the type-erased layer, the text format, the
// interpreter, the standard passes and the instruments.
#pragma once

#include <ctir/ctir.hpp>
#include <ctir/eval/eval.hpp>
#include <ctir/pass/instruments/all.hpp>
#include <ctir/passes/passes.hpp>
#include <ctir/runtime.hpp>
#include <ctir/text/text.hpp>
