// ctir::compiled: the graph-level standard passes and the helpers they share.
#include <ctir/passes/dead_code_elimination-inl.hpp>
#include <ctir/passes/detail/graph_utils-inl.hpp>
#include <ctir/passes/detail/type_inference-inl.hpp>
#include <ctir/passes/eliminate_common_subexpr-inl.hpp>
#include <ctir/passes/fold_constant-inl.hpp>
#include <ctir/passes/infer_type-inl.hpp>
#include <ctir/passes/remove_unused_functions-inl.hpp>
#include <ctir/passes/simplify_expr-inl.hpp>
#include <ctir/passes/to_a_normal_form-inl.hpp>
