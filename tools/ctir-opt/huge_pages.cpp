// Restarting ctir-opt with glibc's heap on transparent huge pages (see huge_pages.hpp).
#include "huge_pages.hpp"

#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace ctir_opt {
namespace {

constexpr std::string_view tunable = "glibc.malloc.hugetlb";

/// Whether the kernel gives a process huge pages when it asks (madvise) or always.
bool kernel_offers_huge_pages() {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(mode, line) && line.find("[never]") == std::string::npos;
}

bool set_and_not(const char* name, std::string_view value) {
  const char* current = std::getenv(name);
  return current != nullptr && std::string_view(current) != value;
}

} // namespace

void restart_with_huge_pages(char** argv) {
  if (set_and_not("CTIR_OPT_HUGE_PAGES", "1") || set_and_not("LD_PRELOAD", "")) {
    return;
  }
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string value = tunables != nullptr ? tunables : "";
  if (value.find(tunable) != std::string::npos || !kernel_offers_huge_pages()) {
    return;
  }
  value += value.empty() ? "" : ":";
  value += std::string(tunable) + "=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) {
    return;
  }
  execv("/proc/self/exe", argv);
  // No restart (no /proc, say): run as it is, and leave the environment as it was.
  if (tunables != nullptr) {
    setenv("GLIBC_TUNABLES", tunables, 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

} // namespace ctir_opt
