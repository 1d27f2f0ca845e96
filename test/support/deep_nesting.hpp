// How long the chains and how deep the nests are that the tests build to show that a
// traversal, the printer, the parser or a destructor does not recurse natively per level.
//
// A build with AddressSanitizer or ThreadSanitizer checks memory errors and data races, and
// 100,000 levels is still far past any native recursion there (an 8 MiB stack would allow
// 80 bytes a level; an instrumented -O0 frame takes far more); the optimized build checks
// the full million.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CTIR_TEST_DEEP_NESTING 100'000
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CTIR_TEST_DEEP_NESTING 100'000
#endif
#endif
#ifndef CTIR_TEST_DEEP_NESTING
#define CTIR_TEST_DEEP_NESTING 1'000'000
#endif

namespace ctir::testing {

/// The number of levels of a chain or nest that native recursion per level could not get
/// through: far more than the traversals' 64 KiB native-stack budget holds, and far more
/// than a thread's stack would.
inline constexpr int deep_nesting = CTIR_TEST_DEEP_NESTING;

} // namespace ctir::testing
