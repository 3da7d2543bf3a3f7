// <immintrin.h> for simd/avx512.h on a CPU without AVX-512: GCC's own
// header, then SIMDe's model of the AVX-512 intrinsics (Debian's
// libsimde-dev) under their Intel names. Used by bench/ulp/isa_model.sh (the
// avx512 math lanes over all 2^32 inputs) and tests/avx512_model (the
// generated kernels' avx512 variants against the reference). Where SIMDe
// 0.7.4 models an instruction otherwise than the Intel SDM, has a bug, or
// lacks it, the form below follows the SDM (MXCSR as the runtime leaves it:
// round to nearest, DAZ and FTZ clear):
// - vscalefps: SIMDe flushes subnormal inputs and scales through
//   exp2(floor(b)), which overflows or underflows before the product does;
//   here x 2^floor(b) rounded once, with the SDM's special cases;
// - vfixupimmps: written from the SDM's token table here (log_specials
//   uses it), so that a subnormal x is a value, as with DAZ clear;
// - vrndscaleps/pd: SIMDe reads the precision-exception bit of imm8 as a
//   scale (floor(0.3) gave 0.25);
// - masked loads and stores: lane by lane, so that a masked-out lane is
//   neither read nor written, as on the hardware (guard pages rely on it);
// - SIMDe's maskz/mask insert macros pass an undeclared `imms8`;
// - the masked, converting, shifting and comparing forms SIMDe lacks: its
//   unmasked ones under a zeroing mask, or lane by lane below.
// avx512_model.h, included first, compiles avx512.h's functions for AVX2,
// so that an intrinsic the model lacks is a compile error rather than an
// AVX-512 instruction.
#pragma once

#include_next <immintrin.h>

#ifndef __FMA__
#error "the AVX-512 model needs -mfma: SIMDe's _mm512_fmadd_ps is unfused without it"
#endif

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#undef _mm512_maskz_insertf32x8
#define _mm512_maskz_insertf32x8(k, a, b, imm8) simde_mm512_maskz_insertf32x8(k, a, b, imm8)
#undef _mm512_mask_insertf32x8
#define _mm512_mask_insertf32x8(src, k, a, b, imm8) simde_mm512_mask_insertf32x8(src, k, a, b, imm8)

