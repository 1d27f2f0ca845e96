// ctir: the type-erased runtime layer (types, callbacks and passes known only at run time).
#pragma once

#include <ctir/core/core.hpp>
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/mapped.hpp>
#include <ctir/runtime/mutate.hpp>
#include <ctir/runtime/pass.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/runtime/visit.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/format_tree.hpp>
