// ctir::compiled: the pass infrastructure (contexts, configuration, instruments' erasure, errors).
#include <ctir/pass/config-inl.hpp>
#include <ctir/pass/context-inl.hpp>
#include <ctir/pass/detail/hooks-inl.hpp>
#include <ctir/pass/detail/thread_pool-inl.hpp>
#include <ctir/pass/error-inl.hpp>
#include <ctir/pass/info-inl.hpp>
#include <ctir/pass/instrument-inl.hpp>
#include <ctir/pass/options-inl.hpp>
#include <ctir/pass/requirements-inl.hpp>
#include <ctir/pass/run-inl.hpp>

// The per-function loop of the function passes, once for each kind of function.
namespace ctir::detail {
template IRModule
map_functions_of<FunctionNode>(IRModule, std::string_view, bool, bool, const PassContext&,
                               function_ref<Ref<FunctionNode>(Ref<FunctionNode>, const IRModule&)>);
template IRModule
map_functions_of<PrimFuncNode>(IRModule, std::string_view, bool, bool, const PassContext&,
                               function_ref<Ref<PrimFuncNode>(Ref<PrimFuncNode>, const IRModule&)>);
} // namespace ctir::detail