namespace avx512_model {

inline std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}
inline float from_bits(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
inline float quiet(float x) { return from_bits(bits(x) | 0x00400000u); }
constexpr std::uint32_t kIndefinite = 0xffc00000u;  // QNaN_Indefinite

// VSCALEFPS, one lane: a 2^floor(b) (SDM, table "VSCALEFPS Special Cases").
inline float scalef(float a, float b) {
  if (std::isnan(a)) return quiet(a);
  if (std::isnan(b)) return quiet(b);
  if (a == 0.0f) return std::isinf(b) && b > 0 ? from_bits(kIndefinite) : a;
  if (std::isinf(a)) return std::isinf(b) && b < 0 ? from_bits(kIndefinite) : a;
  if (std::isinf(b)) return b > 0 ? std::copysign(INFINITY, a) : std::copysign(0.0f, a);
  // Past +-400 the result is inf or 0 either way; scalbnf rounds once.
  const float n = std::floor(std::fmax(-400.0f, std::fmin(400.0f, b)));
  return std::scalbnf(a, static_cast<int>(n));
}

// VFIXUPIMMPS, one lane: the token of src's class in table, per the SDM.
inline float fixupimm(float dest, float src, std::uint32_t table) {
  int j;
  if (std::isnan(src)) {
    j = (bits(src) & 0x00400000u) ? 0 : 1;  // QNaN, SNaN
  } else if (src == 0.0f) {
    j = 2;
  } else if (src == 1.0f) {
    j = 3;
  } else if (std::isinf(src)) {
    j = src < 0 ? 4 : 5;
  } else {
    j = src < 0 ? 6 : 7;  // subnormals too: DAZ is clear
  }
  switch ((table >> (4 * j)) & 0xF) {
    case 0: return dest;
    case 1: return src;
    case 2: return quiet(src);
    case 3: return from_bits(kIndefinite);
    case 4: return -INFINITY;
    case 5: return INFINITY;
    case 6: return src < 0 ? -INFINITY : INFINITY;
    case 7: return -0.0f;
    case 8: return 0.0f;
    case 9: return -1.0f;
    case 10: return 1.0f;
    case 11: return 0.5f;
    case 12: return 90.0f;
    case 13: return 1.57079637f;
    case 14: return 3.40282347e+38f;
    default: return -3.40282347e+38f;
  }
}

template <typename F>
inline simde__m512 per_lane(simde__mmask16 k, F f) {
  alignas(64) float r[16];
  for (int i = 0; i < 16; ++i) r[i] = (k >> i) & 1 ? f(i) : 0.0f;
  return simde_mm512_load_ps(r);
}

inline simde__m512 maskz_scalef_ps(simde__mmask16 k, simde__m512 a, simde__m512 b) {
  alignas(64) float x[16], y[16];
  simde_mm512_store_ps(x, a);
  simde_mm512_store_ps(y, b);
  return per_lane(k, [&](int i) { return scalef(x[i], y[i]); });
}

inline simde__m512 maskz_fixupimm_ps(simde__mmask16 k, simde__m512 a, simde__m512 b, simde__m512i c) {
  alignas(64) float d[16], s[16];
  alignas(64) std::uint32_t t[16];
  simde_mm512_store_ps(d, a);
  simde_mm512_store_ps(s, b);
  simde_mm512_store_si512(t, c);
  return per_lane(k, [&](int i) { return fixupimm(d[i], s[i], t[i]); });
}

// Those SIMDe 0.7.4 lacks, lane by lane.
// Within each 128-bit lane, the element that the index's low 2 bits name.
inline simde__m512 permutevar_ps(simde__m512 a, simde__m512i j) {
  alignas(64) float x[16], r[16];
  alignas(64) std::int32_t i[16];
  simde_mm512_store_ps(x, a);
  simde_mm512_store_si512(i, j);
  for (int l = 0; l < 16; ++l) r[l] = x[(l & ~3) + (i[l] & 3)];
  return simde_mm512_load_ps(r);
}

// Masked loads and stores lane by lane: a masked-out lane is neither read
// nor written, so that, as on the hardware, they never fault past a
// buffer's end (the guard-page tests rely on it).
template <typename V, typename E, int N>
inline V maskz_loadu(std::uint64_t k, const void* p) {
  E r[N] = {};
  for (int i = 0; i < N; ++i) {
    if ((k >> i) & 1) std::memcpy(&r[i], static_cast<const char*>(p) + i * sizeof(E), sizeof(E));
  }
  V v;
  std::memcpy(&v, r, sizeof(V));
  return v;
}

template <typename E, int N, typename V>
inline void mask_storeu(void* p, std::uint64_t k, V v) {
  E x[N];
  std::memcpy(x, &v, sizeof(V));
  for (int i = 0; i < N; ++i) {
    if ((k >> i) & 1) std::memcpy(static_cast<char*>(p) + i * sizeof(E), &x[i], sizeof(E));
  }
}

// Lane-wise forms of what SIMDe lacks. R is the result's vector type; its
// N lanes come from a's first N lanes, masked-out lanes are zero.
template <typename R, typename To, typename From, int N, typename V>
inline R convert(std::uint64_t k, V a) {
  static_assert(sizeof(R) == N * sizeof(To), "the result holds N lanes");
  From x[N];
  To r[N];
  std::memcpy(x, &a, sizeof(x));
  for (int i = 0; i < N; ++i) r[i] = (k >> i) & 1 ? static_cast<To>(x[i]) : To{};  // ints wrap, floats round to nearest
  R v;
  std::memcpy(&v, r, sizeof(R));
  return v;
}

// vrndscaleps/pd with M = 0 (imm8's high nibble, which SIMDe misreads):
// the integral value by imm8's rounding (bit 2: MXCSR's, round to nearest
// even), keeping the sign of a zero, NaN quieted.
template <typename R, typename E, int N>
inline R roundscale(std::uint64_t k, R a, int imm8) {
  if ((imm8 >> 4) != 0) std::abort();  // a scale: not modelled (no caller)
  E x[N];
  std::memcpy(x, &a, sizeof(x));
  const int mode = imm8 & 4 ? 0 : imm8 & 3;
  for (int i = 0; i < N; ++i) {
    const E v = mode == 0 ? std::nearbyint(x[i]) : mode == 1 ? std::floor(x[i]) : mode == 2 ? std::ceil(x[i]) : std::trunc(x[i]);
    x[i] = (k >> i) & 1 ? (std::isnan(v) ? x[i] + x[i] : v) : E{};
  }
  R r;
  std::memcpy(&r, x, sizeof(R));
  return r;
}

// Truncating float-to-integer conversions: NaN and values out of range
// give the integer indefinite (the lowest value).
template <typename R, typename To, typename From, int N, typename V>
inline R convert_truncated(std::uint64_t k, V a) {
  From x[N];
  To r[N];
  std::memcpy(x, &a, sizeof(x));
  const From high = -static_cast<From>(std::numeric_limits<To>::min());  // 2^(bits - 1), exact
  for (int i = 0; i < N; ++i) {
    const From t = std::trunc(x[i]);
    r[i] = !((k >> i) & 1) ? To{} : t >= -high && t < high ? static_cast<To>(t) : std::numeric_limits<To>::min();
  }
  R v;
  std::memcpy(&v, r, sizeof(R));
  return v;
}

template <typename E, int N, typename V, typename P>
inline std::uint64_t compare(V a, V b, P p) {
  E x[N], y[N];
  std::memcpy(x, &a, sizeof(x));
  std::memcpy(y, &b, sizeof(y));
  std::uint64_t m = 0;
  for (int i = 0; i < N; ++i) m |= static_cast<std::uint64_t>(p(x[i], y[i]) ? 1 : 0) << i;
  return m;
}

// The 16-bit float conversions, by F16C on each half (its rounding control
// R is vcvtps2ph's).
inline simde__m512 cvtph_ps(__m256i a) {
  __m256 lo = _mm256_cvtph_ps(_mm256_castsi256_si128(a)), hi = _mm256_cvtph_ps(_mm256_extracti128_si256(a, 1));
  simde__m512 r;
  std::memcpy(&r, &lo, 32);
  std::memcpy(reinterpret_cast<char*>(&r) + 32, &hi, 32);
  return r;
}

template <int R>
inline __m256i cvtps_ph(simde__m512 a) {
  __m256 lo, hi;
  std::memcpy(&lo, &a, 32);
  std::memcpy(&hi, reinterpret_cast<const char*>(&a) + 32, 32);
  return _mm256_set_m128i(_mm256_cvtps_ph(hi, R), _mm256_cvtps_ph(lo, R));
}

// Arithmetic shifts right by per-lane counts (past the width: the sign).
template <typename E, int N, typename V>
inline V srav(V a, V b) {
  E x[N], c[N];
  std::memcpy(x, &a, sizeof(x));
  std::memcpy(c, &b, sizeof(c));
  for (int i = 0; i < N; ++i) {
    const auto n = static_cast<std::make_unsigned_t<E>>(c[i]);
    x[i] = n >= sizeof(E) * 8 ? (x[i] < 0 ? E(-1) : E(0)) : E(x[i] >> n);
  }
  V v;
  std::memcpy(&v, x, sizeof(V));
  return v;
}

template <int N, typename V>
inline std::uint64_t test_epi8(std::uint64_t k, V a, V b) {
  return k & compare<std::uint8_t, N>(a, b, [](std::uint8_t x, std::uint8_t y) { return (x & y) != 0; });
}

}  // namespace avx512_model

