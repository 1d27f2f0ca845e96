// Definitions of <ctir/ir/analysis/well_formed.hpp>.
#pragma once

#include <ctir/ir/analysis/well_formed.hpp>

// The checker's engine defines verify_well_formed.
#include <ctir/ir/analysis/detail/well_formed_checker.hpp>

#include <string>

namespace ctir {

CTIR_INLINE std::string WellFormedDiagnostic::str() const {
  return location + ": " + message + " (at " + path.str() + ")";
}

} // namespace ctir
