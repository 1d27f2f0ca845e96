// The C text every generated translation unit starts with: headers, the status of a
// call, and the scalar helpers that give C the interpreter's semantics.
#pragma once

#include <string_view>

namespace ctir::codegen::detail {

/// Helpers the generated code calls: index checks, wrapping integer arithmetic, floor
/// division and modulo, NaN-propagating float min/max, saturating float-to-integer casts,
/// checked loads and stores. All `static inline`: the C compiler inlines them.
inline constexpr std::string_view c_prelude = R"C(#include <dlpack/dlpack.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define CTIR_EXPORT __attribute__((visibility("default")))
#else
#define CTIR_EXPORT
#endif

/* The state of one call: whether it failed, and where its first error goes. */
typedef struct {
  int failed;
  char* message;
  size_t size;
} ctir_status;

/* Records the first error of a call; later ones are dropped. */
static void ctir_fail(ctir_status* st, const char* what) {
#ifdef _OPENMP
#pragma omp critical(ctir_fail)
#endif
  {
    if (!st->failed) {
      st->failed = 1;
      if (st->size > 0) snprintf(st->message, st->size, "%s", what);
    }
  }
}

/* Records a dimension that differs from what the signature says. */
static void ctir_fail_dim(ctir_status* st, const char* what, int64_t actual, int64_t expected) {
  char text[512];
  snprintf(text, sizeof text, "%s is %lld, expected %lld", what, (long long)actual,
           (long long)expected);
  ctir_fail(st, text);
}

/* Row-major offset step acc * extent + index; -1 once an index is out of [0, extent). */
static inline int64_t ctir_idx(int64_t acc, int64_t index, int64_t extent) {
  return (acc < 0 || index < 0 || index >= extent) ? -1 : acc * extent + index;
}

/* Integer division and modulo rounding toward negative infinity; x / -1 wraps. */
static inline int64_t ctir_floordiv(int64_t x, int64_t y, ctir_status* st, const char* what) {
  if (y == 0) { ctir_fail(st, what); return 0; }
  if (y == -1) return (int64_t)((uint64_t)0 - (uint64_t)x);
  int64_t q = x / y;
  int64_t m = x % y;
  if (m != 0 && ((m < 0) != (y < 0))) q -= 1;
  return q;
}
static inline int64_t ctir_floormod(int64_t x, int64_t y, ctir_status* st, const char* what) {
  if (y == 0) { ctir_fail(st, what); return 0; }
  if (y == -1) return 0;
  int64_t m = x % y;
  if (m != 0 && ((m < 0) != (y < 0))) m += y;
  return m;
}

/* Integer arithmetic on unsigned 64-bit values, wrapped to the dtype. */
#define CTIR_WRAP_INT(T, x) ((T)(x))
#define CTIR_WRAP_BOOL(T, x) ((T)((x) != 0))
#define CTIR_INT_OPS(S, T, WRAP)                                                                \
  static inline T ctir_add_##S(T a, T b) { return WRAP(T, (uint64_t)a + (uint64_t)b); }         \
  static inline T ctir_sub_##S(T a, T b) { return WRAP(T, (uint64_t)a - (uint64_t)b); }         \
  static inline T ctir_mul_##S(T a, T b) { return WRAP(T, (uint64_t)a * (uint64_t)b); }         \
  static inline T ctir_neg_##S(T a) { return WRAP(T, (uint64_t)0 - (uint64_t)a); }              \
  static inline T ctir_min_##S(T a, T b) { return b < a ? b : a; }                              \
  static inline T ctir_max_##S(T a, T b) { return b > a ? b : a; }                              \
  static inline T ctir_div_##S(T a, T b, ctir_status* st, const char* what) {                   \
    return WRAP(T, (uint64_t)ctir_floordiv(a, b, st, what));                                    \
  }                                                                                             \
  static inline T ctir_mod_##S(T a, T b, ctir_status* st, const char* what) {                   \
    return WRAP(T, (uint64_t)ctir_floormod(a, b, st, what));                                    \
  }
CTIR_INT_OPS(i8, int8_t, CTIR_WRAP_INT)
CTIR_INT_OPS(i16, int16_t, CTIR_WRAP_INT)
CTIR_INT_OPS(i32, int32_t, CTIR_WRAP_INT)
CTIR_INT_OPS(i64, int64_t, CTIR_WRAP_INT)
CTIR_INT_OPS(u8, uint8_t, CTIR_WRAP_INT)
CTIR_INT_OPS(b, uint8_t, CTIR_WRAP_BOOL)

