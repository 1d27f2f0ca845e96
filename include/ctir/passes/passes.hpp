// The standard passes, and register_standard_passes to make them available by name.
#pragma once

#include <ctir/passes/dead_code_elimination.hpp>
#include <ctir/passes/default_pipeline.hpp>
#include <ctir/passes/eliminate_common_subexpr.hpp>
#include <ctir/passes/flatten_buffer.hpp>
#include <ctir/passes/fold_constant.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/passes/legalize_call.hpp>
#include <ctir/passes/legalize_ops.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/passes/remove_no_op.hpp>
#include <ctir/passes/remove_unused_functions.hpp>
#include <ctir/passes/simplify.hpp>
#include <ctir/passes/simplify_expr.hpp>
#include <ctir/passes/to_a_normal_form.hpp>
#include <ctir/passes/unroll_loop.hpp>
