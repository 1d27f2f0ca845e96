// ctir::compiled: the reference interpreter, the scalar semantics and the operator kernels.
#include <ctir/eval/detail/check_args-inl.hpp>
#include <ctir/eval/detail/graph_eval-inl.hpp>
#include <ctir/eval/detail/tensor_eval-inl.hpp>
#include <ctir/eval/error-inl.hpp>
#include <ctir/eval/interpreter-inl.hpp>
#include <ctir/eval/kernels-inl.hpp>
#include <ctir/eval/random_inputs-inl.hpp>
#include <ctir/eval/scalar-inl.hpp>
#include <ctir/eval/value-inl.hpp>
