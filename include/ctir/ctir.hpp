// ctir: the static layer (object model, hooks, unified IR, traversals, passes).
#pragma once

#include <ctir/core/core.hpp>
#include <ctir/hooks/hooks_all.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/pass/pass.hpp>
#include <ctir/text/install_printer.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
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
