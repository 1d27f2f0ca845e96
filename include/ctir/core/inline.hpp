// Inlining control for ctir's hot paths (traversal engines, static pipelines).
#pragma once

// Forced inlining is for optimised builds only: without optimisation it makes nothing
// faster, and inlining every node-type switch into every field site doubles compile time.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define CTIR_DETAIL_ALWAYS_INLINE [[gnu::always_inline]] inline
#define CTIR_DETAIL_NOINLINE [[gnu::noinline]]
/// Placed after a lambda's parameter list: always inline its body.
#define CTIR_DETAIL_INLINE_LAMBDA __attribute__((always_inline))
#else
#define CTIR_DETAIL_ALWAYS_INLINE inline
#define CTIR_DETAIL_NOINLINE
#define CTIR_DETAIL_INLINE_LAMBDA
#endif

// Inlining that clang needs and g++ does better without, each measured with
// bench/callgrind.sh: forced with clang only.
#if defined(__clang__) && defined(__OPTIMIZE__)
#define CTIR_DETAIL_CLANG_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define CTIR_DETAIL_CLANG_ALWAYS_INLINE inline
#endif
