// The stack of pass runs an instrument has seen start but not yet end.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::detail {

/// Takes the innermost open run named `name` out of `open` into `run`; runs opened after it
/// and never closed (an instrument threw between their hooks) are dropped. False if no run
/// of that name is open. `Run` has a `name` member.
template <class Run>
bool take_open_run(std::vector<Run>& open, std::string_view name, Run& run) {
  std::size_t match = open.size();
  while (match > 0 && open[match - 1].name != name) {
    --match;
  }
  if (match == 0) {
    return false;
  }
  run = std::move(open[match - 1]);
  open.resize(match - 1);
  return true;
}

} // namespace ctir::detail
