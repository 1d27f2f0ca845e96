// The unified IR: types, variables, graph-level and tensor-level nodes, IRModule, builders.
#pragma once

#include <ctir/ir/attrs.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/detail/map_instances.hpp>
#include <ctir/ir/detail/structural_instances.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/ir/span.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/ir/var.hpp>
