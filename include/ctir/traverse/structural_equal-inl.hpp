// Definitions of <ctir/traverse/structural_equal.hpp>.
#pragma once

#include <ctir/traverse/structural_equal.hpp>

#include <optional>

namespace ctir::detail::structural {

CTIR_INLINE std::optional<StructuralMismatch>
first_mismatch(const Object* a, const Object* b, const StructuralEqualOptions& options) {
  EqualCore<true> engine(options.map_free_vars);
  if (engine.run_iterative(a, b, 0)) {
    return std::nullopt;
  }
  return engine.take_mismatch();
}

} // namespace ctir::detail::structural
