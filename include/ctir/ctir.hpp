// ctir: the static layer (object model, hooks, unified IR, traversals, pass infrastructure).
//
// The text format (<ctir/text/text.hpp>), the interpreter (<ctir/eval/eval.hpp>), the
// standard passes (<ctir/passes/passes.hpp>), the instruments
// (<ctir/pass/instruments/all.hpp>) and the type-erased layer (<ctir/runtime.hpp>) have
// umbrellas of their own; <ctir/all.hpp> brings everything.
#pragma once

#include <ctir/core/core.hpp>
#include <ctir/hooks/hooks_all.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/pass/pass.hpp>
#include <ctir/traverse/access_path.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>
#include <ctir/traverse/format_tree.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/mutate.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>
#include <ctir/traverse/structural_key.hpp>
#include <ctir/traverse/visit.hpp>
#include <ctir/traverse/walk.hpp>
#include <ctir/version.hpp>