/* Float modulo with the divisor's sign; min and max return NaN if either operand is. */
static inline double ctir_fmod_floor(double x, double y) {
  double r = fmod(x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}
static inline double ctir_fmin(double x, double y) {
  return (isnan(x) || isnan(y)) ? NAN : (y < x ? y : x);
}
static inline double ctir_fmax(double x, double y) {
  return (isnan(x) || isnan(y)) ? NAN : (y > x ? y : x);
}

/* Float to integer: truncated toward zero, saturated, NaN to 0. */
static inline int64_t ctir_saturate(double v, double low, double high, int64_t low_value,
                                    int64_t high_value) {
  if (isnan(v)) return 0;
  double t = trunc(v);
  if (t <= low) return low_value;
  if (t >= high) return high_value;
  return (int64_t)t;
}
static inline int8_t ctir_f2i_i8(double v) { return (int8_t)ctir_saturate(v, -128.0, 127.0, -128, 127); }
static inline int16_t ctir_f2i_i16(double v) {
  return (int16_t)ctir_saturate(v, -32768.0, 32767.0, -32768, 32767);
}
static inline int32_t ctir_f2i_i32(double v) {
  return (int32_t)ctir_saturate(v, -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX);
}
static inline int64_t ctir_f2i_i64(double v) {
  return ctir_saturate(v, -9223372036854775808.0, 9223372036854775808.0, INT64_MIN, INT64_MAX);
}
static inline uint8_t ctir_f2i_u8(double v) { return (uint8_t)ctir_saturate(v, 0.0, 255.0, 0, 255); }

/* select(c, t, f) evaluates both branches; checked loads yield 0 out of bounds and
   checked stores skip the write. */
#define CTIR_ELEMENT_OPS(S, T)                                                                  \
  static inline T ctir_select_##S(int c, T t, T f) { return c ? t : f; }                       \
  static inline T ctir_load_##S(const T* p, int64_t o, ctir_status* st, const char* what) {     \
    if (o < 0) { ctir_fail(st, what); return 0; }                                               \
    return p[o];                                                                                \
  }                                                                                             \
  static inline void ctir_store_##S(T* p, int64_t o, T v, ctir_status* st, const char* what) { \
    if (o < 0) ctir_fail(st, what); else p[o] = v;                                              \
  }
CTIR_ELEMENT_OPS(i8, int8_t)
CTIR_ELEMENT_OPS(i16, int16_t)
CTIR_ELEMENT_OPS(i32, int32_t)
CTIR_ELEMENT_OPS(i64, int64_t)
CTIR_ELEMENT_OPS(u8, uint8_t)
CTIR_ELEMENT_OPS(f32, float)
CTIR_ELEMENT_OPS(f64, double)

/* float16 is stored as its bits and computed as float, each result rounded to half
   precision as the interpreter rounds it (to float, then to half, to nearest even). */
static inline float ctir_half_to_float(uint16_t h) {
  uint32_t sign = h & 0x8000u;
  uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  float magnitude;
  if (exponent == 0) magnitude = ldexpf((float)mantissa, -24);
  else if (exponent == 31) magnitude = mantissa == 0 ? INFINITY : NAN;
  else magnitude = ldexpf((float)(mantissa | 0x400u), (int)exponent - 25);
  return sign ? -magnitude : magnitude;
}
static inline uint16_t ctir_float_to_half(float f) {
  uint32_t bits;
  memcpy(&bits, &f, 4);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  if (isnan(f)) return (uint16_t)(sign | 0x7E00u);
  float magnitude = fabsf(f);
  if (magnitude >= 65520.0f) return (uint16_t)(sign | 0x7C00u);
  if (magnitude == 0.0f) return sign;
  int exponent;
  float fraction = frexpf(magnitude, &exponent);
  if (exponent < -13) return (uint16_t)(sign | (uint16_t)nearbyintf(ldexpf(magnitude, 24)));
  uint32_t m = (uint32_t)nearbyintf(ldexpf(fraction, 11));
  if (m == 2048u) { m = 1024u; ++exponent; }
  return (uint16_t)(sign | ((uint32_t)(exponent + 14) << 10) | (m & 0x3FFu));
}
static inline float ctir_f16(double v) { return ctir_half_to_float(ctir_float_to_half((float)v)); }
static inline float ctir_select_f16(int c, float t, float f) { return c ? t : f; }
static inline float ctir_load_f16(const uint16_t* p, int64_t o, ctir_status* st, const char* what) {
  if (o < 0) { ctir_fail(st, what); return 0; }
  return ctir_half_to_float(p[o]);
}
static inline void ctir_store_f16(uint16_t* p, int64_t o, float v, ctir_status* st,
                                  const char* what) {
  if (o < 0) ctir_fail(st, what); else p[o] = ctir_float_to_half(v);
}

/* A zero-filled buffer of count elements; NULL (and an error) when out of memory. */
static void* ctir_alloc(int64_t count, size_t size, ctir_status* st, const char* what) {
  void* p = calloc(count > 0 ? (size_t)count : 1, size);
  if (p == NULL) ctir_fail(st, what);
  return p;
}
)C";

} // namespace ctir::codegen::detail
