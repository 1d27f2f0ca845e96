// How ctir's non-template code is linked: inline in every user (header-only, the default),
// or compiled once into the ctir::compiled library.
#pragma once

/// Defined (by the ctir::compiled target) when ctir's non-template code comes from the
/// compiled library rather than from the headers.
///
/// A header `x.hpp` declares; `x-inl.hpp` beside it defines what is not a template, each
/// definition marked CTIR_INLINE. In header-only mode `x.hpp` includes `x-inl.hpp` at its
/// end and CTIR_INLINE is `inline`; in compiled mode only the library's sources (src/)
/// include the `-inl.hpp` files, once, and users' translation units never parse them.
#if defined(CTIR_COMPILED_LIB)
#define CTIR_INLINE
#else
/// Header-only mode: every `x.hpp` brings its `x-inl.hpp`.
#define CTIR_HEADER_ONLY 1
#define CTIR_INLINE inline
#endif