#undef _mm512_scalef_ps
#define _mm512_scalef_ps(a, b) avx512_model::maskz_scalef_ps(0xFFFF, a, b)
#undef _mm512_maskz_scalef_ps
#define _mm512_maskz_scalef_ps(k, a, b) avx512_model::maskz_scalef_ps(k, a, b)
// imm8 only controls the exceptions it reports: none are observed here.
#undef _mm512_maskz_fixupimm_ps
#define _mm512_maskz_fixupimm_ps(k, a, b, c, imm8) avx512_model::maskz_fixupimm_ps(k, a, b, c)
#undef _mm512_maskz_slli_epi32
#define _mm512_maskz_slli_epi32(k, a, n) simde_mm512_maskz_mov_epi32(k, simde_mm512_slli_epi32(a, n))
#undef _mm512_maskz_srli_epi32
#define _mm512_maskz_srli_epi32(k, a, n) simde_mm512_maskz_mov_epi32(k, simde_mm512_srli_epi32(a, n))
#undef _mm512_maskz_srai_epi32
// srai is srav by a count in every lane (defined below).
#define _mm512_maskz_srai_epi32(k, a, n) _mm512_maskz_srav_epi32(k, a, simde_mm512_set1_epi32(static_cast<int>(n)))
#undef _mm512_maskz_permutevar_ps
#define _mm512_maskz_permutevar_ps(k, a, j) simde_mm512_maskz_mov_ps(k, avx512_model::permutevar_ps(a, j))
#undef _mm512_maskz_sqrt_ps
#define _mm512_maskz_sqrt_ps(k, a) simde_mm512_maskz_mov_ps(k, simde_mm512_sqrt_ps(a))

