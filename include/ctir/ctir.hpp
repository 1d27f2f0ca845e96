// ctir: the static layer (object model, hooks, unified IR, traversals, passes).
#pragma once

#include <ctir/core/core.hpp>
#include <ctir/hooks/hooks_all.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/format_tree.hpp>
