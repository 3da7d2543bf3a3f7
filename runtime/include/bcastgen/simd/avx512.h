// The AVX-512 vector forms that generated kernels call: one named wrapper
// per (operation, dtype), always inlined into the kernel variant. The
// vocabulary (templates/vocabulary.yaml) names them; tests and hand-written
// code may call them too. Each gives the bits of bcastgen::ops (ops.h) on
// every lane.
//
// Registers: __m512 (f32; f16 and bf16 as their f32 values), __m512d (f64),
// __m512i (integers; bool as 0/1 bytes). A comparison gives a lane mask (__mmask8..64, one bit per lane).
// Loads and stores are unaligned; stream is the non-temporal store (64-byte
// aligned); the tail forms take a lane mask and never touch masked-out lanes.
// Several forms use the zero-masked instruction with every lane set: the
// same result, but GCC 12.2's plain forms expand through _mm512_undefined_*()
// and warn -Wuninitialized (GCC PR 105593).
#pragma once

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "bcastgen/cpu.h"
#include "bcastgen/half.h"

// Compiled for the ISA's target attribute (its row of kIsaInfo, cpu.h), which
// every variant of the ISA has: inlining into the variant is always allowed.
// No contraction pragma here: after inlining, the caller's setting decides
// (generated kernels turn it off).
#define BCASTGEN_SIMD_AVX512 __attribute__((always_inline, target(BCASTGEN_TARGET_AVX512))) inline

