// Definitions of <ctir/pass/info.hpp>.
#pragma once

#include <ctir/pass/info.hpp>

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>

namespace ctir {

CTIR_INLINE std::string_view intern_name(std::string_view name) {
  struct Pool {
    std::mutex mutex;
    std::unordered_set<std::string> names; // node-based: element addresses are stable
  };
  static Pool* pool = new Pool(); // never destroyed: views may be used during exit
  std::lock_guard lock(pool->mutex);
  return *pool->names.emplace(name).first;
}

} // namespace ctir