#undef _mm512_maskz_loadu_ps
#define _mm512_maskz_loadu_ps(k, p) avx512_model::maskz_loadu<simde__m512, float, 16>(k, p)
#undef _mm512_mask_storeu_ps
#define _mm512_mask_storeu_ps(p, k, v) avx512_model::mask_storeu<float, 16>(p, k, v)
#undef _mm512_maskz_loadu_pd
#define _mm512_maskz_loadu_pd(k, p) avx512_model::maskz_loadu<simde__m512d, double, 8>(k, p)
#undef _mm512_mask_storeu_pd
#define _mm512_mask_storeu_pd(p, k, v) avx512_model::mask_storeu<double, 8>(p, k, v)
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8(k, p) avx512_model::maskz_loadu<simde__m512i, std::int8_t, 64>(k, p)
#undef _mm512_mask_storeu_epi8
#define _mm512_mask_storeu_epi8(p, k, v) avx512_model::mask_storeu<std::int8_t, 64>(p, k, v)
#undef _mm512_maskz_loadu_epi16
#define _mm512_maskz_loadu_epi16(k, p) avx512_model::maskz_loadu<simde__m512i, std::int16_t, 32>(k, p)
#undef _mm512_mask_storeu_epi16
#define _mm512_mask_storeu_epi16(p, k, v) avx512_model::mask_storeu<std::int16_t, 32>(p, k, v)
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32(k, p) avx512_model::maskz_loadu<simde__m512i, std::int32_t, 16>(k, p)
#undef _mm512_mask_storeu_epi32
#define _mm512_mask_storeu_epi32(p, k, v) avx512_model::mask_storeu<std::int32_t, 16>(p, k, v)
#undef _mm512_maskz_loadu_epi64
#define _mm512_maskz_loadu_epi64(k, p) avx512_model::maskz_loadu<simde__m512i, std::int64_t, 8>(k, p)
#undef _mm512_mask_storeu_epi64
#define _mm512_mask_storeu_epi64(p, k, v) avx512_model::mask_storeu<std::int64_t, 8>(p, k, v)
#undef _mm256_maskz_loadu_epi8
#define _mm256_maskz_loadu_epi8(k, p) avx512_model::maskz_loadu<simde__m256i, std::int8_t, 32>(k, p)
#undef _mm256_mask_storeu_epi8
#define _mm256_mask_storeu_epi8(p, k, v) avx512_model::mask_storeu<std::int8_t, 32>(p, k, v)
#undef _mm256_maskz_loadu_epi16
#define _mm256_maskz_loadu_epi16(k, p) avx512_model::maskz_loadu<simde__m256i, std::int16_t, 16>(k, p)
#undef _mm256_mask_storeu_epi16
#define _mm256_mask_storeu_epi16(p, k, v) avx512_model::mask_storeu<std::int16_t, 16>(p, k, v)
#undef _mm_maskz_loadu_epi8
#define _mm_maskz_loadu_epi8(k, p) avx512_model::maskz_loadu<simde__m128i, std::int8_t, 16>(k, p)
#undef _mm_mask_storeu_epi8
#define _mm_mask_storeu_epi8(p, k, v) avx512_model::mask_storeu<std::int8_t, 16>(p, k, v)

