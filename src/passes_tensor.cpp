// ctir::compiled: the tensor-level standard passes and LegalizeOps with its lowerings.
#include <ctir/passes/detail/legalize_common-inl.hpp>
#include <ctir/passes/detail/legalize_elementwise-inl.hpp>
#include <ctir/passes/detail/legalize_layout-inl.hpp>
#include <ctir/passes/detail/legalize_reduction-inl.hpp>
#include <ctir/passes/detail/tensor_utils-inl.hpp>
#include <ctir/passes/flatten_buffer-inl.hpp>
#include <ctir/passes/legalize_call-inl.hpp>
#include <ctir/passes/legalize_ops-inl.hpp>
#include <ctir/passes/remove_no_op-inl.hpp>
#include <ctir/passes/simplify-inl.hpp>
#include <ctir/passes/unroll_loop-inl.hpp>
