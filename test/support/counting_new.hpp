// A counting global operator new, for the tests that check that an operation allocates
// nothing (or a known number of times). Replacement allocation functions are defined once
// per program, so include this header from one test file per test executable.
//
// ThreadSanitizer's runtime defines the global operator new itself (a second definition
// does not link), so under it nothing is replaced: `counts_allocations` is false and the
// checks that need the count are skipped.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_THREAD__)
#define CTIR_TEST_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CTIR_TEST_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef CTIR_TEST_COUNTS_ALLOCATIONS
#define CTIR_TEST_COUNTS_ALLOCATIONS 1
#endif

namespace ctir::testing {

inline constexpr bool counts_allocations = CTIR_TEST_COUNTS_ALLOCATIONS != 0;

inline std::atomic<long> allocation_count{0};

/// The number of allocations made while `f` runs.
template <class F>
long allocations_during(F&& f) {
  const long before = allocation_count.load();
  static_cast<F&&>(f)();
  return allocation_count.load() - before;
}

namespace detail {
inline void* counted_allocation(std::size_t size) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) {
    return p;
  }
  throw std::bad_alloc();
}
inline void* counted_aligned_allocation(std::size_t size, std::align_val_t align) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  const auto alignment = static_cast<std::size_t>(align);
  const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
  if (void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded)) {
    return p;
  }
  throw std::bad_alloc();
}
template <class Allocate>
void* without_throwing(Allocate allocate) noexcept {
  try {
    return allocate();
  } catch (...) {
    return nullptr;
  }
}
} // namespace detail

} // namespace ctir::testing

#if CTIR_TEST_COUNTS_ALLOCATIONS
// Every form is replaced (std::stable_sort's buffer takes the nothrow one), so that every
// pointer the replaced operator delete frees came from malloc.
void* operator new(std::size_t size) { return ctir::testing::detail::counted_allocation(size); }
void* operator new[](std::size_t size) { return ctir::testing::detail::counted_allocation(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  return ctir::testing::detail::counted_aligned_allocation(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return ctir::testing::detail::counted_aligned_allocation(size, align);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return ctir::testing::detail::without_throwing(
      [&] { return ctir::testing::detail::counted_allocation(size); });
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return ctir::testing::detail::without_throwing(
      [&] { return ctir::testing::detail::counted_allocation(size); });
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return ctir::testing::detail::without_throwing(
      [&] { return ctir::testing::detail::counted_aligned_allocation(size, align); });
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return ctir::testing::detail::without_throwing(
      [&] { return ctir::testing::detail::counted_aligned_allocation(size, align); });
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
#endif
