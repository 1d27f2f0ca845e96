// ctir::compiled: the unified IR (node factories, modules, builders, the operator registry
// and the built-in operators, registration of the node types, the well-formedness analysis).
#include <ctir/ir/analysis/detail/well_formed_checker-inl.hpp>
#include <ctir/ir/analysis/detail/well_formed_type_checks-inl.hpp>
#include <ctir/ir/analysis/well_formed-inl.hpp>
#include <ctir/ir/attrs-inl.hpp>
#include <ctir/ir/builder-inl.hpp>
#include <ctir/ir/dtype-inl.hpp>
#include <ctir/ir/expr_base-inl.hpp>
#include <ctir/ir/families-inl.hpp>
#include <ctir/ir/graph/expr-inl.hpp>
#include <ctir/ir/module-inl.hpp>
#include <ctir/ir/op_registry-inl.hpp>
#include <ctir/ir/ops-inl.hpp>
#include <ctir/ir/span-inl.hpp>
#include <ctir/ir/tensor/expr-inl.hpp>
#include <ctir/ir/tensor/prim_func-inl.hpp>
#include <ctir/ir/tensor/stmt-inl.hpp>
#include <ctir/ir/tensor_data-inl.hpp>
#include <ctir/ir/type-inl.hpp>
#include <ctir/ir/type_str-inl.hpp>
#include <ctir/ir/var-inl.hpp>