#undef _mm512_maskz_cvtepi16_epi32
#define _mm512_maskz_cvtepi16_epi32(k, ...) avx512_model::convert<simde__m512i, std::int32_t, std::int16_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi16_epi64
#define _mm512_maskz_cvtepi16_epi64(k, ...) avx512_model::convert<simde__m512i, std::int64_t, std::int16_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi32_epi16
#define _mm512_maskz_cvtepi32_epi16(k, ...) avx512_model::convert<simde__m256i, std::int16_t, std::int32_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi32_epi64
#define _mm512_maskz_cvtepi32_epi64(k, ...) avx512_model::convert<simde__m512i, std::int64_t, std::int32_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi32_epi8
#define _mm512_maskz_cvtepi32_epi8(k, ...) avx512_model::convert<simde__m128i, std::int8_t, std::int32_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi32_pd
#define _mm512_maskz_cvtepi32_pd(k, ...) avx512_model::convert<simde__m512d, double, std::int32_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi32_ps
#define _mm512_maskz_cvtepi32_ps(k, ...) avx512_model::convert<simde__m512, float, std::int32_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi64_epi16
#define _mm512_maskz_cvtepi64_epi16(k, ...) avx512_model::convert<simde__m128i, std::int16_t, std::int64_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi64_epi32
#define _mm512_maskz_cvtepi64_epi32(k, ...) avx512_model::convert<simde__m256i, std::int32_t, std::int64_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi64_pd
#define _mm512_maskz_cvtepi64_pd(k, ...) avx512_model::convert<simde__m512d, double, std::int64_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi16_epi8
#define _mm512_maskz_cvtepi16_epi8(k, ...) avx512_model::convert<simde__m256i, std::int8_t, std::int16_t, 32>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi8_epi16
#define _mm512_maskz_cvtepi8_epi16(k, ...) avx512_model::convert<simde__m512i, std::int16_t, std::int8_t, 32>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi8_epi32
#define _mm512_maskz_cvtepi8_epi32(k, ...) avx512_model::convert<simde__m512i, std::int32_t, std::int8_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepi8_epi64
#define _mm512_maskz_cvtepi8_epi64(k, ...) avx512_model::convert<simde__m512i, std::int64_t, std::int8_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu16_epi32
#define _mm512_maskz_cvtepu16_epi32(k, ...) avx512_model::convert<simde__m512i, std::int32_t, std::uint16_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu16_epi64
#define _mm512_maskz_cvtepu16_epi64(k, ...) avx512_model::convert<simde__m512i, std::int64_t, std::uint16_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu32_epi64
#define _mm512_maskz_cvtepu32_epi64(k, ...) avx512_model::convert<simde__m512i, std::int64_t, std::uint32_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu32_pd
#define _mm512_maskz_cvtepu32_pd(k, ...) avx512_model::convert<simde__m512d, double, std::uint32_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu32_ps
#define _mm512_maskz_cvtepu32_ps(k, ...) avx512_model::convert<simde__m512, float, std::uint32_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu64_pd
#define _mm512_maskz_cvtepu64_pd(k, ...) avx512_model::convert<simde__m512d, double, std::uint64_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu8_epi16
#define _mm512_maskz_cvtepu8_epi16(k, ...) avx512_model::convert<simde__m512i, std::int16_t, std::uint8_t, 32>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu8_epi32
#define _mm512_maskz_cvtepu8_epi32(k, ...) avx512_model::convert<simde__m512i, std::int32_t, std::uint8_t, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtepu8_epi64
#define _mm512_maskz_cvtepu8_epi64(k, ...) avx512_model::convert<simde__m512i, std::int64_t, std::uint8_t, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtpd_ps
#define _mm512_maskz_cvtpd_ps(k, ...) avx512_model::convert<simde__m256, float, double, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtps_pd
#define _mm512_maskz_cvtps_pd(k, ...) avx512_model::convert<simde__m512d, double, float, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvttps_epi32
#define _mm512_maskz_cvttps_epi32(k, ...) avx512_model::convert_truncated<simde__m512i, std::int32_t, float, 16>(k, __VA_ARGS__)
#undef _mm512_maskz_cvttpd_epi32
#define _mm512_maskz_cvttpd_epi32(k, ...) avx512_model::convert_truncated<simde__m256i, std::int32_t, double, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvttpd_epi64
#define _mm512_maskz_cvttpd_epi64(k, ...) avx512_model::convert_truncated<simde__m512i, std::int64_t, double, 8>(k, __VA_ARGS__)
#undef _mm512_maskz_cvtph_ps
#define _mm512_maskz_cvtph_ps(k, ...) simde_mm512_maskz_mov_ps(k, avx512_model::cvtph_ps(__VA_ARGS__))
#undef _mm512_maskz_cvtps_ph
#define _mm512_maskz_cvtps_ph(k, a, r) simde_mm256_maskz_mov_epi16(k, avx512_model::cvtps_ph<r>(a))
#undef _mm512_maskz_sllv_epi16
#define _mm512_maskz_sllv_epi16(k, a, b) simde_mm512_maskz_mov_epi16(k, simde_mm512_sllv_epi16(a, b))
#undef _mm512_maskz_sllv_epi32
#define _mm512_maskz_sllv_epi32(k, a, b) simde_mm512_maskz_mov_epi32(k, simde_mm512_sllv_epi32(a, b))
#undef _mm512_maskz_sllv_epi64
#define _mm512_maskz_sllv_epi64(k, a, b) simde_mm512_maskz_mov_epi64(k, simde_mm512_sllv_epi64(a, b))
#undef _mm512_maskz_srav_epi16
#define _mm512_maskz_srav_epi16(k, a, b) simde_mm512_maskz_mov_epi16(k, simde_mm512_srav_epi16(a, b))
#undef _mm512_maskz_srlv_epi16
#define _mm512_maskz_srlv_epi16(k, a, b) simde_mm512_maskz_mov_epi16(k, simde_mm512_srlv_epi16(a, b))
#undef _mm512_maskz_srlv_epi32
#define _mm512_maskz_srlv_epi32(k, a, b) simde_mm512_maskz_mov_epi32(k, simde_mm512_srlv_epi32(a, b))
#undef _mm512_maskz_srlv_epi64
#define _mm512_maskz_srlv_epi64(k, a, b) simde_mm512_maskz_mov_epi64(k, simde_mm512_srlv_epi64(a, b))
#undef _mm512_maskz_sqrt_pd
#define _mm512_maskz_sqrt_pd(k, a) simde_mm512_maskz_mov_pd(k, simde_mm512_sqrt_pd(a))
#undef _mm512_maskz_srav_epi32
#define _mm512_maskz_srav_epi32(k, a, b) avx512_model::convert<simde__m512i, std::int32_t, std::int32_t, 16>(k, avx512_model::srav<std::int32_t, 16>(a, b))
#undef _mm512_maskz_srav_epi64
#define _mm512_maskz_srav_epi64(k, a, b) avx512_model::convert<simde__m512i, std::int64_t, std::int64_t, 8>(k, avx512_model::srav<std::int64_t, 8>(a, b))
#undef _mm256_maskz_set1_epi8
#define _mm256_maskz_set1_epi8(k, a) simde_mm256_maskz_mov_epi8(k, _mm256_set1_epi8(a))
#undef _mm_maskz_set1_epi8
#define _mm_maskz_set1_epi8(k, a) simde_mm_maskz_mov_epi8(k, _mm_set1_epi8(a))
#undef _mm512_cmpeq_epi16_mask
#define _mm512_cmpeq_epi16_mask(a, b) avx512_model::compare<std::int16_t, 32>(a, b, [](std::int16_t x, std::int16_t y) { return x == y; })
#undef _mm512_cmpeq_epu16_mask
#define _mm512_cmpeq_epu16_mask(a, b) avx512_model::compare<std::uint16_t, 32>(a, b, [](std::uint16_t x, std::uint16_t y) { return x == y; })
#undef _mm512_cmpeq_epu32_mask
#define _mm512_cmpeq_epu32_mask(a, b) avx512_model::compare<std::uint32_t, 16>(a, b, [](std::uint32_t x, std::uint32_t y) { return x == y; })
#undef _mm512_cmpeq_epu64_mask
#define _mm512_cmpeq_epu64_mask(a, b) avx512_model::compare<std::uint64_t, 8>(a, b, [](std::uint64_t x, std::uint64_t y) { return x == y; })
#undef _mm512_cmpeq_epu8_mask
#define _mm512_cmpeq_epu8_mask(a, b) avx512_model::compare<std::uint8_t, 64>(a, b, [](std::uint8_t x, std::uint8_t y) { return x == y; })
#undef _mm512_cmpgt_epi16_mask
#define _mm512_cmpgt_epi16_mask(a, b) avx512_model::compare<std::int16_t, 32>(a, b, [](std::int16_t x, std::int16_t y) { return x > y; })
#undef _mm512_cmpgt_epu16_mask
#define _mm512_cmpgt_epu16_mask(a, b) avx512_model::compare<std::uint16_t, 32>(a, b, [](std::uint16_t x, std::uint16_t y) { return x > y; })
#undef _mm512_cmpgt_epu32_mask
#define _mm512_cmpgt_epu32_mask(a, b) avx512_model::compare<std::uint32_t, 16>(a, b, [](std::uint32_t x, std::uint32_t y) { return x > y; })
#undef _mm512_cmpgt_epu64_mask
#define _mm512_cmpgt_epu64_mask(a, b) avx512_model::compare<std::uint64_t, 8>(a, b, [](std::uint64_t x, std::uint64_t y) { return x > y; })
#undef _mm512_cmplt_epi16_mask
#define _mm512_cmplt_epi16_mask(a, b) avx512_model::compare<std::int16_t, 32>(a, b, [](std::int16_t x, std::int16_t y) { return x < y; })
#undef _mm512_cmplt_epi32_mask
#define _mm512_cmplt_epi32_mask(a, b) avx512_model::compare<std::int32_t, 16>(a, b, [](std::int32_t x, std::int32_t y) { return x < y; })
#undef _mm512_cmplt_epi64_mask
#define _mm512_cmplt_epi64_mask(a, b) avx512_model::compare<std::int64_t, 8>(a, b, [](std::int64_t x, std::int64_t y) { return x < y; })
#undef _mm512_cmplt_epu16_mask
#define _mm512_cmplt_epu16_mask(a, b) avx512_model::compare<std::uint16_t, 32>(a, b, [](std::uint16_t x, std::uint16_t y) { return x < y; })
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask(a, b) avx512_model::compare<std::uint32_t, 16>(a, b, [](std::uint32_t x, std::uint32_t y) { return x < y; })
#undef _mm512_cmplt_epu64_mask
#define _mm512_cmplt_epu64_mask(a, b) avx512_model::compare<std::uint64_t, 8>(a, b, [](std::uint64_t x, std::uint64_t y) { return x < y; })
#undef _mm512_cmpneq_epi16_mask
#define _mm512_cmpneq_epi16_mask(a, b) avx512_model::compare<std::int16_t, 32>(a, b, [](std::int16_t x, std::int16_t y) { return x != y; })
#undef _mm512_cmpneq_epi32_mask
#define _mm512_cmpneq_epi32_mask(a, b) avx512_model::compare<std::int32_t, 16>(a, b, [](std::int32_t x, std::int32_t y) { return x != y; })
#undef _mm512_cmpneq_epi64_mask
#define _mm512_cmpneq_epi64_mask(a, b) avx512_model::compare<std::int64_t, 8>(a, b, [](std::int64_t x, std::int64_t y) { return x != y; })
#undef _mm512_cmpneq_epi8_mask
#define _mm512_cmpneq_epi8_mask(a, b) avx512_model::compare<std::int8_t, 64>(a, b, [](std::int8_t x, std::int8_t y) { return x != y; })
#undef _mm512_cmpneq_epu16_mask
#define _mm512_cmpneq_epu16_mask(a, b) avx512_model::compare<std::uint16_t, 32>(a, b, [](std::uint16_t x, std::uint16_t y) { return x != y; })
#undef _mm512_cmpneq_epu32_mask
#define _mm512_cmpneq_epu32_mask(a, b) avx512_model::compare<std::uint32_t, 16>(a, b, [](std::uint32_t x, std::uint32_t y) { return x != y; })
#undef _mm512_cmpneq_epu64_mask
#define _mm512_cmpneq_epu64_mask(a, b) avx512_model::compare<std::uint64_t, 8>(a, b, [](std::uint64_t x, std::uint64_t y) { return x != y; })
#undef _mm512_cmpneq_epu8_mask
#define _mm512_cmpneq_epu8_mask(a, b) avx512_model::compare<std::uint8_t, 64>(a, b, [](std::uint8_t x, std::uint8_t y) { return x != y; })
#undef _mm512_test_epi8_mask
#define _mm512_test_epi8_mask(a, b) avx512_model::test_epi8<64>(~0ull, a, b)
#undef _mm512_mask_test_epi8_mask
#define _mm512_mask_test_epi8_mask(k, a, b) avx512_model::test_epi8<64>(k, a, b)
#undef _mm256_test_epi8_mask
#define _mm256_test_epi8_mask(a, b) avx512_model::test_epi8<32>(~0ull, a, b)
#undef _mm256_mask_test_epi8_mask
#define _mm256_mask_test_epi8_mask(k, a, b) avx512_model::test_epi8<32>(k, a, b)
#undef _mm_test_epi8_mask
#define _mm_test_epi8_mask(a, b) avx512_model::test_epi8<16>(~0ull, a, b)
#undef _mm_mask_test_epi8_mask
#define _mm_mask_test_epi8_mask(k, a, b) avx512_model::test_epi8<16>(k, a, b)
#undef _kxor_mask16
#define _kxor_mask16(a, b) static_cast<simde__mmask16>((a) ^ (b))
#undef _kxor_mask8
#define _kxor_mask8(a, b) static_cast<simde__mmask8>((a) ^ (b))
#undef _mm512_stream_ps
#define _mm512_stream_ps(p, v) simde_mm512_store_ps(p, v)
#undef _mm512_stream_pd
#define _mm512_stream_pd(p, v) simde_mm512_store_pd(p, v)
#undef _mm512_stream_si512
#define _mm512_stream_si512(p, v) simde_mm512_store_si512(p, v)
#undef _mm512_maskz_roundscale_ps
#define _mm512_maskz_roundscale_ps(k, a, imm8) avx512_model::roundscale<simde__m512, float, 16>(k, a, imm8)
#undef _mm512_maskz_roundscale_pd
#define _mm512_maskz_roundscale_pd(k, a, imm8) avx512_model::roundscale<simde__m512d, double, 8>(k, a, imm8)
