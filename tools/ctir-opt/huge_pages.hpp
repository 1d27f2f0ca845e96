// ctir-opt's memory: transparent huge pages for the heap of a large module.
#pragma once

namespace ctir_opt {

/// Restarts ctir-opt (same arguments, same open streams) with glibc's heap on transparent
/// huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), when the kernel offers them on
/// request and nothing asked otherwise; returns (and ctir-opt runs as it is) when it does
/// not restart.
///
/// A module of a million operations fills hundreds of megabytes of nodes and tables; in 4 KiB
/// pages, faulting them in and missing the TLB take a large share of a run (measured:
/// docs/performance.md, "Peers"). glibc reads the tunable only at start-up, hence the
/// restart, which costs one exec. It is skipped when CTIR_OPT_HUGE_PAGES=0, when
/// GLIBC_TUNABLES already sets glibc.malloc.hugetlb, when the kernel's transparent huge
/// pages are off, and under LD_PRELOAD (valgrind, profilers and interposed allocators, whose
/// measurements a restart would escape).
void restart_with_huge_pages(char** argv);

} // namespace ctir_opt
