// ctir: the type-erased runtime layer (types, callbacks and passes known only at run time).
#pragma once

#include <ctir/core/core.hpp>
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/format_tree.hpp>
