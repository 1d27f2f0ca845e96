// ctir::compiled: the traversals' non-template code (access paths, the tree formatter, the
// reports and iterative cores of structural equality and hashing, the map's error paths).
#include <ctir/traverse/access_path-inl.hpp>
#include <ctir/traverse/assert_structural_equal-inl.hpp>
#include <ctir/traverse/detail/equal_core-inl.hpp>
#include <ctir/traverse/detail/field_plan-inl.hpp>
#include <ctir/traverse/detail/map_result-inl.hpp>
#include <ctir/traverse/detail/map_state-inl.hpp>
#include <ctir/traverse/detail/walk_engine-inl.hpp>
#include <ctir/traverse/format_tree-inl.hpp>
#include <ctir/traverse/structural_equal-inl.hpp>
#include <ctir/traverse/structural_hash-inl.hpp>
