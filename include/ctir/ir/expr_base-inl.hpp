// Definitions of <ctir/ir/expr_base.hpp>.
#pragma once

#include <ctir/ir/expr_base.hpp>

namespace ctir {

CTIR_INLINE bool BaseFuncNode::skip_optimization() const {
  return attrs.get<bool>("SkipOptimization").value_or(false);
}

} // namespace ctir
