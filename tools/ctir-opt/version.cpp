// The version ctir-opt reports (--version).
#include "version.hpp"

#include <ctir/version.hpp>

namespace ctir_opt {

std::string_view ctir_version() { return CTIR_VERSION_STRING; }

} // namespace ctir_opt
