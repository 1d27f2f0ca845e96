// Definitions of <ctir/runtime/pass/detail/model.hpp>.
#pragma once

#include <ctir/runtime/pass/detail/model.hpp>

#include <string>

namespace ctir::detail {

// Out of line so that the compiled library holds the one vtable of the interface.
CTIR_INLINE PassConcept::~PassConcept() = default;

CTIR_INLINE void print_sequential_head(const PassInfo& info, std::string& out) {
  out += "sequential";
  PassOptionValues head;
  if (info.name != "sequential") {
    head.push_back({"name", std::string(info.name)});
  }
  if (info.opt_level != 0) {
    head.push_back({"opt_level", std::to_string(info.opt_level)});
  }
  append_options(out, head);
}

} // namespace ctir::detail
