// The built-in lowerings of layout operators: transpose, reshape, concatenate.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/passes/legalize_call.hpp>

namespace ctir::passes::detail {

/// A transpose (`axes`, or the axes reversed).
Stmt lower_transpose(const LegalizeCall& call);

/// A reshape: each output element read at the same row-major position of the input.
Stmt lower_reshape(const LegalizeCall& call);

/// A concatenation along `axis`: each input copied at its offset.
Stmt lower_concatenate(const LegalizeCall& call);

} // namespace ctir::passes::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/passes/detail/legalize_layout-inl.hpp>
#endif
