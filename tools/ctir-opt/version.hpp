// The version ctir-opt reports (--version).
#pragma once

#include <string_view>

namespace ctir_opt {

/// ctir's version, `MAJOR.MINOR.PATCH`.
std::string_view ctir_version();

} // namespace ctir_opt