namespace bcastgen::simd::avx512 {

// What the forms compute, as bcastgen::ops does:
// - maximum/minimum of floats propagate NaN as NumPy's do: a lane where
//   either operand is NaN gives a + b (a NaN), else the max/min instruction.
// - neg flips the sign bit and abs clears it, as NumPy's negative and
//   absolute do for floats (NaN keeps its payload); reciprocal is 1 / x,
//   correctly rounded like the scalar division.
// - Integers wrap: neg is 0 - x, abs of the minimum is the minimum, abs of
//   an unsigned is x, square and multiply keep the low half.
// - Shifts take their counts as unsigned: a count >= the width (or
//   negative) gives 0, or the sign for an arithmetic right shift.
// - bool lanes hold 0 or 1, so the logical ops are the bitwise ones.
// - Casts: int -> float rounds to nearest even; float -> int truncates, and
//   the "integer indefinite" minimum that cvtt* gives out of range is the
//   rule bcastgen chose; signed <-> unsigned of one width keeps the bits;
//   to bool is x != 0 (NaN gives true: an unordered compare), from bool 0 or 1.

// --- f32: __m512, 16 lanes ---
BCASTGEN_SIMD_AVX512 __m512 load_f32(const float* p) { return _mm512_loadu_ps(p); }
BCASTGEN_SIMD_AVX512 __m512 load_tail_f32(const float* p, __mmask16 t) { return _mm512_maskz_loadu_ps(t, p); }
BCASTGEN_SIMD_AVX512 void store_f32(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_f32(float* p, __mmask16 t, __m512 v) { _mm512_mask_storeu_ps(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_f32(float* p, __m512 v) { _mm512_stream_ps(p, v); }
BCASTGEN_SIMD_AVX512 __m512 splat_f32(float x) { return _mm512_set1_ps(x); }
BCASTGEN_SIMD_AVX512 __m512 permute_f32(__m512 v, __m512i i) { return _mm512_maskz_permutexvar_ps(0xFFFF, i, v); }
// Lanes p[0], p[s], ..., p[15 s] (an input read through a transpose): one
// vgatherdps. s is a constant of the kernel, so the index vector folds to a
// constant; the planner keeps 15 s within int32.
BCASTGEN_SIMD_AVX512 __m512 load_strided_f32(const float* p, std::int64_t s) {
  const __m512i i = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                       _mm512_set1_epi32(static_cast<int>(s)));
  // The masked form with a zero source: GCC's unmasked one starts from an
  // undefined vector, which -Wmaybe-uninitialized reports at -Og.
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), __mmask16(0xFFFF), i, p, 4);
}
BCASTGEN_SIMD_AVX512 __m512 load_strided_tail_f32(const float* p, std::int64_t s, __mmask16 t) {
  const __m512i i = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                       _mm512_set1_epi32(static_cast<int>(s)));
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), t, i, p, 4);
}
namespace detail {
// Prefetches the line of p[offset] into L1. The address is an integer sum:
// the tile ahead may lie past the tensor, where a prefetch is harmless but
// a pointer would not be valid.
BCASTGEN_SIMD_AVX512 void prefetch_line(const float* p, std::int64_t offset) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(offset) * sizeof(float);
  _mm_prefetch(reinterpret_cast<const char*>(at), _MM_HINT_T0);
}
}  // namespace detail
// A 16 x 16 tile of an input read through a transpose, for the planner's
// transposed tiles (plan.h, IsaPlan::tiles): the 16 lines at p, p + s, ...,
// p + 15 s (16 floats each: a cache line when aligned) are loaded whole and
// transposed in registers, and tile row r (tile + 16 r, in L1) gets p[r],
// p[r + s], ..., p[r + 15 s]. The transpose is 64 shuffles in 4 rounds
// (pairs of lanes, pairs of pairs, then 128-bit quarters twice): 4 per
// vector, where a 16-lane gather issues 16 loads. The lines at p + ahead,
// p + ahead + s, ... are prefetched for a later tile: lines 3 KB apart are not
// a stream the hardware prefetchers follow, and without it the tile's 16
// misses wait one after another (a probe of [8, 512, 768] on a Zen 5 took
// 2.0 ms instead of 0.74, bench/results/2026-12-05-zen5-transpose.txt).
BCASTGEN_SIMD_AVX512 void transpose_tile_f32(const float* p, std::int64_t s, std::int64_t ahead, float* tile) {
  // Every loop unrolled, so that the tile stays in registers (GCC keeps
  // indexed arrays on the stack otherwise).
  // The zero-masked forms with every lane set (see the top of this file).
  const __mmask16 k16 = 0xFFFF;
  const __mmask8 k8 = 0xFF;
  __m512 r[16], t[16];
  #pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) r[k] = _mm512_loadu_ps(p + k * s);
  #pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) detail::prefetch_line(p, ahead + k * s);
  #pragma GCC unroll 16
  for (int k = 0; k < 16; k += 2) {
    t[k] = _mm512_maskz_unpacklo_ps(k16, r[k], r[k + 1]);
    t[k + 1] = _mm512_maskz_unpackhi_ps(k16, r[k], r[k + 1]);
  }
  #pragma GCC unroll 16
  for (int k = 0; k < 16; k += 4) {
    const __m512d a = _mm512_castps_pd(t[k]), b = _mm512_castps_pd(t[k + 1]);
    const __m512d c = _mm512_castps_pd(t[k + 2]), d = _mm512_castps_pd(t[k + 3]);
    r[k] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(k8, a, c));
    r[k + 1] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(k8, a, c));
    r[k + 2] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(k8, b, d));
    r[k + 3] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(k8, b, d));
  }
  #pragma GCC unroll 16
  for (int k = 0; k < 4; ++k) {
    t[k] = _mm512_maskz_shuffle_f32x4(k16, r[k], r[k + 4], 0x88);
    t[k + 4] = _mm512_maskz_shuffle_f32x4(k16, r[k], r[k + 4], 0xdd);
    t[k + 8] = _mm512_maskz_shuffle_f32x4(k16, r[k + 8], r[k + 12], 0x88);
    t[k + 12] = _mm512_maskz_shuffle_f32x4(k16, r[k + 8], r[k + 12], 0xdd);
  }
  #pragma GCC unroll 16
  for (int k = 0; k < 4; ++k) {
    _mm512_store_ps(tile + 16 * k, _mm512_maskz_shuffle_f32x4(k16, t[k], t[k + 8], 0x88));
    _mm512_store_ps(tile + 16 * (k + 8), _mm512_maskz_shuffle_f32x4(k16, t[k], t[k + 8], 0xdd));
    _mm512_store_ps(tile + 16 * (k + 4), _mm512_maskz_shuffle_f32x4(k16, t[k + 4], t[k + 12], 0x88));
    _mm512_store_ps(tile + 16 * (k + 12), _mm512_maskz_shuffle_f32x4(k16, t[k + 4], t[k + 12], 0xdd));
  }
}
BCASTGEN_SIMD_AVX512 __m512 select_f32(__mmask16 c, __m512 x, __m512 y) { return _mm512_mask_blend_ps(c, y, x); }
BCASTGEN_SIMD_AVX512 __m512 blend_tail_f32(__mmask16 t, __m512 x, __m512 y) { return _mm512_mask_blend_ps(t, y, x); }
// Lane i gets lane i + H, for i < H (a row kernel's tree inside a register).
// (The maskz forms with every lane: GCC 12 at -Og warns that the plain
// ones' undefined source may be used uninitialized.)
template <int H>
BCASTGEN_SIMD_AVX512 __m512 lanes_down_f32(__m512 x) {
  static_assert(H == 8 || H == 4 || H == 2 || H == 1, "lanes_down: 8, 4, 2 or 1");
  if constexpr (H == 8) return _mm512_maskz_shuffle_f32x4(0xffff, x, x, _MM_SHUFFLE(3, 2, 3, 2));
  else if constexpr (H == 4) return _mm512_maskz_shuffle_f32x4(0xffff, x, x, _MM_SHUFFLE(1, 1, 1, 1));
  else if constexpr (H == 2) return _mm512_maskz_permute_ps(0xffff, x, _MM_SHUFFLE(1, 0, 3, 2));
  else return _mm512_maskz_permute_ps(0xffff, x, _MM_SHUFFLE(2, 3, 0, 1));
}
BCASTGEN_SIMD_AVX512 float first_lane_f32(__m512 x) { return _mm512_cvtss_f32(x); }
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_f32(const bool* p) {
  return _mm_test_epi8_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_tail_f32(const bool* p, __mmask16 t) {
  return _mm_mask_test_epi8_mask(t, _mm_maskz_loadu_epi8(t, p), _mm_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask16 splat_cmp_f32(bool x) { return static_cast<__mmask16>(x ? 0xFFFF : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_f32(bool* p, __mmask16 m) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_f32(bool* p, __mmask16 t, __mmask16 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512 add_f32(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
BCASTGEN_SIMD_AVX512 __m512 subtract_f32(__m512 a, __m512 b) { return _mm512_sub_ps(a, b); }
BCASTGEN_SIMD_AVX512 __m512 multiply_f32(__m512 a, __m512 b) { return _mm512_mul_ps(a, b); }
BCASTGEN_SIMD_AVX512 __m512 divide_f32(__m512 a, __m512 b) { return _mm512_div_ps(a, b); }
// vmaxps(a, b) is a > b ? a : b: it returns b where either is NaN and where
// they compare equal (+0 and -0), as ops::maximum does. A NaN in a alone
// keeps a: the max is masked to the lanes where a is a number.
BCASTGEN_SIMD_AVX512 __m512 maximum_f32(__m512 a, __m512 b) {
  return _mm512_mask_max_ps(a, _mm512_cmp_ps_mask(a, a, _CMP_ORD_Q), a, b);
}
BCASTGEN_SIMD_AVX512 __m512 minimum_f32(__m512 a, __m512 b) {
  return _mm512_mask_min_ps(a, _mm512_cmp_ps_mask(a, a, _CMP_ORD_Q), a, b);
}
// With a literal operand n, never NaN (vocabulary: literal_ops): the op of
// (n, x) is the one instruction; max(x, +0.0) and min(x, +0.0) keep the
// lanes that do not give +0 (x > 0, resp. x < 0, or NaN; -0 gives +0).
BCASTGEN_SIMD_AVX512 __m512 maximum_number_f32(__m512 n, __m512 x) { return _mm512_maskz_max_ps(0xFFFF, n, x); }
BCASTGEN_SIMD_AVX512 __m512 minimum_number_f32(__m512 n, __m512 x) { return _mm512_maskz_min_ps(0xFFFF, n, x); }
BCASTGEN_SIMD_AVX512 __m512 maximum_zero_f32(__m512 x) {
  return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NLE_UQ), x);
}
BCASTGEN_SIMD_AVX512 __m512 minimum_zero_f32(__m512 x) {
  return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NGE_UQ), x);
}
BCASTGEN_SIMD_AVX512 __m512 squared_difference_f32(__m512 a, __m512 b) {
  return _mm512_mul_ps(_mm512_sub_ps(a, b), _mm512_sub_ps(a, b));
}
BCASTGEN_SIMD_AVX512 __mmask16 equal_f32(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
BCASTGEN_SIMD_AVX512 __mmask16 not_equal_f32(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
BCASTGEN_SIMD_AVX512 __mmask16 less_f32(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
BCASTGEN_SIMD_AVX512 __mmask16 less_equal_f32(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
BCASTGEN_SIMD_AVX512 __mmask16 greater_f32(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
BCASTGEN_SIMD_AVX512 __mmask16 greater_equal_f32(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
// |a| with the sign bit of b: a bit select.
BCASTGEN_SIMD_AVX512 __m512 copysign_f32(__m512 a, __m512 b) {
  return _mm512_or_ps(_mm512_andnot_ps(_mm512_set1_ps(-0.0f), a), _mm512_and_ps(_mm512_set1_ps(-0.0f), b));
}
// std::nextafter: equal lanes give b, NaN lanes a + b; a zero steps to the
// smallest subnormal with b's sign; any other a steps its bit pattern by
// +1 (away from zero: a < b xor a < 0) or -1.
BCASTGEN_SIMD_AVX512 __m512 nextafter_f32(__m512 a, __m512 b) {
  return _mm512_mask_blend_ps(
      _mm512_cmp_ps_mask(a, b, _CMP_NEQ_OQ),
      _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q), b, _mm512_add_ps(a, b)),
      _mm512_mask_blend_ps(
          _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_EQ_OQ),
          _mm512_castsi512_ps(
              _mm512_mask_add_epi32(_mm512_sub_epi32(_mm512_castps_si512(a), _mm512_set1_epi32(1)),
                                    _kxor_mask16(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ),
                                                 _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_LT_OQ)),
                                    _mm512_castps_si512(a), _mm512_set1_epi32(1))),
          _mm512_or_ps(_mm512_and_ps(_mm512_set1_ps(-0.0f), b), _mm512_castsi512_ps(_mm512_set1_epi32(1)))));
}
// The vector extension's negation (a sign flip, as xor), which lets the
// compiler fold it into vfnmadd / vfmsub.
BCASTGEN_SIMD_AVX512 __m512 neg_f32(__m512 x) { return -x; }
BCASTGEN_SIMD_AVX512 __m512 abs_f32(__m512 x) { return _mm512_andnot_ps(_mm512_set1_ps(-0.0f), x); }
BCASTGEN_SIMD_AVX512 __m512 sqrt_f32(__m512 x) { return _mm512_maskz_sqrt_ps(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __m512 square_f32(__m512 x) { return _mm512_mul_ps(x, x); }
BCASTGEN_SIMD_AVX512 __m512 reciprocal_f32(__m512 x) { return _mm512_div_ps(_mm512_set1_ps(1.0f), x); }
BCASTGEN_SIMD_AVX512 __m512i cast_f32_i32(__m512 x) { return _mm512_maskz_cvttps_epi32(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __mmask16 cast_f32_bool(__m512 x) {
  return _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NEQ_UQ);
}

// --- f64: __m512d, 8 lanes ---
BCASTGEN_SIMD_AVX512 __m512d load_f64(const double* p) { return _mm512_loadu_pd(p); }
BCASTGEN_SIMD_AVX512 __m512d load_tail_f64(const double* p, __mmask8 t) { return _mm512_maskz_loadu_pd(t, p); }
BCASTGEN_SIMD_AVX512 void store_f64(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_f64(double* p, __mmask8 t, __m512d v) { _mm512_mask_storeu_pd(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_f64(double* p, __m512d v) { _mm512_stream_pd(p, v); }
BCASTGEN_SIMD_AVX512 __m512d splat_f64(double x) { return _mm512_set1_pd(x); }
BCASTGEN_SIMD_AVX512 __m512d permute_f64(__m512d v, __m512i i) {
  return _mm512_castsi512_pd(_mm512_maskz_permutexvar_epi32(0xFFFF, i, _mm512_castpd_si512(v)));
}
BCASTGEN_SIMD_AVX512 __m512d select_f64(__mmask8 c, __m512d x, __m512d y) { return _mm512_mask_blend_pd(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask8 load_cmp_f64(const bool* p) {
  return static_cast<__mmask8>(
      _mm_test_epi8_mask(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8(-1)));
}
BCASTGEN_SIMD_AVX512 __mmask8 load_cmp_tail_f64(const bool* p, __mmask8 t) {
  return static_cast<__mmask8>(_mm_mask_test_epi8_mask(t, _mm_maskz_loadu_epi8(t, p), _mm_set1_epi8(-1)));
}
BCASTGEN_SIMD_AVX512 __mmask8 splat_cmp_f64(bool x) { return static_cast<__mmask8>(x ? 0xFF : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_f64(bool* p, __mmask8 m) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_f64(bool* p, __mmask8 t, __mmask8 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512d add_f64(__m512d a, __m512d b) { return _mm512_add_pd(a, b); }
BCASTGEN_SIMD_AVX512 __m512d subtract_f64(__m512d a, __m512d b) { return _mm512_sub_pd(a, b); }
BCASTGEN_SIMD_AVX512 __m512d multiply_f64(__m512d a, __m512d b) { return _mm512_mul_pd(a, b); }
BCASTGEN_SIMD_AVX512 __m512d divide_f64(__m512d a, __m512d b) { return _mm512_div_pd(a, b); }
BCASTGEN_SIMD_AVX512 __m512d maximum_f64(__m512d a, __m512d b) {
  return _mm512_mask_max_pd(a, _mm512_cmp_pd_mask(a, a, _CMP_ORD_Q), a, b);
}
BCASTGEN_SIMD_AVX512 __m512d minimum_f64(__m512d a, __m512d b) {
  return _mm512_mask_min_pd(a, _mm512_cmp_pd_mask(a, a, _CMP_ORD_Q), a, b);
}
BCASTGEN_SIMD_AVX512 __m512d maximum_number_f64(__m512d n, __m512d x) { return _mm512_maskz_max_pd(0xFF, n, x); }
BCASTGEN_SIMD_AVX512 __m512d minimum_number_f64(__m512d n, __m512d x) { return _mm512_maskz_min_pd(0xFF, n, x); }
BCASTGEN_SIMD_AVX512 __m512d maximum_zero_f64(__m512d x) {
  return _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NLE_UQ), x);
}
BCASTGEN_SIMD_AVX512 __m512d minimum_zero_f64(__m512d x) {
  return _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NGE_UQ), x);
}
BCASTGEN_SIMD_AVX512 __m512d squared_difference_f64(__m512d a, __m512d b) {
  return _mm512_mul_pd(_mm512_sub_pd(a, b), _mm512_sub_pd(a, b));
}
BCASTGEN_SIMD_AVX512 __mmask8 equal_f64(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
BCASTGEN_SIMD_AVX512 __mmask8 not_equal_f64(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ); }
BCASTGEN_SIMD_AVX512 __mmask8 less_f64(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
BCASTGEN_SIMD_AVX512 __mmask8 less_equal_f64(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
BCASTGEN_SIMD_AVX512 __mmask8 greater_f64(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
BCASTGEN_SIMD_AVX512 __mmask8 greater_equal_f64(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
BCASTGEN_SIMD_AVX512 __m512d copysign_f64(__m512d a, __m512d b) {
  return _mm512_or_pd(_mm512_andnot_pd(_mm512_set1_pd(-0.0), a), _mm512_and_pd(_mm512_set1_pd(-0.0), b));
}
BCASTGEN_SIMD_AVX512 __m512d nextafter_f64(__m512d a, __m512d b) {
  return _mm512_mask_blend_pd(
      _mm512_cmp_pd_mask(a, b, _CMP_NEQ_OQ),
      _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q), b, _mm512_add_pd(a, b)),
      _mm512_mask_blend_pd(
          _mm512_cmp_pd_mask(a, _mm512_setzero_pd(), _CMP_EQ_OQ),
          _mm512_castsi512_pd(_mm512_mask_add_epi64(
              _mm512_sub_epi64(_mm512_castpd_si512(a), _mm512_set1_epi64(1)),
              _kxor_mask8(_mm512_cmp_pd_mask(a, b, _CMP_LT_OQ), _mm512_cmp_pd_mask(a, _mm512_setzero_pd(), _CMP_LT_OQ)),
              _mm512_castpd_si512(a), _mm512_set1_epi64(1))),
          _mm512_or_pd(_mm512_and_pd(_mm512_set1_pd(-0.0), b), _mm512_castsi512_pd(_mm512_set1_epi64(1)))));
}
BCASTGEN_SIMD_AVX512 __m512d neg_f64(__m512d x) { return -x; }
BCASTGEN_SIMD_AVX512 __m512d abs_f64(__m512d x) { return _mm512_andnot_pd(_mm512_set1_pd(-0.0), x); }
BCASTGEN_SIMD_AVX512 __m512d sqrt_f64(__m512d x) { return _mm512_maskz_sqrt_pd(0xFF, x); }
BCASTGEN_SIMD_AVX512 __m512d square_f64(__m512d x) { return _mm512_mul_pd(x, x); }
BCASTGEN_SIMD_AVX512 __m512d reciprocal_f64(__m512d x) { return _mm512_div_pd(_mm512_set1_pd(1.0), x); }
BCASTGEN_SIMD_AVX512 __m512i cast_f64_i64(__m512d x) { return _mm512_maskz_cvttpd_epi64(0xFF, x); }
BCASTGEN_SIMD_AVX512 __mmask8 cast_f64_bool(__m512d x) {
  return _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NEQ_UQ);
}

// --- i8: __m512i, 64 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_i8(const std::int8_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_i8(const std::int8_t* p, __mmask64 t) { return _mm512_maskz_loadu_epi8(t, p); }
BCASTGEN_SIMD_AVX512 void store_i8(std::int8_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_i8(std::int8_t* p, __mmask64 t, __m512i v) { _mm512_mask_storeu_epi8(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_i8(std::int8_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_i8(std::int8_t x) { return _mm512_set1_epi8(static_cast<char>(x)); }
BCASTGEN_SIMD_AVX512 __m512i select_i8(__mmask64 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi8(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask64 load_cmp_i8(const bool* p) {
  return _mm512_test_epi8_mask(_mm512_loadu_si512(p), _mm512_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask64 load_cmp_tail_i8(const bool* p, __mmask64 t) {
  return _mm512_mask_test_epi8_mask(t, _mm512_maskz_loadu_epi8(t, p), _mm512_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask64 splat_cmp_i8(bool x) { return static_cast<__mmask64>(x ? 0xFFFFFFFFFFFFFFFFull : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_i8(bool* p, __mmask64 m) { _mm512_storeu_si512(p, _mm512_maskz_set1_epi8(m, 1)); }
BCASTGEN_SIMD_AVX512 void store_bool_tail_i8(bool* p, __mmask64 t, __mmask64 m) {
  _mm512_mask_storeu_epi8(p, t, _mm512_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_i8(__m512i a, __m512i b) { return _mm512_add_epi8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_i8(__m512i a, __m512i b) { return _mm512_sub_epi8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i maximum_i8(__m512i a, __m512i b) { return _mm512_max_epi8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_i8(__m512i a, __m512i b) { return _mm512_min_epi8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_i8(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_i8(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_i8(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 equal_i8(__m512i a, __m512i b) { return _mm512_cmpeq_epi8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 not_equal_i8(__m512i a, __m512i b) { return _mm512_cmpneq_epi8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 less_i8(__m512i a, __m512i b) { return _mm512_cmplt_epi8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 less_equal_i8(__m512i a, __m512i b) { return _mm512_cmple_epi8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 greater_i8(__m512i a, __m512i b) { return _mm512_cmpgt_epi8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 greater_equal_i8(__m512i a, __m512i b) { return _mm512_cmpge_epi8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i neg_i8(__m512i x) { return _mm512_sub_epi8(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_i8(__m512i x) { return _mm512_maskz_abs_epi8(0xFFFFFFFFFFFFFFFFull, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_i8(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512i cast_i8_u8(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask64 cast_i8_bool(__m512i x) { return _mm512_test_epi8_mask(x, x); }

// --- u8: __m512i, 64 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_u8(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_u8(const std::uint8_t* p, __mmask64 t) { return _mm512_maskz_loadu_epi8(t, p); }
BCASTGEN_SIMD_AVX512 void store_u8(std::uint8_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_u8(std::uint8_t* p, __mmask64 t, __m512i v) { _mm512_mask_storeu_epi8(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_u8(std::uint8_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_u8(std::uint8_t x) { return _mm512_set1_epi8(static_cast<char>(x)); }
BCASTGEN_SIMD_AVX512 __m512i select_u8(__mmask64 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi8(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask64 load_cmp_u8(const bool* p) {
  return _mm512_test_epi8_mask(_mm512_loadu_si512(p), _mm512_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask64 load_cmp_tail_u8(const bool* p, __mmask64 t) {
  return _mm512_mask_test_epi8_mask(t, _mm512_maskz_loadu_epi8(t, p), _mm512_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask64 splat_cmp_u8(bool x) { return static_cast<__mmask64>(x ? 0xFFFFFFFFFFFFFFFFull : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_u8(bool* p, __mmask64 m) { _mm512_storeu_si512(p, _mm512_maskz_set1_epi8(m, 1)); }
BCASTGEN_SIMD_AVX512 void store_bool_tail_u8(bool* p, __mmask64 t, __mmask64 m) {
  _mm512_mask_storeu_epi8(p, t, _mm512_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_u8(__m512i a, __m512i b) { return _mm512_add_epi8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_u8(__m512i a, __m512i b) { return _mm512_sub_epi8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i maximum_u8(__m512i a, __m512i b) { return _mm512_max_epu8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_u8(__m512i a, __m512i b) { return _mm512_min_epu8(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_u8(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_u8(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_u8(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 equal_u8(__m512i a, __m512i b) { return _mm512_cmpeq_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 not_equal_u8(__m512i a, __m512i b) { return _mm512_cmpneq_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 less_u8(__m512i a, __m512i b) { return _mm512_cmplt_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 less_equal_u8(__m512i a, __m512i b) { return _mm512_cmple_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 greater_u8(__m512i a, __m512i b) { return _mm512_cmpgt_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 greater_equal_u8(__m512i a, __m512i b) { return _mm512_cmpge_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i neg_u8(__m512i x) { return _mm512_sub_epi8(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_u8(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_u8(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512i cast_u8_i8(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask64 cast_u8_bool(__m512i x) { return _mm512_test_epi8_mask(x, x); }

// --- i16: __m512i, 32 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_i16(const std::int16_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_i16(const std::int16_t* p, __mmask32 t) {
  return _mm512_maskz_loadu_epi16(t, p);
}
BCASTGEN_SIMD_AVX512 void store_i16(std::int16_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_i16(std::int16_t* p, __mmask32 t, __m512i v) { _mm512_mask_storeu_epi16(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_i16(std::int16_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_i16(std::int16_t x) { return _mm512_set1_epi16(static_cast<short>(x)); }
BCASTGEN_SIMD_AVX512 __m512i select_i16(__mmask32 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi16(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask32 load_cmp_i16(const bool* p) {
  return _mm256_test_epi8_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask32 load_cmp_tail_i16(const bool* p, __mmask32 t) {
  return _mm256_mask_test_epi8_mask(t, _mm256_maskz_loadu_epi8(t, p), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask32 splat_cmp_i16(bool x) { return static_cast<__mmask32>(x ? 0xFFFFFFFFu : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_i16(bool* p, __mmask32 m) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_i16(bool* p, __mmask32 t, __mmask32 m) {
  _mm256_mask_storeu_epi8(p, t, _mm256_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_i16(__m512i a, __m512i b) { return _mm512_add_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_i16(__m512i a, __m512i b) { return _mm512_sub_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i multiply_i16(__m512i a, __m512i b) { return _mm512_mullo_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i squared_difference_i16(__m512i a, __m512i b) {
  return _mm512_mullo_epi16(_mm512_sub_epi16(a, b), _mm512_sub_epi16(a, b));
}
BCASTGEN_SIMD_AVX512 __m512i maximum_i16(__m512i a, __m512i b) { return _mm512_max_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_i16(__m512i a, __m512i b) { return _mm512_min_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_i16(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_i16(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_i16(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 equal_i16(__m512i a, __m512i b) { return _mm512_cmpeq_epi16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 not_equal_i16(__m512i a, __m512i b) { return _mm512_cmpneq_epi16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 less_i16(__m512i a, __m512i b) { return _mm512_cmplt_epi16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 less_equal_i16(__m512i a, __m512i b) { return _mm512_cmple_epi16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 greater_i16(__m512i a, __m512i b) { return _mm512_cmpgt_epi16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 greater_equal_i16(__m512i a, __m512i b) { return _mm512_cmpge_epi16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_left_shift_i16(__m512i a, __m512i b) {
  return _mm512_maskz_sllv_epi16(0xFFFFFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i bitwise_right_shift_i16(__m512i a, __m512i b) {
  return _mm512_maskz_srav_epi16(0xFFFFFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i neg_i16(__m512i x) { return _mm512_sub_epi16(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_i16(__m512i x) { return _mm512_maskz_abs_epi16(0xFFFFFFFFu, x); }
BCASTGEN_SIMD_AVX512 __m512i square_i16(__m512i x) { return _mm512_mullo_epi16(x, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_i16(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512i cast_i16_u16(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask32 cast_i16_bool(__m512i x) { return _mm512_test_epi16_mask(x, x); }

// --- u16: __m512i, 32 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_u16(const std::uint16_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_u16(const std::uint16_t* p, __mmask32 t) {
  return _mm512_maskz_loadu_epi16(t, p);
}
BCASTGEN_SIMD_AVX512 void store_u16(std::uint16_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_u16(std::uint16_t* p, __mmask32 t, __m512i v) {
  _mm512_mask_storeu_epi16(p, t, v);
}
BCASTGEN_SIMD_AVX512 void stream_u16(std::uint16_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_u16(std::uint16_t x) { return _mm512_set1_epi16(static_cast<short>(x)); }
BCASTGEN_SIMD_AVX512 __m512i select_u16(__mmask32 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi16(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask32 load_cmp_u16(const bool* p) {
  return _mm256_test_epi8_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask32 load_cmp_tail_u16(const bool* p, __mmask32 t) {
  return _mm256_mask_test_epi8_mask(t, _mm256_maskz_loadu_epi8(t, p), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask32 splat_cmp_u16(bool x) { return static_cast<__mmask32>(x ? 0xFFFFFFFFu : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_u16(bool* p, __mmask32 m) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_u16(bool* p, __mmask32 t, __mmask32 m) {
  _mm256_mask_storeu_epi8(p, t, _mm256_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_u16(__m512i a, __m512i b) { return _mm512_add_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_u16(__m512i a, __m512i b) { return _mm512_sub_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i multiply_u16(__m512i a, __m512i b) { return _mm512_mullo_epi16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i squared_difference_u16(__m512i a, __m512i b) {
  return _mm512_mullo_epi16(_mm512_sub_epi16(a, b), _mm512_sub_epi16(a, b));
}
BCASTGEN_SIMD_AVX512 __m512i maximum_u16(__m512i a, __m512i b) { return _mm512_max_epu16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_u16(__m512i a, __m512i b) { return _mm512_min_epu16(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_u16(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_u16(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_u16(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 equal_u16(__m512i a, __m512i b) { return _mm512_cmpeq_epu16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 not_equal_u16(__m512i a, __m512i b) { return _mm512_cmpneq_epu16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 less_u16(__m512i a, __m512i b) { return _mm512_cmplt_epu16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 less_equal_u16(__m512i a, __m512i b) { return _mm512_cmple_epu16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 greater_u16(__m512i a, __m512i b) { return _mm512_cmpgt_epu16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask32 greater_equal_u16(__m512i a, __m512i b) { return _mm512_cmpge_epu16_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_left_shift_u16(__m512i a, __m512i b) {
  return _mm512_maskz_sllv_epi16(0xFFFFFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i bitwise_right_shift_u16(__m512i a, __m512i b) {
  return _mm512_maskz_srlv_epi16(0xFFFFFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i neg_u16(__m512i x) { return _mm512_sub_epi16(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_u16(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __m512i square_u16(__m512i x) { return _mm512_mullo_epi16(x, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_u16(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512i cast_u16_i16(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask32 cast_u16_bool(__m512i x) { return _mm512_test_epi16_mask(x, x); }

// --- i32: __m512i, 16 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_i32(const std::int32_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_i32(const std::int32_t* p, __mmask16 t) {
  return _mm512_maskz_loadu_epi32(t, p);
}
BCASTGEN_SIMD_AVX512 void store_i32(std::int32_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_i32(std::int32_t* p, __mmask16 t, __m512i v) { _mm512_mask_storeu_epi32(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_i32(std::int32_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_i32(std::int32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
BCASTGEN_SIMD_AVX512 __m512i permute_i32(__m512i v, __m512i i) { return _mm512_maskz_permutexvar_epi32(0xFFFF, i, v); }
BCASTGEN_SIMD_AVX512 __m512i select_i32(__mmask16 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi32(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_i32(const bool* p) {
  return _mm_test_epi8_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_tail_i32(const bool* p, __mmask16 t) {
  return _mm_mask_test_epi8_mask(t, _mm_maskz_loadu_epi8(t, p), _mm_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask16 splat_cmp_i32(bool x) { return static_cast<__mmask16>(x ? 0xFFFF : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_i32(bool* p, __mmask16 m) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_i32(bool* p, __mmask16 t, __mmask16 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_i32(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_i32(__m512i a, __m512i b) { return _mm512_sub_epi32(a, b); }
BCASTGEN_SIMD_AVX512 __m512i multiply_i32(__m512i a, __m512i b) { return _mm512_mullo_epi32(a, b); }
BCASTGEN_SIMD_AVX512 __m512i squared_difference_i32(__m512i a, __m512i b) {
  return _mm512_mullo_epi32(_mm512_sub_epi32(a, b), _mm512_sub_epi32(a, b));
}
BCASTGEN_SIMD_AVX512 __m512i maximum_i32(__m512i a, __m512i b) { return _mm512_maskz_max_epi32(0xFFFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_i32(__m512i a, __m512i b) { return _mm512_maskz_min_epi32(0xFFFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_i32(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_i32(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_i32(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 equal_i32(__m512i a, __m512i b) { return _mm512_cmpeq_epi32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 not_equal_i32(__m512i a, __m512i b) { return _mm512_cmpneq_epi32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 less_i32(__m512i a, __m512i b) { return _mm512_cmplt_epi32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 less_equal_i32(__m512i a, __m512i b) { return _mm512_cmple_epi32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 greater_i32(__m512i a, __m512i b) { return _mm512_cmpgt_epi32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 greater_equal_i32(__m512i a, __m512i b) { return _mm512_cmpge_epi32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_left_shift_i32(__m512i a, __m512i b) {
  return _mm512_maskz_sllv_epi32(0xFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i bitwise_right_shift_i32(__m512i a, __m512i b) {
  return _mm512_maskz_srav_epi32(0xFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i neg_i32(__m512i x) { return _mm512_sub_epi32(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_i32(__m512i x) { return _mm512_maskz_abs_epi32(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __m512i square_i32(__m512i x) { return _mm512_mullo_epi32(x, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_i32(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512 cast_i32_f32(__m512i x) { return _mm512_maskz_cvtepi32_ps(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __m512i cast_i32_u32(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask16 cast_i32_bool(__m512i x) { return _mm512_test_epi32_mask(x, x); }

// --- u32: __m512i, 16 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_u32(const std::uint32_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_u32(const std::uint32_t* p, __mmask16 t) {
  return _mm512_maskz_loadu_epi32(t, p);
}
BCASTGEN_SIMD_AVX512 void store_u32(std::uint32_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_u32(std::uint32_t* p, __mmask16 t, __m512i v) {
  _mm512_mask_storeu_epi32(p, t, v);
}
BCASTGEN_SIMD_AVX512 void stream_u32(std::uint32_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_u32(std::uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
BCASTGEN_SIMD_AVX512 __m512i permute_u32(__m512i v, __m512i i) { return _mm512_maskz_permutexvar_epi32(0xFFFF, i, v); }
BCASTGEN_SIMD_AVX512 __m512i select_u32(__mmask16 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi32(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_u32(const bool* p) {
  return _mm_test_epi8_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_tail_u32(const bool* p, __mmask16 t) {
  return _mm_mask_test_epi8_mask(t, _mm_maskz_loadu_epi8(t, p), _mm_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask16 splat_cmp_u32(bool x) { return static_cast<__mmask16>(x ? 0xFFFF : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_u32(bool* p, __mmask16 m) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_u32(bool* p, __mmask16 t, __mmask16 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_u32(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_u32(__m512i a, __m512i b) { return _mm512_sub_epi32(a, b); }
BCASTGEN_SIMD_AVX512 __m512i multiply_u32(__m512i a, __m512i b) { return _mm512_mullo_epi32(a, b); }
BCASTGEN_SIMD_AVX512 __m512i squared_difference_u32(__m512i a, __m512i b) {
  return _mm512_mullo_epi32(_mm512_sub_epi32(a, b), _mm512_sub_epi32(a, b));
}
BCASTGEN_SIMD_AVX512 __m512i maximum_u32(__m512i a, __m512i b) { return _mm512_maskz_max_epu32(0xFFFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_u32(__m512i a, __m512i b) { return _mm512_maskz_min_epu32(0xFFFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_u32(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_u32(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_u32(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 equal_u32(__m512i a, __m512i b) { return _mm512_cmpeq_epu32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 not_equal_u32(__m512i a, __m512i b) { return _mm512_cmpneq_epu32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 less_u32(__m512i a, __m512i b) { return _mm512_cmplt_epu32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 less_equal_u32(__m512i a, __m512i b) { return _mm512_cmple_epu32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 greater_u32(__m512i a, __m512i b) { return _mm512_cmpgt_epu32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask16 greater_equal_u32(__m512i a, __m512i b) { return _mm512_cmpge_epu32_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_left_shift_u32(__m512i a, __m512i b) {
  return _mm512_maskz_sllv_epi32(0xFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i bitwise_right_shift_u32(__m512i a, __m512i b) {
  return _mm512_maskz_srlv_epi32(0xFFFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i neg_u32(__m512i x) { return _mm512_sub_epi32(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_u32(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __m512i square_u32(__m512i x) { return _mm512_mullo_epi32(x, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_u32(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512 cast_u32_f32(__m512i x) { return _mm512_maskz_cvtepu32_ps(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __m512i cast_u32_i32(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask16 cast_u32_bool(__m512i x) { return _mm512_test_epi32_mask(x, x); }

// --- i64: __m512i, 8 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_i64(const std::int64_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_i64(const std::int64_t* p, __mmask8 t) { return _mm512_maskz_loadu_epi64(t, p); }
BCASTGEN_SIMD_AVX512 void store_i64(std::int64_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_i64(std::int64_t* p, __mmask8 t, __m512i v) { _mm512_mask_storeu_epi64(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_i64(std::int64_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_i64(std::int64_t x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
BCASTGEN_SIMD_AVX512 __m512i permute_i64(__m512i v, __m512i i) { return _mm512_maskz_permutexvar_epi32(0xFFFF, i, v); }
BCASTGEN_SIMD_AVX512 __m512i select_i64(__mmask8 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi64(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask8 load_cmp_i64(const bool* p) {
  return static_cast<__mmask8>(
      _mm_test_epi8_mask(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8(-1)));
}
BCASTGEN_SIMD_AVX512 __mmask8 load_cmp_tail_i64(const bool* p, __mmask8 t) {
  return static_cast<__mmask8>(_mm_mask_test_epi8_mask(t, _mm_maskz_loadu_epi8(t, p), _mm_set1_epi8(-1)));
}
BCASTGEN_SIMD_AVX512 __mmask8 splat_cmp_i64(bool x) { return static_cast<__mmask8>(x ? 0xFF : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_i64(bool* p, __mmask8 m) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_i64(bool* p, __mmask8 t, __mmask8 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_i64(__m512i a, __m512i b) { return _mm512_add_epi64(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_i64(__m512i a, __m512i b) { return _mm512_sub_epi64(a, b); }
BCASTGEN_SIMD_AVX512 __m512i multiply_i64(__m512i a, __m512i b) { return _mm512_mullo_epi64(a, b); }
BCASTGEN_SIMD_AVX512 __m512i squared_difference_i64(__m512i a, __m512i b) {
  return _mm512_mullo_epi64(_mm512_sub_epi64(a, b), _mm512_sub_epi64(a, b));
}
BCASTGEN_SIMD_AVX512 __m512i maximum_i64(__m512i a, __m512i b) { return _mm512_maskz_max_epi64(0xFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_i64(__m512i a, __m512i b) { return _mm512_maskz_min_epi64(0xFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_i64(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_i64(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_i64(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 equal_i64(__m512i a, __m512i b) { return _mm512_cmpeq_epi64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 not_equal_i64(__m512i a, __m512i b) { return _mm512_cmpneq_epi64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 less_i64(__m512i a, __m512i b) { return _mm512_cmplt_epi64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 less_equal_i64(__m512i a, __m512i b) { return _mm512_cmple_epi64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 greater_i64(__m512i a, __m512i b) { return _mm512_cmpgt_epi64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 greater_equal_i64(__m512i a, __m512i b) { return _mm512_cmpge_epi64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_left_shift_i64(__m512i a, __m512i b) {
  return _mm512_maskz_sllv_epi64(0xFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i bitwise_right_shift_i64(__m512i a, __m512i b) {
  return _mm512_maskz_srav_epi64(0xFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i neg_i64(__m512i x) { return _mm512_sub_epi64(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_i64(__m512i x) { return _mm512_maskz_abs_epi64(0xFF, x); }
BCASTGEN_SIMD_AVX512 __m512i square_i64(__m512i x) { return _mm512_mullo_epi64(x, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_i64(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512d cast_i64_f64(__m512i x) { return _mm512_maskz_cvtepi64_pd(0xFF, x); }
BCASTGEN_SIMD_AVX512 __m512i cast_i64_u64(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask8 cast_i64_bool(__m512i x) { return _mm512_test_epi64_mask(x, x); }

// --- u64: __m512i, 8 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_u64(const std::uint64_t* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_u64(const std::uint64_t* p, __mmask8 t) {
  return _mm512_maskz_loadu_epi64(t, p);
}
BCASTGEN_SIMD_AVX512 void store_u64(std::uint64_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_u64(std::uint64_t* p, __mmask8 t, __m512i v) { _mm512_mask_storeu_epi64(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_u64(std::uint64_t* p, __m512i v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
}
BCASTGEN_SIMD_AVX512 __m512i splat_u64(std::uint64_t x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
BCASTGEN_SIMD_AVX512 __m512i permute_u64(__m512i v, __m512i i) { return _mm512_maskz_permutexvar_epi32(0xFFFF, i, v); }
BCASTGEN_SIMD_AVX512 __m512i select_u64(__mmask8 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi64(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask8 load_cmp_u64(const bool* p) {
  return static_cast<__mmask8>(
      _mm_test_epi8_mask(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8(-1)));
}
BCASTGEN_SIMD_AVX512 __mmask8 load_cmp_tail_u64(const bool* p, __mmask8 t) {
  return static_cast<__mmask8>(_mm_mask_test_epi8_mask(t, _mm_maskz_loadu_epi8(t, p), _mm_set1_epi8(-1)));
}
BCASTGEN_SIMD_AVX512 __mmask8 splat_cmp_u64(bool x) { return static_cast<__mmask8>(x ? 0xFF : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_u64(bool* p, __mmask8 m) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_u64(bool* p, __mmask8 t, __mmask8 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i add_u64(__m512i a, __m512i b) { return _mm512_add_epi64(a, b); }
BCASTGEN_SIMD_AVX512 __m512i subtract_u64(__m512i a, __m512i b) { return _mm512_sub_epi64(a, b); }
BCASTGEN_SIMD_AVX512 __m512i multiply_u64(__m512i a, __m512i b) { return _mm512_mullo_epi64(a, b); }
BCASTGEN_SIMD_AVX512 __m512i squared_difference_u64(__m512i a, __m512i b) {
  return _mm512_mullo_epi64(_mm512_sub_epi64(a, b), _mm512_sub_epi64(a, b));
}
BCASTGEN_SIMD_AVX512 __m512i maximum_u64(__m512i a, __m512i b) { return _mm512_maskz_max_epu64(0xFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i minimum_u64(__m512i a, __m512i b) { return _mm512_maskz_min_epu64(0xFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_u64(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_u64(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_u64(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 equal_u64(__m512i a, __m512i b) { return _mm512_cmpeq_epu64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 not_equal_u64(__m512i a, __m512i b) { return _mm512_cmpneq_epu64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 less_u64(__m512i a, __m512i b) { return _mm512_cmplt_epu64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 less_equal_u64(__m512i a, __m512i b) { return _mm512_cmple_epu64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 greater_u64(__m512i a, __m512i b) { return _mm512_cmpgt_epu64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask8 greater_equal_u64(__m512i a, __m512i b) { return _mm512_cmpge_epu64_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_left_shift_u64(__m512i a, __m512i b) {
  return _mm512_maskz_sllv_epi64(0xFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i bitwise_right_shift_u64(__m512i a, __m512i b) {
  return _mm512_maskz_srlv_epi64(0xFF, a, b);
}
BCASTGEN_SIMD_AVX512 __m512i neg_u64(__m512i x) { return _mm512_sub_epi64(_mm512_setzero_si512(), x); }
BCASTGEN_SIMD_AVX512 __m512i abs_u64(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __m512i square_u64(__m512i x) { return _mm512_mullo_epi64(x, x); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_not_u64(__m512i x) { return _mm512_xor_si512(x, _mm512_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX512 __m512d cast_u64_f64(__m512i x) { return _mm512_maskz_cvtepu64_pd(0xFF, x); }
BCASTGEN_SIMD_AVX512 __m512i cast_u64_i64(__m512i x) { return x; }
BCASTGEN_SIMD_AVX512 __mmask8 cast_u64_bool(__m512i x) { return _mm512_test_epi64_mask(x, x); }

// --- bool: __m512i, 64 lanes ---
BCASTGEN_SIMD_AVX512 __m512i load_bool(const bool* p) { return _mm512_loadu_si512(p); }
BCASTGEN_SIMD_AVX512 __m512i load_tail_bool(const bool* p, __mmask64 t) { return _mm512_maskz_loadu_epi8(t, p); }
BCASTGEN_SIMD_AVX512 void store_bool(bool* p, __m512i v) { _mm512_storeu_si512(p, v); }
BCASTGEN_SIMD_AVX512 void store_tail_bool(bool* p, __mmask64 t, __m512i v) { _mm512_mask_storeu_epi8(p, t, v); }
BCASTGEN_SIMD_AVX512 void stream_bool(bool* p, __m512i v) { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }
BCASTGEN_SIMD_AVX512 __m512i splat_bool(bool x) { return _mm512_set1_epi8(static_cast<char>(x)); }
BCASTGEN_SIMD_AVX512 __m512i select_bool(__mmask64 c, __m512i x, __m512i y) { return _mm512_mask_blend_epi8(c, y, x); }
BCASTGEN_SIMD_AVX512 __mmask64 load_cmp_bool(const bool* p) {
  return _mm512_test_epi8_mask(_mm512_loadu_si512(p), _mm512_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask64 load_cmp_tail_bool(const bool* p, __mmask64 t) {
  return _mm512_mask_test_epi8_mask(t, _mm512_maskz_loadu_epi8(t, p), _mm512_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512 __mmask64 splat_cmp_bool(bool x) { return static_cast<__mmask64>(x ? 0xFFFFFFFFFFFFFFFFull : 0); }
BCASTGEN_SIMD_AVX512 void store_bool_bool(bool* p, __mmask64 m) {
  _mm512_storeu_si512(p, _mm512_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 void store_bool_tail_bool(bool* p, __mmask64 t, __mmask64 m) {
  _mm512_mask_storeu_epi8(p, t, _mm512_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __m512i logical_and_bool(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i logical_or_bool(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i logical_xor_bool(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_and_bool(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_or_bool(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
BCASTGEN_SIMD_AVX512 __m512i bitwise_xor_bool(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 equal_bool(__m512i a, __m512i b) { return _mm512_cmpeq_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 not_equal_bool(__m512i a, __m512i b) { return _mm512_cmpneq_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 less_bool(__m512i a, __m512i b) { return _mm512_cmplt_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 less_equal_bool(__m512i a, __m512i b) { return _mm512_cmple_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 greater_bool(__m512i a, __m512i b) { return _mm512_cmpgt_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __mmask64 greater_equal_bool(__m512i a, __m512i b) { return _mm512_cmpge_epu8_mask(a, b); }
BCASTGEN_SIMD_AVX512 __m512 cast_bool_f32(__mmask16 x) { return _mm512_maskz_mov_ps(x, _mm512_set1_ps(1.0f)); }
BCASTGEN_SIMD_AVX512 __m512d cast_bool_f64(__mmask8 x) { return _mm512_maskz_mov_pd(x, _mm512_set1_pd(1.0)); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_i32(__mmask16 x) { return _mm512_maskz_set1_epi32(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_u32(__mmask16 x) { return _mm512_maskz_set1_epi32(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_i64(__mmask8 x) { return _mm512_maskz_set1_epi64(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_u64(__mmask8 x) { return _mm512_maskz_set1_epi64(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_i16(__mmask32 x) { return _mm512_maskz_set1_epi16(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_u16(__mmask32 x) { return _mm512_maskz_set1_epi16(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_i8(__mmask64 x) { return _mm512_maskz_set1_epi8(x, 1); }
BCASTGEN_SIMD_AVX512 __m512i cast_bool_u8(__mmask64 x) { return _mm512_maskz_set1_epi8(x, 1); }

// --- Casts between widths ---
// A kernel that mixes element widths has the lanes of its narrowest type,
// and a node of a type r times wider takes r registers (its parts). A
// widening cast makes part S of its result from segment S of one register
// (the template argument); a narrowing cast joins r registers, in order.
// Each gives ops::cast's bits: integers extend by their source's sign and
// truncate modulo 2^bits (vpmov*); 8- and 16-bit integers and 32-bit ones
// into f64 convert exactly; f32 <-> f64 round as the scalar conversion does;
// f32 -> i8, u8, i16, u16 is cvtt to i32 (INT32_MIN out of range), then
// truncated, and f64 -> i32 is cvtt. Zero-masked forms with every lane set,
// as above (GCC PR 105593).
namespace detail {
// Bytes Bytes * S .. of x at the low end of a 128-bit register.
template <int Bytes, int S>
BCASTGEN_SIMD_AVX512 __m128i segment(__m512i x) {
  constexpr int kAt = Bytes * S;
  static_assert(kAt >= 0 && kAt % 16 + Bytes <= 16 && kAt < 64, "a segment of one 128-bit block");
  const __m128i block = _mm512_maskz_extracti32x4_epi32(0xF, x, kAt / 16);
  if constexpr (kAt % 16 == 0) {
    return block;
  } else {
    return _mm_srli_si128(block, kAt % 16);
  }
}
// Half S of x.
template <int S>
BCASTGEN_SIMD_AVX512 __m256i half(__m512i x) { return _mm512_maskz_extracti64x4_epi64(0xF, x, S); }
// Registers joined in order, low first.
BCASTGEN_SIMD_AVX512 __m512i join(__m256i lo, __m256i hi) {
  return _mm512_maskz_inserti64x4(0xFF, _mm512_castsi256_si512(lo), hi, 1);
}
BCASTGEN_SIMD_AVX512 __m512i join(__m128i a, __m128i b, __m128i c, __m128i d) {
  return join(_mm256_set_m128i(b, a), _mm256_set_m128i(d, c));
}
// The low bits of every lane (vpmov*).
BCASTGEN_SIMD_AVX512 __m256i truncate_16_8(__m512i x) { return _mm512_maskz_cvtepi16_epi8(0xFFFFFFFF, x); }
BCASTGEN_SIMD_AVX512 __m256i truncate_32_16(__m512i x) { return _mm512_maskz_cvtepi32_epi16(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __m128i truncate_32_8(__m512i x) { return _mm512_maskz_cvtepi32_epi8(0xFFFF, x); }
BCASTGEN_SIMD_AVX512 __m256i truncate_64_32(__m512i x) { return _mm512_maskz_cvtepi64_epi32(0xFF, x); }
BCASTGEN_SIMD_AVX512 __m128i truncate_64_16(__m512i x) { return _mm512_maskz_cvtepi64_epi16(0xFF, x); }
BCASTGEN_SIMD_AVX512 __m512i cvtt_i32(__m512 x) { return _mm512_maskz_cvttps_epi32(0xFFFF, x); }
}  // namespace detail
// Widening: part S of the result, from segment S of x.
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i8_i16(__m512i x) {
  return _mm512_maskz_cvtepi8_epi16(0xFFFFFFFF, detail::half<S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i8_u16(__m512i x) {
  return _mm512_maskz_cvtepi8_epi16(0xFFFFFFFF, detail::half<S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i8_i32(__m512i x) {
  return _mm512_maskz_cvtepi8_epi32(0xFFFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i8_u32(__m512i x) {
  return _mm512_maskz_cvtepi8_epi32(0xFFFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i8_i64(__m512i x) {
  return _mm512_maskz_cvtepi8_epi64(0xFF, detail::segment<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i8_u64(__m512i x) {
  return _mm512_maskz_cvtepi8_epi64(0xFF, detail::segment<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u8_i16(__m512i x) {
  return _mm512_maskz_cvtepu8_epi16(0xFFFFFFFF, detail::half<S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u8_u16(__m512i x) {
  return _mm512_maskz_cvtepu8_epi16(0xFFFFFFFF, detail::half<S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u8_i32(__m512i x) {
  return _mm512_maskz_cvtepu8_epi32(0xFFFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u8_u32(__m512i x) {
  return _mm512_maskz_cvtepu8_epi32(0xFFFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u8_i64(__m512i x) {
  return _mm512_maskz_cvtepu8_epi64(0xFF, detail::segment<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u8_u64(__m512i x) {
  return _mm512_maskz_cvtepu8_epi64(0xFF, detail::segment<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i16_i32(__m512i x) { return _mm512_maskz_cvtepi16_epi32(0xFFFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i16_u32(__m512i x) { return _mm512_maskz_cvtepi16_epi32(0xFFFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i16_i64(__m512i x) {
  return _mm512_maskz_cvtepi16_epi64(0xFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i16_u64(__m512i x) {
  return _mm512_maskz_cvtepi16_epi64(0xFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u16_i32(__m512i x) { return _mm512_maskz_cvtepu16_epi32(0xFFFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u16_u32(__m512i x) { return _mm512_maskz_cvtepu16_epi32(0xFFFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u16_i64(__m512i x) {
  return _mm512_maskz_cvtepu16_epi64(0xFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u16_u64(__m512i x) {
  return _mm512_maskz_cvtepu16_epi64(0xFF, detail::segment<16, S>(x));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i32_i64(__m512i x) { return _mm512_maskz_cvtepi32_epi64(0xFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_i32_u64(__m512i x) { return _mm512_maskz_cvtepi32_epi64(0xFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u32_i64(__m512i x) { return _mm512_maskz_cvtepu32_epi64(0xFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512i cast_u32_u64(__m512i x) { return _mm512_maskz_cvtepu32_epi64(0xFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512 cast_i8_f32(__m512i x) {
  return _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_maskz_cvtepi8_epi32(0xFFFF, detail::segment<16, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512 cast_u8_f32(__m512i x) {
  return _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_maskz_cvtepu8_epi32(0xFFFF, detail::segment<16, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512 cast_i16_f32(__m512i x) {
  return _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_maskz_cvtepi16_epi32(0xFFFF, detail::half<S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512 cast_u16_f32(__m512i x) {
  return _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_maskz_cvtepu16_epi32(0xFFFF, detail::half<S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_i8_f64(__m512i x) {
  return _mm512_maskz_cvtepi32_pd(0xFF, _mm256_cvtepi8_epi32(detail::segment<8, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_u8_f64(__m512i x) {
  return _mm512_maskz_cvtepi32_pd(0xFF, _mm256_cvtepu8_epi32(detail::segment<8, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_i16_f64(__m512i x) {
  return _mm512_maskz_cvtepi32_pd(0xFF, _mm256_cvtepi16_epi32(detail::segment<16, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_u16_f64(__m512i x) {
  return _mm512_maskz_cvtepi32_pd(0xFF, _mm256_cvtepu16_epi32(detail::segment<16, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_i32_f64(__m512i x) { return _mm512_maskz_cvtepi32_pd(0xFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_u32_f64(__m512i x) { return _mm512_maskz_cvtepu32_pd(0xFF, detail::half<S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX512 __m512d cast_f32_f64(__m512 x) {
  return _mm512_maskz_cvtps_pd(0xFF, _mm256_castsi256_ps(detail::half<S>(_mm512_castps_si512(x))));
}
// Narrowing: the result from r registers, in order.
BCASTGEN_SIMD_AVX512 __m512i cast_i16_i8(__m512i a, __m512i b) {
  return detail::join(detail::truncate_16_8(a), detail::truncate_16_8(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i16_u8(__m512i a, __m512i b) {
  return detail::join(detail::truncate_16_8(a), detail::truncate_16_8(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u16_i8(__m512i a, __m512i b) {
  return detail::join(detail::truncate_16_8(a), detail::truncate_16_8(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u16_u8(__m512i a, __m512i b) {
  return detail::join(detail::truncate_16_8(a), detail::truncate_16_8(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i32_i8(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_32_8(a),
                      detail::truncate_32_8(b),
                      detail::truncate_32_8(c),
                      detail::truncate_32_8(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i32_u8(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_32_8(a),
                      detail::truncate_32_8(b),
                      detail::truncate_32_8(c),
                      detail::truncate_32_8(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i32_i16(__m512i a, __m512i b) {
  return detail::join(detail::truncate_32_16(a), detail::truncate_32_16(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i32_u16(__m512i a, __m512i b) {
  return detail::join(detail::truncate_32_16(a), detail::truncate_32_16(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u32_i8(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_32_8(a),
                      detail::truncate_32_8(b),
                      detail::truncate_32_8(c),
                      detail::truncate_32_8(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u32_u8(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_32_8(a),
                      detail::truncate_32_8(b),
                      detail::truncate_32_8(c),
                      detail::truncate_32_8(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u32_i16(__m512i a, __m512i b) {
  return detail::join(detail::truncate_32_16(a), detail::truncate_32_16(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u32_u16(__m512i a, __m512i b) {
  return detail::join(detail::truncate_32_16(a), detail::truncate_32_16(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i64_i16(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_64_16(a),
                      detail::truncate_64_16(b),
                      detail::truncate_64_16(c),
                      detail::truncate_64_16(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i64_u16(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_64_16(a),
                      detail::truncate_64_16(b),
                      detail::truncate_64_16(c),
                      detail::truncate_64_16(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i64_i32(__m512i a, __m512i b) {
  return detail::join(detail::truncate_64_32(a), detail::truncate_64_32(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_i64_u32(__m512i a, __m512i b) {
  return detail::join(detail::truncate_64_32(a), detail::truncate_64_32(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u64_i16(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_64_16(a),
                      detail::truncate_64_16(b),
                      detail::truncate_64_16(c),
                      detail::truncate_64_16(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u64_u16(__m512i a, __m512i b, __m512i c, __m512i d) {
  return detail::join(detail::truncate_64_16(a),
                      detail::truncate_64_16(b),
                      detail::truncate_64_16(c),
                      detail::truncate_64_16(d));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u64_i32(__m512i a, __m512i b) {
  return detail::join(detail::truncate_64_32(a), detail::truncate_64_32(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_u64_u32(__m512i a, __m512i b) {
  return detail::join(detail::truncate_64_32(a), detail::truncate_64_32(b));
}
BCASTGEN_SIMD_AVX512 __m512i cast_f32_i16(__m512 a, __m512 b) {
  return detail::join(detail::truncate_32_16(detail::cvtt_i32(a)), detail::truncate_32_16(detail::cvtt_i32(b)));
}
BCASTGEN_SIMD_AVX512 __m512i cast_f32_u16(__m512 a, __m512 b) {
  return detail::join(detail::truncate_32_16(detail::cvtt_i32(a)), detail::truncate_32_16(detail::cvtt_i32(b)));
}
BCASTGEN_SIMD_AVX512 __m512i cast_f32_i8(__m512 a, __m512 b, __m512 c, __m512 d) {
  return detail::join(detail::truncate_32_8(detail::cvtt_i32(a)),
                      detail::truncate_32_8(detail::cvtt_i32(b)),
                      detail::truncate_32_8(detail::cvtt_i32(c)),
                      detail::truncate_32_8(detail::cvtt_i32(d)));
}
BCASTGEN_SIMD_AVX512 __m512i cast_f32_u8(__m512 a, __m512 b, __m512 c, __m512 d) {
  return detail::join(detail::truncate_32_8(detail::cvtt_i32(a)),
                      detail::truncate_32_8(detail::cvtt_i32(b)),
                      detail::truncate_32_8(detail::cvtt_i32(c)),
                      detail::truncate_32_8(detail::cvtt_i32(d)));
}
BCASTGEN_SIMD_AVX512 __m512 cast_f64_f32(__m512d a, __m512d b) {
  return _mm512_maskz_insertf32x8(0xFFFF, _mm512_castps256_ps512(_mm512_maskz_cvtpd_ps(0xFF, a)),
                                  _mm512_maskz_cvtpd_ps(0xFF, b), 1);
}
BCASTGEN_SIMD_AVX512 __m512i cast_f64_i32(__m512d a, __m512d b) {
  return detail::join(_mm512_maskz_cvttpd_epi32(0xFF, a), _mm512_maskz_cvttpd_epi32(0xFF, b));
}

// --- rounding to integers, classification and sign (exact; ops.h) ---
// round is to nearest even (numpy.round); vrndscale never raises, and keeps -0.
BCASTGEN_SIMD_AVX512 __m512 floor_f32(__m512 x) { return _mm512_maskz_roundscale_ps(0xFFFF, x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX512 __m512 ceil_f32(__m512 x) { return _mm512_maskz_roundscale_ps(0xFFFF, x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX512 __m512 trunc_f32(__m512 x) { return _mm512_maskz_roundscale_ps(0xFFFF, x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX512 __m512 round_f32(__m512 x) {
  return _mm512_maskz_roundscale_ps(0xFFFF, x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
BCASTGEN_SIMD_AVX512 __m512d floor_f64(__m512d x) { return _mm512_maskz_roundscale_pd(0xFF, x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX512 __m512d ceil_f64(__m512d x) { return _mm512_maskz_roundscale_pd(0xFF, x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX512 __m512d trunc_f64(__m512d x) { return _mm512_maskz_roundscale_pd(0xFF, x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX512 __m512d round_f64(__m512d x) {
  return _mm512_maskz_roundscale_pd(0xFF, x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
// Classification: a lane mask. signbit is the sign bit itself (of -0 and of
// a NaN too).
BCASTGEN_SIMD_AVX512 __mmask16 isnan_f32(__m512 x) { return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
BCASTGEN_SIMD_AVX512 __mmask16 isinf_f32(__m512 x) {
  return _mm512_cmp_ps_mask(abs_f32(x), _mm512_set1_ps(INFINITY), _CMP_EQ_OQ);
}
BCASTGEN_SIMD_AVX512 __mmask16 isfinite_f32(__m512 x) {
  return _mm512_cmp_ps_mask(abs_f32(x), _mm512_set1_ps(INFINITY), _CMP_LT_OQ);
}
BCASTGEN_SIMD_AVX512 __mmask16 signbit_f32(__m512 x) { return _mm512_movepi32_mask(_mm512_castps_si512(x)); }
BCASTGEN_SIMD_AVX512 __mmask8 isnan_f64(__m512d x) { return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
BCASTGEN_SIMD_AVX512 __mmask8 isinf_f64(__m512d x) {
  return _mm512_cmp_pd_mask(abs_f64(x), _mm512_set1_pd(INFINITY), _CMP_EQ_OQ);
}
BCASTGEN_SIMD_AVX512 __mmask8 isfinite_f64(__m512d x) {
  return _mm512_cmp_pd_mask(abs_f64(x), _mm512_set1_pd(INFINITY), _CMP_LT_OQ);
}
BCASTGEN_SIMD_AVX512 __mmask8 signbit_f64(__m512d x) { return _mm512_movepi64_mask(_mm512_castpd_si512(x)); }
// sign: 1 or -1 by the compares, +0 for either zero, x itself for NaN.
BCASTGEN_SIMD_AVX512 __m512 sign_f32(__m512 x) {
  const __m512 zero = _mm512_setzero_ps();
  __m512 r = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, zero, _CMP_GT_OQ), zero, _mm512_set1_ps(1.0f));
  r = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, zero, _CMP_LT_OQ), r, _mm512_set1_ps(-1.0f));
  return _mm512_mask_blend_ps(isnan_f32(x), r, x);
}
BCASTGEN_SIMD_AVX512 __m512d sign_f64(__m512d x) {
  const __m512d zero = _mm512_setzero_pd();
  __m512d r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, zero, _CMP_GT_OQ), zero, _mm512_set1_pd(1.0));
  r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, zero, _CMP_LT_OQ), r, _mm512_set1_pd(-1.0));
  return _mm512_mask_blend_pd(isnan_f64(x), r, x);
}

// --- math functions: the shared algorithms of math_f32.inl ---
namespace detail {
BCASTGEN_SIMD_AVX512 __m512 fmadd_f32(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
// vmaxps/vminps: a > b ? a : b (a < b ? a : b), so b where either is NaN.
BCASTGEN_SIMD_AVX512 __m512 max_or_b_f32(__m512 a, __m512 b) { return _mm512_maskz_max_ps(0xFFFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512 min_or_b_f32(__m512 a, __m512 b) { return _mm512_maskz_min_ps(0xFFFF, a, b); }
BCASTGEN_SIMD_AVX512 __m512i bits_f32(__m512 x) { return _mm512_castps_si512(x); }
BCASTGEN_SIMD_AVX512 __m512 from_bits_f32(__m512i x) { return _mm512_castsi512_ps(x); }
template <int N>
BCASTGEN_SIMD_AVX512 __m512i shift_left_i32(__m512i x) { return _mm512_maskz_slli_epi32(0xFFFF, x, N); }
template <int N>
BCASTGEN_SIMD_AVX512 __m512i shift_right_i32(__m512i x) { return _mm512_maskz_srai_epi32(0xFFFF, x, N); }
// table[j & 3] per lane (callers pass j with higher bits set): the table in
// each 128-bit lane, and vpermilps reads the low 2 bits.
BCASTGEN_SIMD_AVX512 __m512 lookup4_f32(const float* table, __m512i j) {
  return _mm512_maskz_permutevar_ps(0xFFFF, _mm512_maskz_broadcast_f32x4(0xFFFF, _mm_loadu_ps(table)), j);
}
// table[j & 7] per lane (callers pass j with higher bits set): the table
// in both halves of one register, since vpermps reads the low 4 bits.
BCASTGEN_SIMD_AVX512 __m512 lookup8_f32(const float* table, __m512i j) {
  return _mm512_maskz_permutexvar_ps(0xFFFF, j, _mm512_maskz_broadcast_f32x8(0xFFFF, _mm256_loadu_ps(table)));
}
// table[j & 15]: the table is one register.
BCASTGEN_SIMD_AVX512 __m512 lookup16_f32(const float* table, __m512i j) {
  return _mm512_maskz_permutexvar_ps(0xFFFF, j, _mm512_loadu_ps(table));
}
// y 2^(n >> S) for the integer n that z holds over kFractionShifter<S>
// (kShifter + 254 2^S, math_f32.inl, which is included below: its literal
// here): vscalefps takes the floor of its float exponent, n / 2^S, and
// rounds once.
#define BCASTGEN_SIMD_SCALEF
template <int S>
BCASTGEN_SIMD_AVX512 __m512 times_power_of_two(__m512 y, __m512 z) {
  const __m512 n = _mm512_sub_ps(z, _mm512_set1_ps(0x1.8p+23f + 254.0f * (1 << S)));
  return _mm512_maskz_scalef_ps(0xFFFF, y, _mm512_mul_ps(n, _mm512_set1_ps(1.0f / (1 << S))));
}
// ln x's special values over y (math_f32.inl's log_specials) in one
// vfixupimmps: per class of x, one 4-bit token. QNaN, SNaN and +inf give x
// itself (1), +-0 -inf (4), -inf and x < 0 the default NaN 0xffc00000 (3),
// +1 and x > 0 keep y (0). Subnormals are values here (MXCSR.DAZ is clear).
#define BCASTGEN_SIMD_LOG_SPECIALS
BCASTGEN_SIMD_AVX512 __m512 log_specials(__m512 x, __m512 y) {
  // Classes, lowest nibble first: QNaN, SNaN, 0, +1, -inf, +inf, x < 0, x > 0.
  return _mm512_maskz_fixupimm_ps(0xFFFF, y, x, _mm512_set1_epi32(0x03130411), 0);
}
}  // namespace detail
using f32v = __m512;
using i32v = __m512i;
#define BCASTGEN_SIMD_FN BCASTGEN_SIMD_AVX512
#include "bcastgen/simd/math_f32.inl"
#define BCASTGEN_SIMD_PACK_ISA avx512
#define BCASTGEN_SIMD_PACK_WIDTH 2
#include "bcastgen/simd/math_pack.inl"
#undef BCASTGEN_SIMD_PACK_WIDTH
#define BCASTGEN_SIMD_PACK_WIDTH 4
#include "bcastgen/simd/math_pack.inl"
#undef BCASTGEN_SIMD_PACK_WIDTH
#undef BCASTGEN_SIMD_PACK_ISA
#undef BCASTGEN_SIMD_FN
#undef BCASTGEN_SIMD_SCALEF
#undef BCASTGEN_SIMD_LOG_SPECIALS

// --- f16, bf16: __m512 of their f32 values, 16 lanes from 32 bytes ---
// vcvtph2ps is exact; vcvtps2ph rounds to nearest even (NaN to a quiet NaN
// with the top payload bits, subnormals kept). bf16 is the high half of an
// f32: a load moves it up; a store rounds on the bits and takes the high
// halves (vpmovdw). Both stores round, so a kernel's last op may leave its
// result in f32 (the emitter uses its f32 form there). Tails mask 16-bit
// elements (AVX512BW). Zero-masked forms with every lane set, as above.
namespace detail {
// 16 halves <-> 16 f32 lanes (exact both ways for values of the type).
BCASTGEN_SIMD_AVX512 __m512 widen_f16(__m256i h) { return _mm512_maskz_cvtph_ps(0xFFFF, h); }
BCASTGEN_SIMD_AVX512 __m256i narrow_f16(__m512 v) {
  return _mm512_maskz_cvtps_ph(0xFFFF, v, _MM_FROUND_TO_NEAREST_INT);
}
// bf16 k to the high half of lane k, the low half zeroed: one vpermw
// (AVX512BW) with zero-masking, where vpmovzxwd + vpslld take two. On Zen 5
// it takes bias add [1,64,56,56] (bf16, in L2) from 9.3 to 8.8 us with
// avx512bf16's stores (a harness, the fastest of 400 runs).
BCASTGEN_SIMD_AVX512 __m512 widen_bf16(__m256i h) {
  const __m512i to_high_halves = _mm512_set_epi16(15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0, 7, 0, 6, 0, 5, 0,
                                                  4, 0, 3, 0, 2, 0, 1, 0, 0, 0);
  return _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(0xAAAAAAAAu, to_high_halves, _mm512_castsi256_si512(h)));
}
// The bits of the f32 lanes rounded to bf16 (to nearest even: add 0x7FFF
// plus the lowest kept bit; a carry reaches the next binade or inf), in
// the high halves. A NaN is not rounded: it is quieted, its payload cut.
// The rounding add alone is right for every lane but a NaN with a nonzero
// low half (the carry could make it inf or a zero).
BCASTGEN_SIMD_AVX512 __m512i bf16_round_add(__m512i b) {
  const __m512i low_kept = _mm512_and_si512(_mm512_maskz_srli_epi32(0xFFFF, b, 16), _mm512_set1_epi32(1));
  return _mm512_add_epi32(b, _mm512_add_epi32(low_kept, _mm512_set1_epi32(0x7FFF)));
}
BCASTGEN_SIMD_AVX512 __m512i bf16_rounded_bits(__m512 x) {
  const __m512i b = _mm512_castps_si512(x);
  const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  return _mm512_mask_or_epi32(bf16_round_add(b), nan, b, _mm512_set1_epi32(0x00400000));
}
// The high 16 bits of each 32-bit lane, packed (vpsrld, vpmovdw).
BCASTGEN_SIMD_AVX512 __m256i high_halves(__m512i bits) {
  return _mm512_maskz_cvtepi32_epi16(0xFFFF, _mm512_maskz_srli_epi32(0xFFFF, bits, 16));
}
// 16 f32 lanes to 16 bf16, rounded.
BCASTGEN_SIMD_AVX512 __m256i narrow_bf16(__m512 v) { return high_halves(bf16_rounded_bits(v)); }
BCASTGEN_SIMD_AVX512 __m256i load_halves(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
}  // namespace detail
// (The stores write through their typed pointers: bcastgen inspect counts
// the elements a store writes by the pointer's element type.)
BCASTGEN_SIMD_AVX512 __m512 load_f16(const f16* p) { return detail::widen_f16(detail::load_halves(p)); }
BCASTGEN_SIMD_AVX512 __m512 load_tail_f16(const f16* p, __mmask16 t) {
  return detail::widen_f16(_mm256_maskz_loadu_epi16(t, p));
}
BCASTGEN_SIMD_AVX512 void store_f16(f16* p, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::narrow_f16(v));
}
BCASTGEN_SIMD_AVX512 void store_tail_f16(f16* p, __mmask16 t, __m512 v) {
  _mm256_mask_storeu_epi16(p, t, detail::narrow_f16(v));
}
BCASTGEN_SIMD_AVX512 void stream_f16(f16* p, __m512 v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), detail::narrow_f16(v));
}
BCASTGEN_SIMD_AVX512 __m512 splat_f16(f16 x) { return _mm512_set1_ps(to_float(x)); }
BCASTGEN_SIMD_AVX512 __m512 load_bf16(const bf16* p) { return detail::widen_bf16(detail::load_halves(p)); }
BCASTGEN_SIMD_AVX512 __m512 load_tail_bf16(const bf16* p, __mmask16 t) {
  return detail::widen_bf16(_mm256_maskz_loadu_epi16(t, p));
}
BCASTGEN_SIMD_AVX512 void store_bf16(bf16* p, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::narrow_bf16(v));
}
BCASTGEN_SIMD_AVX512 void store_tail_bf16(bf16* p, __mmask16 t, __m512 v) {
  _mm256_mask_storeu_epi16(p, t, detail::narrow_bf16(v));
}
BCASTGEN_SIMD_AVX512 void stream_bf16(bf16* p, __m512 v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), detail::narrow_bf16(v));
}
// Lanes that hold bf16 values (the plan's root_in_type) keep their high
// halves, unrounded.
BCASTGEN_SIMD_AVX512 void store_exact_bf16(bf16* p, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::high_halves(_mm512_castps_si512(v)));
}
BCASTGEN_SIMD_AVX512 void stream_exact_bf16(bf16* p, __m512 v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), detail::high_halves(_mm512_castps_si512(v)));
}
BCASTGEN_SIMD_AVX512 __m512 splat_bf16(bf16 x) { return _mm512_set1_ps(to_float(x)); }
// A compare result of 16-bit float lanes is f32's. The tail forms spell
// out f32's masked store: bcastgen inspect reads a masked store's lane mask
// from the kernel's constant one call deep, not through a second call.
BCASTGEN_SIMD_AVX512 void store_bool_f16(bool* p, __mmask16 m) { store_bool_f32(p, m); }
BCASTGEN_SIMD_AVX512 void store_bool_bf16(bool* p, __mmask16 m) { store_bool_f32(p, m); }
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_tail_f16(const bool* p, __mmask16 t) { return load_cmp_tail_f32(p, t); }
BCASTGEN_SIMD_AVX512 void store_bool_tail_f16(bool* p, __mmask16 t, __mmask16 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512 __mmask16 load_cmp_tail_bf16(const bool* p, __mmask16 t) { return load_cmp_tail_f32(p, t); }
BCASTGEN_SIMD_AVX512 void store_bool_tail_bf16(bool* p, __mmask16 t, __mmask16 m) {
  _mm_mask_storeu_epi8(p, t, _mm_maskz_set1_epi8(m, 1));
}
namespace detail {
BCASTGEN_SIMD_AVX512 __m512 nearest_f16(__m512 x) { return widen_f16(narrow_f16(x)); }
BCASTGEN_SIMD_AVX512 __m512 nearest_bf16(__m512 x) {
  const __m512i high_half = _mm512_set1_epi32(static_cast<int>(0xFFFF0000u));
  return _mm512_castsi512_ps(_mm512_and_si512(bf16_rounded_bits(x), high_half));
}
BCASTGEN_SIMD_AVX512 __m512 nearest_bf16_nan_exact(__m512 x) {
  const __m512i high_half = _mm512_set1_epi32(static_cast<int>(0xFFFF0000u));
  return _mm512_castsi512_ps(_mm512_and_si512(bf16_round_add(_mm512_castps_si512(x)), high_half));
}
}  // namespace detail
// The ISA's own cast to a 16-bit type (AVX2 has no u32 -> f32 form): exact
// to 2^24, beyond which f16 overflows either way.
BCASTGEN_SIMD_AVX512 __m512 cast_u32_f16(__m512i x) { return detail::nearest_f16(cast_u32_f32(x)); }
using f64v = __m512d;
using i8v = __m512i;  // the integer register of every width
using u8v = __m512i;
using i16v = __m512i;
using u16v = __m512i;
using cmp32v = __mmask16;
#define BCASTGEN_SIMD_FN BCASTGEN_SIMD_AVX512
#include "bcastgen/simd/half_f32.inl"
#undef BCASTGEN_SIMD_FN

}  // namespace bcastgen::simd::avx512

#undef BCASTGEN_SIMD_AVX512
