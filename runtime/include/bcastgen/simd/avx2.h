// The AVX2 vector forms that generated kernels call: one named wrapper per
// (operation, dtype), always inlined into the kernel variant. The vocabulary
// (templates/vocabulary.yaml) names them; tests and hand-written code may call
// them too. Each gives the bits of bcastgen::ops (ops.h) on every lane.
//
// Registers: __m256 (f32; f16 and bf16 as their f32 values), __m256d (f64),
// __m256i (integers; bool as 0/1 bytes). A comparison gives a lane mask in the operands' register type, all
// ones where true. Loads and stores are unaligned; stream is the non-temporal
// store (32-byte aligned); the tail forms are vmaskmov (32/64-bit lanes, a
// lane is moved where the top bit of its mask word is set; masked-out lanes
// never fault).
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
#define BCASTGEN_SIMD_AVX2 __attribute__((always_inline, target(BCASTGEN_TARGET_AVX2))) inline

namespace bcastgen::simd::avx2 {

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

namespace detail {
// Four compare results of 32-bit lanes (all ones or zero), a b c d, as 32
// bools in lane order: the saturating packs keep -1 and 0 (to 16 bits, then
// 8) but work within 128-bit halves, giving the 4-lane runs a0-3 b0-3 c0-3
// d0-3 a4-7 b4-7 c4-7 d4-7, which vpermd puts in order; |-1| is 1. Five
// shuffles and one 32-byte store, where four store_bool are four movmskps,
// four pdep (3-cycle latency on Zen 3 and later) and four 8-byte stores:
// case 14 (`a > b` into bool, 1024 x 1024) ran 1.09x faster on a Zen 4 with
// AVX2 only (docs/benchmarks.md).
BCASTGEN_SIMD_AVX2 __m256i bools_of_4(__m256i a, __m256i b, __m256i c, __m256i d) {
  const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
  return _mm256_abs_epi8(_mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}
// The same of float compare results (f32, and f16 and bf16 held as f32).
BCASTGEN_SIMD_AVX2 __m256i bools_of_4(__m256 a, __m256 b, __m256 c, __m256 d) {
  return bools_of_4(_mm256_castps_si256(a), _mm256_castps_si256(b), _mm256_castps_si256(c), _mm256_castps_si256(d));
}
// The first Bytes bytes of v at p (0 < Bytes < 32, whole lanes of T) by
// plain stores of 16, 8 and 4 bytes: the partial vector of a gathered block,
// whose length the plan fixes. On AMD Zen a vmaskmov store is microcoded
// and far slower than these: case 9 (a 1680-element block of 30-element
// rows, so a masked store every fourth vector) ran in 124 to 145 ns instead
// of 278 on a Zen 4 with AVX2 only.
template <int Bytes, typename T>
BCASTGEN_SIMD_AVX2 void store_first_bytes(T* p, __m256i v) {
  static_assert(Bytes > 0 && Bytes < 32 && Bytes % 4 == 0 && Bytes % sizeof(T) == 0, "a partial vector");
  constexpr int k16 = Bytes & 16, k8 = Bytes & 8;
  const __m128i last = k16 ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
  if constexpr (k16 != 0) _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(v));
  if constexpr (k8 != 0) _mm_storel_epi64(reinterpret_cast<__m128i*>(p + k16 / sizeof(T)), last);
  if constexpr ((Bytes & 4) != 0) _mm_storeu_si32(p + (k16 + k8) / sizeof(T), k8 ? _mm_srli_si128(last, 8) : last);
}
}  // namespace detail

// --- f32: __m256, 8 lanes ---
BCASTGEN_SIMD_AVX2 __m256 load_f32(const float* p) { return _mm256_loadu_ps(p); }
BCASTGEN_SIMD_AVX2 __m256 load_tail_f32(const float* p, __m256i t) { return _mm256_maskload_ps(p, t); }
BCASTGEN_SIMD_AVX2 void store_f32(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
BCASTGEN_SIMD_AVX2 void store_tail_f32(float* p, __m256i t, __m256 v) { _mm256_maskstore_ps(p, t, v); }
template <int N>
BCASTGEN_SIMD_AVX2 void store_first_f32(float* p, __m256 v) {
  detail::store_first_bytes<4 * N>(p, _mm256_castps_si256(v));
}
BCASTGEN_SIMD_AVX2 void stream_f32(float* p, __m256 v) { _mm256_stream_ps(p, v); }
BCASTGEN_SIMD_AVX2 __m256 splat_f32(float x) { return _mm256_set1_ps(x); }
BCASTGEN_SIMD_AVX2 __m256 permute_f32(__m256 v, __m256i i) { return _mm256_permutevar8x32_ps(v, i); }
// Lanes p[0], p[s], ..., p[7 s] (an input read through a transpose): one
// vgatherdps, its index vector a constant once s (a constant of the
// kernel) folds; the planner keeps 7 s within int32.
BCASTGEN_SIMD_AVX2 __m256 load_strided_f32(const float* p, std::int64_t s) {
  const __m256i i = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(static_cast<int>(s)));
  return _mm256_i32gather_ps(p, i, 4);
}
namespace detail {
// Prefetches the line of p[offset] into L1. The address is an integer sum:
// the tile ahead may lie past the tensor, where a prefetch is harmless but
// a pointer would not be valid.
BCASTGEN_SIMD_AVX2 void prefetch_line(const float* p, std::int64_t offset) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(offset) * sizeof(float);
  _mm_prefetch(reinterpret_cast<const char*>(at), _MM_HINT_T0);
}
}  // namespace detail
// A 16 x 16 tile of an input read through a transpose (avx512.h's
// transpose_tile_f32 says why): tile row r (tile + 16 r) gets p[r],
// p[r + s], ..., p[r + 15 s], as four 8 x 8 transposes in registers (24
// shuffles each: pairs of lanes, pairs of pairs, then 128-bit halves), and
// the lines at p + ahead, p + ahead + s, ... are prefetched for a later
// tile.
BCASTGEN_SIMD_AVX2 void transpose_tile_f32(const float* p, std::int64_t s, std::int64_t ahead, float* tile) {
  // Every loop unrolled, so that the tile stays in registers (GCC keeps
  // indexed arrays on the stack otherwise).
  #pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) detail::prefetch_line(p, ahead + k * s);
  #pragma GCC unroll 16
  for (int a = 0; a < 16; a += 8) {    // the lines' block: tile columns a..a+7
    #pragma GCC unroll 16
    for (int b = 0; b < 16; b += 8) {  // the elements' block: tile rows b..b+7
      __m256 r[8], t[8];
      #pragma GCC unroll 16
      for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(p + (a + k) * s + b);
      #pragma GCC unroll 16
      for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
      }
      #pragma GCC unroll 16
      for (int k = 0; k < 8; k += 4) {
        r[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
        r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xee);
        r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
        r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xee);
      }
      #pragma GCC unroll 16
      for (int k = 0; k < 4; ++k) {
        _mm256_store_ps(tile + 16 * (b + k) + a, _mm256_permute2f128_ps(r[k], r[k + 4], 0x20));
        _mm256_store_ps(tile + 16 * (b + k + 4) + a, _mm256_permute2f128_ps(r[k], r[k + 4], 0x31));
      }
    }
  }
}
BCASTGEN_SIMD_AVX2 __m256 select_f32(__m256 c, __m256 x, __m256 y) { return _mm256_blendv_ps(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256 blend_tail_f32(__m256i t, __m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_castsi256_ps(t));
}
// Lane i gets lane i + H, for i < H (a row kernel's tree inside a register).
template <int H>
BCASTGEN_SIMD_AVX2 __m256 lanes_down_f32(__m256 x) {
  static_assert(H == 4 || H == 2 || H == 1, "lanes_down: 4, 2 or 1");
  if constexpr (H == 4) return _mm256_permute2f128_ps(x, x, 0x01);
  else if constexpr (H == 2) return _mm256_permute_ps(x, _MM_SHUFFLE(1, 0, 3, 2));
  else return _mm256_permute_ps(x, _MM_SHUFFLE(2, 3, 0, 1));
}
BCASTGEN_SIMD_AVX2 float first_lane_f32(__m256 x) { return _mm256_cvtss_f32(x); }
BCASTGEN_SIMD_AVX2 __m256 load_cmp_f32(const bool* p) {
  return _mm256_castsi256_ps(_mm256_cmpgt_epi32(
      _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))), _mm256_setzero_si256()));
}
BCASTGEN_SIMD_AVX2 __m256 splat_cmp_f32(bool x) { return _mm256_castsi256_ps(_mm256_set1_epi32(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_f32(bool* p, __m256 m) {
  const std::uint64_t bits = _pdep_u64(static_cast<unsigned>(_mm256_movemask_ps(m)), 0x0101010101010101ull);
  std::memcpy(p, &bits, 8);
}
BCASTGEN_SIMD_AVX2 void store_bool4_f32(bool* p, __m256 a, __m256 b, __m256 c, __m256 d) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::bools_of_4(a, b, c, d));
}
BCASTGEN_SIMD_AVX2 __m256 add_f32(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
BCASTGEN_SIMD_AVX2 __m256 subtract_f32(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
BCASTGEN_SIMD_AVX2 __m256 multiply_f32(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
BCASTGEN_SIMD_AVX2 __m256 divide_f32(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
// vmaxps(a, b) is a > b ? a : b, so it returns b where either is NaN and
// where they compare equal (+0 and -0), as ops::maximum does; only a NaN in
// a alone needs the blend.
BCASTGEN_SIMD_AVX2 __m256 maximum_f32(__m256 a, __m256 b) {
  return _mm256_blendv_ps(_mm256_max_ps(a, b), a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}
BCASTGEN_SIMD_AVX2 __m256 minimum_f32(__m256 a, __m256 b) {
  return _mm256_blendv_ps(_mm256_min_ps(a, b), a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}
BCASTGEN_SIMD_AVX2 __m256 abs_f32(__m256 x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
// With a literal operand n, never NaN (vocabulary: literal_ops): the op of
// (n, x) is the one instruction. max(x, +0.0) is the op of (+0, x), which
// gives x where x is NaN, but -0 (x) for -0 where ops::maximum gives +0:
// its sign bit cleared then (so a NaN comes out a NaN of the same payload,
// positive). On an AMD Zen 4 (AVX2 only), F1 max(x * scale + shift, 0) ran
// at 0.90x Halide's speed with a compare and a mask here, 0.98x with this
// (docs/benchmarks.md); adding +0 instead of clearing the sign, which keeps
// a NaN's sign, was as fast on F1 but 0.95x as fast on F5 (vaddps's latency
// in its chain).
// min(x, +0.0) clears the lanes that give +0 (not x < 0 nor NaN: -0 gives
// +0), as clearing a sign cannot.
BCASTGEN_SIMD_AVX2 __m256 maximum_number_f32(__m256 n, __m256 x) { return _mm256_max_ps(n, x); }
BCASTGEN_SIMD_AVX2 __m256 minimum_number_f32(__m256 n, __m256 x) { return _mm256_min_ps(n, x); }
BCASTGEN_SIMD_AVX2 __m256 maximum_zero_f32(__m256 x) {
  return abs_f32(_mm256_max_ps(_mm256_setzero_ps(), x));
}
BCASTGEN_SIMD_AVX2 __m256 minimum_zero_f32(__m256 x) {
  return _mm256_and_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NGE_UQ), x);
}
BCASTGEN_SIMD_AVX2 __m256 squared_difference_f32(__m256 a, __m256 b) {
  return _mm256_mul_ps(_mm256_sub_ps(a, b), _mm256_sub_ps(a, b));
}
BCASTGEN_SIMD_AVX2 __m256 equal_f32(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
BCASTGEN_SIMD_AVX2 __m256 not_equal_f32(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
BCASTGEN_SIMD_AVX2 __m256 less_f32(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
BCASTGEN_SIMD_AVX2 __m256 less_equal_f32(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
BCASTGEN_SIMD_AVX2 __m256 greater_f32(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
BCASTGEN_SIMD_AVX2 __m256 greater_equal_f32(__m256 a, __m256 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
// |a| with the sign bit of b: a bit select.
BCASTGEN_SIMD_AVX2 __m256 copysign_f32(__m256 a, __m256 b) {
  return _mm256_or_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a), _mm256_and_ps(_mm256_set1_ps(-0.0f), b));
}
// std::nextafter: equal lanes give b, NaN lanes a + b; a zero steps to the
// smallest subnormal with b's sign; any other a steps its bit pattern by
// +1 (away from zero: a < b xor a < 0) or -1, as a + (1 | ~inc).
BCASTGEN_SIMD_AVX2 __m256 nextafter_f32(__m256 a, __m256 b) {
  return _mm256_blendv_ps(
      _mm256_blendv_ps(b, _mm256_add_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q)),
      _mm256_blendv_ps(
          _mm256_castsi256_ps(_mm256_add_epi32(
              _mm256_castps_si256(a),
              _mm256_or_si256(_mm256_castps_si256(_mm256_xor_ps(_mm256_cmp_ps(a, b, _CMP_LT_OQ),
                                                                _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GE_OQ))),
                              _mm256_set1_epi32(1)))),
          _mm256_or_ps(_mm256_and_ps(_mm256_set1_ps(-0.0f), b), _mm256_castsi256_ps(_mm256_set1_epi32(1))),
          _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_EQ_OQ)),
      _mm256_cmp_ps(a, b, _CMP_NEQ_OQ));
}
// The vector extension's negation (a sign flip, as xor), which lets the
// compiler fold it into vfnmadd / vfmsub.
BCASTGEN_SIMD_AVX2 __m256 neg_f32(__m256 x) { return -x; }
BCASTGEN_SIMD_AVX2 __m256 sqrt_f32(__m256 x) { return _mm256_sqrt_ps(x); }
BCASTGEN_SIMD_AVX2 __m256 square_f32(__m256 x) { return _mm256_mul_ps(x, x); }
BCASTGEN_SIMD_AVX2 __m256 reciprocal_f32(__m256 x) { return _mm256_div_ps(_mm256_set1_ps(1.0f), x); }
BCASTGEN_SIMD_AVX2 __m256i cast_f32_i32(__m256 x) { return _mm256_cvttps_epi32(x); }
BCASTGEN_SIMD_AVX2 __m256 cast_f32_bool(__m256 x) { return _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NEQ_UQ); }

// --- f64: __m256d, 4 lanes ---
BCASTGEN_SIMD_AVX2 __m256d load_f64(const double* p) { return _mm256_loadu_pd(p); }
BCASTGEN_SIMD_AVX2 __m256d load_tail_f64(const double* p, __m256i t) { return _mm256_maskload_pd(p, t); }
BCASTGEN_SIMD_AVX2 void store_f64(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
BCASTGEN_SIMD_AVX2 void store_tail_f64(double* p, __m256i t, __m256d v) { _mm256_maskstore_pd(p, t, v); }
template <int N>
BCASTGEN_SIMD_AVX2 void store_first_f64(double* p, __m256d v) {
  detail::store_first_bytes<8 * N>(p, _mm256_castpd_si256(v));
}
BCASTGEN_SIMD_AVX2 void stream_f64(double* p, __m256d v) { _mm256_stream_pd(p, v); }
BCASTGEN_SIMD_AVX2 __m256d splat_f64(double x) { return _mm256_set1_pd(x); }
BCASTGEN_SIMD_AVX2 __m256d permute_f64(__m256d v, __m256i i) {
  return _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(v), i));
}
BCASTGEN_SIMD_AVX2 __m256d select_f64(__m256d c, __m256d x, __m256d y) { return _mm256_blendv_pd(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256d load_cmp_f64(const bool* p) {
  return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_loadu_si32(p)), _mm256_setzero_si256()));
}
BCASTGEN_SIMD_AVX2 __m256d splat_cmp_f64(bool x) { return _mm256_castsi256_pd(_mm256_set1_epi64x(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_f64(bool* p, __m256d m) {
  const std::uint32_t bits = _pdep_u32(static_cast<unsigned>(_mm256_movemask_pd(m)), 0x01010101u);
  std::memcpy(p, &bits, 4);
}
BCASTGEN_SIMD_AVX2 __m256d add_f64(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
BCASTGEN_SIMD_AVX2 __m256d subtract_f64(__m256d a, __m256d b) { return _mm256_sub_pd(a, b); }
BCASTGEN_SIMD_AVX2 __m256d multiply_f64(__m256d a, __m256d b) { return _mm256_mul_pd(a, b); }
BCASTGEN_SIMD_AVX2 __m256d divide_f64(__m256d a, __m256d b) { return _mm256_div_pd(a, b); }
BCASTGEN_SIMD_AVX2 __m256d maximum_f64(__m256d a, __m256d b) {
  return _mm256_blendv_pd(_mm256_max_pd(a, b), a, _mm256_cmp_pd(a, a, _CMP_UNORD_Q));
}
BCASTGEN_SIMD_AVX2 __m256d minimum_f64(__m256d a, __m256d b) {
  return _mm256_blendv_pd(_mm256_min_pd(a, b), a, _mm256_cmp_pd(a, a, _CMP_UNORD_Q));
}
BCASTGEN_SIMD_AVX2 __m256d abs_f64(__m256d x) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x); }
BCASTGEN_SIMD_AVX2 __m256d maximum_number_f64(__m256d n, __m256d x) { return _mm256_max_pd(n, x); }
BCASTGEN_SIMD_AVX2 __m256d minimum_number_f64(__m256d n, __m256d x) { return _mm256_min_pd(n, x); }
BCASTGEN_SIMD_AVX2 __m256d maximum_zero_f64(__m256d x) {
  return abs_f64(_mm256_max_pd(_mm256_setzero_pd(), x));
}
BCASTGEN_SIMD_AVX2 __m256d minimum_zero_f64(__m256d x) {
  return _mm256_and_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NGE_UQ), x);
}
BCASTGEN_SIMD_AVX2 __m256d squared_difference_f64(__m256d a, __m256d b) {
  return _mm256_mul_pd(_mm256_sub_pd(a, b), _mm256_sub_pd(a, b));
}
BCASTGEN_SIMD_AVX2 __m256d equal_f64(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
BCASTGEN_SIMD_AVX2 __m256d not_equal_f64(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_UQ); }
BCASTGEN_SIMD_AVX2 __m256d less_f64(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
BCASTGEN_SIMD_AVX2 __m256d less_equal_f64(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
BCASTGEN_SIMD_AVX2 __m256d greater_f64(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
BCASTGEN_SIMD_AVX2 __m256d greater_equal_f64(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
BCASTGEN_SIMD_AVX2 __m256d copysign_f64(__m256d a, __m256d b) {
  return _mm256_or_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), a), _mm256_and_pd(_mm256_set1_pd(-0.0), b));
}
BCASTGEN_SIMD_AVX2 __m256d nextafter_f64(__m256d a, __m256d b) {
  return _mm256_blendv_pd(
      _mm256_blendv_pd(b, _mm256_add_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q)),
      _mm256_blendv_pd(
          _mm256_castsi256_pd(_mm256_add_epi64(
              _mm256_castpd_si256(a),
              _mm256_or_si256(_mm256_castpd_si256(_mm256_xor_pd(_mm256_cmp_pd(a, b, _CMP_LT_OQ),
                                                                _mm256_cmp_pd(a, _mm256_setzero_pd(), _CMP_GE_OQ))),
                              _mm256_set1_epi64x(1)))),
          _mm256_or_pd(_mm256_and_pd(_mm256_set1_pd(-0.0), b), _mm256_castsi256_pd(_mm256_set1_epi64x(1))),
          _mm256_cmp_pd(a, _mm256_setzero_pd(), _CMP_EQ_OQ)),
      _mm256_cmp_pd(a, b, _CMP_NEQ_OQ));
}
BCASTGEN_SIMD_AVX2 __m256d neg_f64(__m256d x) { return -x; }
BCASTGEN_SIMD_AVX2 __m256d sqrt_f64(__m256d x) { return _mm256_sqrt_pd(x); }
BCASTGEN_SIMD_AVX2 __m256d square_f64(__m256d x) { return _mm256_mul_pd(x, x); }
BCASTGEN_SIMD_AVX2 __m256d reciprocal_f64(__m256d x) { return _mm256_div_pd(_mm256_set1_pd(1.0), x); }
BCASTGEN_SIMD_AVX2 __m256d cast_f64_bool(__m256d x) { return _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_UQ); }

// --- i8: __m256i, 32 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_i8(const std::int8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 void store_i8(std::int8_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 void stream_i8(std::int8_t* p, __m256i v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 __m256i splat_i8(std::int8_t x) { return _mm256_set1_epi8(static_cast<char>(x)); }
BCASTGEN_SIMD_AVX2 __m256i select_i8(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_i8(const bool* p) {
  return _mm256_cmpgt_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_i8(bool x) { return _mm256_set1_epi8(static_cast<char>(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_i8(bool* p, __m256i m) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_and_si256(m, _mm256_set1_epi8(1)));
}
BCASTGEN_SIMD_AVX2 __m256i add_i8(__m256i a, __m256i b) { return _mm256_add_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_i8(__m256i a, __m256i b) { return _mm256_sub_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i maximum_i8(__m256i a, __m256i b) { return _mm256_max_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i minimum_i8(__m256i a, __m256i b) { return _mm256_min_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_i8(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_i8(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_i8(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_i8(__m256i a, __m256i b) { return _mm256_cmpeq_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_i8(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(a, b), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_i8(__m256i a, __m256i b) { return _mm256_cmpgt_epi8(b, a); }
BCASTGEN_SIMD_AVX2 __m256i less_equal_i8(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi8(a, b), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_i8(__m256i a, __m256i b) { return _mm256_cmpgt_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i greater_equal_i8(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi8(b, a), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i neg_i8(__m256i x) { return _mm256_sub_epi8(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_i8(__m256i x) { return _mm256_abs_epi8(x); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_i8(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_i8_u8(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_i8_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- u8: __m256i, 32 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_u8(const std::uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 void store_u8(std::uint8_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 void stream_u8(std::uint8_t* p, __m256i v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 __m256i splat_u8(std::uint8_t x) { return _mm256_set1_epi8(static_cast<char>(x)); }
BCASTGEN_SIMD_AVX2 __m256i select_u8(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_u8(const bool* p) {
  return _mm256_cmpgt_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_u8(bool x) { return _mm256_set1_epi8(static_cast<char>(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_u8(bool* p, __m256i m) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_and_si256(m, _mm256_set1_epi8(1)));
}
BCASTGEN_SIMD_AVX2 __m256i add_u8(__m256i a, __m256i b) { return _mm256_add_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_u8(__m256i a, __m256i b) { return _mm256_sub_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i maximum_u8(__m256i a, __m256i b) { return _mm256_max_epu8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i minimum_u8(__m256i a, __m256i b) { return _mm256_min_epu8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_u8(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_u8(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_u8(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_u8(__m256i a, __m256i b) { return _mm256_cmpeq_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_u8(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(a, b), _mm256_set1_epi8(-1));
}
// Unsigned order without an unsigned compare: a >= b exactly when max(a, b) == a.
BCASTGEN_SIMD_AVX2 __m256i less_u8(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(a, b), a), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_equal_u8(__m256i a, __m256i b) { return _mm256_cmpeq_epi8(_mm256_min_epu8(a, b), a); }
BCASTGEN_SIMD_AVX2 __m256i greater_u8(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(a, b), a), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_equal_u8(__m256i a, __m256i b) {
  return _mm256_cmpeq_epi8(_mm256_max_epu8(a, b), a);
}
BCASTGEN_SIMD_AVX2 __m256i neg_u8(__m256i x) { return _mm256_sub_epi8(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_u8(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_u8(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_u8_i8(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_u8_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- i16: __m256i, 16 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_i16(const std::int16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 void store_i16(std::int16_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 void stream_i16(std::int16_t* p, __m256i v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 __m256i splat_i16(std::int16_t x) { return _mm256_set1_epi16(static_cast<short>(x)); }
BCASTGEN_SIMD_AVX2 __m256i select_i16(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_i16(const bool* p) {
  return _mm256_cmpgt_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                            _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_i16(bool x) { return _mm256_set1_epi16(static_cast<short>(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_i16(bool* p, __m256i m) {
  _mm_storeu_si128(
      reinterpret_cast<__m128i*>(p),
      _mm_and_si128(_mm_packs_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1)), _mm_set1_epi8(1)));
}
BCASTGEN_SIMD_AVX2 __m256i add_i16(__m256i a, __m256i b) { return _mm256_add_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_i16(__m256i a, __m256i b) { return _mm256_sub_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i multiply_i16(__m256i a, __m256i b) { return _mm256_mullo_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i squared_difference_i16(__m256i a, __m256i b) {
  return _mm256_mullo_epi16(_mm256_sub_epi16(a, b), _mm256_sub_epi16(a, b));
}
BCASTGEN_SIMD_AVX2 __m256i maximum_i16(__m256i a, __m256i b) { return _mm256_max_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i minimum_i16(__m256i a, __m256i b) { return _mm256_min_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_i16(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_i16(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_i16(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_i16(__m256i a, __m256i b) { return _mm256_cmpeq_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_i16(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi16(a, b), _mm256_set1_epi16(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_i16(__m256i a, __m256i b) { return _mm256_cmpgt_epi16(b, a); }
BCASTGEN_SIMD_AVX2 __m256i less_equal_i16(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi16(a, b), _mm256_set1_epi16(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_i16(__m256i a, __m256i b) { return _mm256_cmpgt_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i greater_equal_i16(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi16(b, a), _mm256_set1_epi16(-1));
}
BCASTGEN_SIMD_AVX2 __m256i neg_i16(__m256i x) { return _mm256_sub_epi16(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_i16(__m256i x) { return _mm256_abs_epi16(x); }
BCASTGEN_SIMD_AVX2 __m256i square_i16(__m256i x) { return _mm256_mullo_epi16(x, x); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_i16(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_i16_u16(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_i16_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi16(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- u16: __m256i, 16 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_u16(const std::uint16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 void store_u16(std::uint16_t* p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 void stream_u16(std::uint16_t* p, __m256i v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 __m256i splat_u16(std::uint16_t x) { return _mm256_set1_epi16(static_cast<short>(x)); }
BCASTGEN_SIMD_AVX2 __m256i select_u16(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_u16(const bool* p) {
  return _mm256_cmpgt_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                            _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_u16(bool x) { return _mm256_set1_epi16(static_cast<short>(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_u16(bool* p, __m256i m) {
  _mm_storeu_si128(
      reinterpret_cast<__m128i*>(p),
      _mm_and_si128(_mm_packs_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1)), _mm_set1_epi8(1)));
}
BCASTGEN_SIMD_AVX2 __m256i add_u16(__m256i a, __m256i b) { return _mm256_add_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_u16(__m256i a, __m256i b) { return _mm256_sub_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i multiply_u16(__m256i a, __m256i b) { return _mm256_mullo_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i squared_difference_u16(__m256i a, __m256i b) {
  return _mm256_mullo_epi16(_mm256_sub_epi16(a, b), _mm256_sub_epi16(a, b));
}
BCASTGEN_SIMD_AVX2 __m256i maximum_u16(__m256i a, __m256i b) { return _mm256_max_epu16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i minimum_u16(__m256i a, __m256i b) { return _mm256_min_epu16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_u16(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_u16(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_u16(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_u16(__m256i a, __m256i b) { return _mm256_cmpeq_epi16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_u16(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi16(a, b), _mm256_set1_epi16(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_u16(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(a, b), a), _mm256_set1_epi16(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_equal_u16(__m256i a, __m256i b) {
  return _mm256_cmpeq_epi16(_mm256_min_epu16(a, b), a);
}
BCASTGEN_SIMD_AVX2 __m256i greater_u16(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_min_epu16(a, b), a), _mm256_set1_epi16(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_equal_u16(__m256i a, __m256i b) {
  return _mm256_cmpeq_epi16(_mm256_max_epu16(a, b), a);
}
BCASTGEN_SIMD_AVX2 __m256i neg_u16(__m256i x) { return _mm256_sub_epi16(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_u16(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i square_u16(__m256i x) { return _mm256_mullo_epi16(x, x); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_u16(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_u16_i16(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_u16_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi16(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- i32: __m256i, 8 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_i32(const std::int32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 __m256i load_tail_i32(const std::int32_t* p, __m256i t) {
  return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), t);
}
BCASTGEN_SIMD_AVX2 void store_i32(std::int32_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 void store_tail_i32(std::int32_t* p, __m256i t, __m256i v) {
  _mm256_maskstore_epi32(reinterpret_cast<int*>(p), t, v);
}
template <int N>
BCASTGEN_SIMD_AVX2 void store_first_i32(std::int32_t* p, __m256i v) {
  detail::store_first_bytes<4 * N>(p, v);
}
BCASTGEN_SIMD_AVX2 void stream_i32(std::int32_t* p, __m256i v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 __m256i splat_i32(std::int32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
BCASTGEN_SIMD_AVX2 __m256i permute_i32(__m256i v, __m256i i) { return _mm256_permutevar8x32_epi32(v, i); }
BCASTGEN_SIMD_AVX2 __m256i select_i32(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_i32(const bool* p) {
  return _mm256_cmpgt_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))),
                            _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_i32(bool x) { return _mm256_set1_epi32(x ? -1 : 0); }
BCASTGEN_SIMD_AVX2 void store_bool_i32(bool* p, __m256i m) {
  const std::uint64_t bits =
      _pdep_u64(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m))), 0x0101010101010101ull);
  std::memcpy(p, &bits, 8);
}
BCASTGEN_SIMD_AVX2 void store_bool4_i32(bool* p, __m256i a, __m256i b, __m256i c, __m256i d) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::bools_of_4(a, b, c, d));
}
BCASTGEN_SIMD_AVX2 __m256i add_i32(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_i32(__m256i a, __m256i b) { return _mm256_sub_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i multiply_i32(__m256i a, __m256i b) { return _mm256_mullo_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i squared_difference_i32(__m256i a, __m256i b) {
  return _mm256_mullo_epi32(_mm256_sub_epi32(a, b), _mm256_sub_epi32(a, b));
}
BCASTGEN_SIMD_AVX2 __m256i maximum_i32(__m256i a, __m256i b) { return _mm256_max_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i minimum_i32(__m256i a, __m256i b) { return _mm256_min_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_i32(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_i32(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_i32(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_i32(__m256i a, __m256i b) { return _mm256_cmpeq_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_i32(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(a, b), _mm256_set1_epi32(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_i32(__m256i a, __m256i b) { return _mm256_cmpgt_epi32(b, a); }
BCASTGEN_SIMD_AVX2 __m256i less_equal_i32(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi32(a, b), _mm256_set1_epi32(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_i32(__m256i a, __m256i b) { return _mm256_cmpgt_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i greater_equal_i32(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi32(b, a), _mm256_set1_epi32(-1));
}
BCASTGEN_SIMD_AVX2 __m256i bitwise_left_shift_i32(__m256i a, __m256i b) { return _mm256_sllv_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_right_shift_i32(__m256i a, __m256i b) { return _mm256_srav_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i neg_i32(__m256i x) { return _mm256_sub_epi32(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_i32(__m256i x) { return _mm256_abs_epi32(x); }
BCASTGEN_SIMD_AVX2 __m256i square_i32(__m256i x) { return _mm256_mullo_epi32(x, x); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_i32(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256 cast_i32_f32(__m256i x) { return _mm256_cvtepi32_ps(x); }
BCASTGEN_SIMD_AVX2 __m256i cast_i32_u32(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_i32_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- u32: __m256i, 8 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_u32(const std::uint32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 __m256i load_tail_u32(const std::uint32_t* p, __m256i t) {
  return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), t);
}
BCASTGEN_SIMD_AVX2 void store_u32(std::uint32_t* p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 void store_tail_u32(std::uint32_t* p, __m256i t, __m256i v) {
  _mm256_maskstore_epi32(reinterpret_cast<int*>(p), t, v);
}
template <int N>
BCASTGEN_SIMD_AVX2 void store_first_u32(std::uint32_t* p, __m256i v) {
  detail::store_first_bytes<4 * N>(p, v);
}
BCASTGEN_SIMD_AVX2 void stream_u32(std::uint32_t* p, __m256i v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 __m256i splat_u32(std::uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
BCASTGEN_SIMD_AVX2 __m256i permute_u32(__m256i v, __m256i i) { return _mm256_permutevar8x32_epi32(v, i); }
BCASTGEN_SIMD_AVX2 __m256i select_u32(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_u32(const bool* p) {
  return _mm256_cmpgt_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))),
                            _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_u32(bool x) { return _mm256_set1_epi32(x ? -1 : 0); }
BCASTGEN_SIMD_AVX2 void store_bool_u32(bool* p, __m256i m) {
  const std::uint64_t bits =
      _pdep_u64(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m))), 0x0101010101010101ull);
  std::memcpy(p, &bits, 8);
}
BCASTGEN_SIMD_AVX2 void store_bool4_u32(bool* p, __m256i a, __m256i b, __m256i c, __m256i d) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::bools_of_4(a, b, c, d));
}
BCASTGEN_SIMD_AVX2 __m256i add_u32(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_u32(__m256i a, __m256i b) { return _mm256_sub_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i multiply_u32(__m256i a, __m256i b) { return _mm256_mullo_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i squared_difference_u32(__m256i a, __m256i b) {
  return _mm256_mullo_epi32(_mm256_sub_epi32(a, b), _mm256_sub_epi32(a, b));
}
BCASTGEN_SIMD_AVX2 __m256i maximum_u32(__m256i a, __m256i b) { return _mm256_max_epu32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i minimum_u32(__m256i a, __m256i b) { return _mm256_min_epu32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_u32(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_u32(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_u32(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_u32(__m256i a, __m256i b) { return _mm256_cmpeq_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_u32(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(a, b), _mm256_set1_epi32(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_u32(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(a, b), a), _mm256_set1_epi32(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_equal_u32(__m256i a, __m256i b) {
  return _mm256_cmpeq_epi32(_mm256_min_epu32(a, b), a);
}
BCASTGEN_SIMD_AVX2 __m256i greater_u32(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(a, b), a), _mm256_set1_epi32(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_equal_u32(__m256i a, __m256i b) {
  return _mm256_cmpeq_epi32(_mm256_max_epu32(a, b), a);
}
BCASTGEN_SIMD_AVX2 __m256i bitwise_left_shift_u32(__m256i a, __m256i b) { return _mm256_sllv_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_right_shift_u32(__m256i a, __m256i b) { return _mm256_srlv_epi32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i neg_u32(__m256i x) { return _mm256_sub_epi32(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_u32(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i square_u32(__m256i x) { return _mm256_mullo_epi32(x, x); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_u32(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_u32_i32(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_u32_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi32(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- i64: __m256i, 4 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_i64(const std::int64_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 __m256i load_tail_i64(const std::int64_t* p, __m256i t) {
  return _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), t);
}
BCASTGEN_SIMD_AVX2 void store_i64(std::int64_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 void store_tail_i64(std::int64_t* p, __m256i t, __m256i v) {
  _mm256_maskstore_epi64(reinterpret_cast<long long*>(p), t, v);
}
template <int N>
BCASTGEN_SIMD_AVX2 void store_first_i64(std::int64_t* p, __m256i v) {
  detail::store_first_bytes<8 * N>(p, v);
}
BCASTGEN_SIMD_AVX2 void stream_i64(std::int64_t* p, __m256i v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 __m256i splat_i64(std::int64_t x) { return _mm256_set1_epi64x(static_cast<long long>(x)); }
BCASTGEN_SIMD_AVX2 __m256i permute_i64(__m256i v, __m256i i) { return _mm256_permutevar8x32_epi32(v, i); }
BCASTGEN_SIMD_AVX2 __m256i select_i64(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_i64(const bool* p) {
  return _mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_loadu_si32(p)), _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_i64(bool x) { return _mm256_set1_epi64x(x ? -1 : 0); }
BCASTGEN_SIMD_AVX2 void store_bool_i64(bool* p, __m256i m) {
  const std::uint32_t bits = _pdep_u32(static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(m))), 0x01010101u);
  std::memcpy(p, &bits, 4);
}
BCASTGEN_SIMD_AVX2 __m256i add_i64(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_i64(__m256i a, __m256i b) { return _mm256_sub_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_i64(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_i64(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_i64(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_i64(__m256i a, __m256i b) { return _mm256_cmpeq_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_i64(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi64(a, b), _mm256_set1_epi64x(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_i64(__m256i a, __m256i b) { return _mm256_cmpgt_epi64(b, a); }
BCASTGEN_SIMD_AVX2 __m256i less_equal_i64(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi64(a, b), _mm256_set1_epi64x(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_i64(__m256i a, __m256i b) { return _mm256_cmpgt_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i greater_equal_i64(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi64(b, a), _mm256_set1_epi64x(-1));
}
BCASTGEN_SIMD_AVX2 __m256i bitwise_left_shift_i64(__m256i a, __m256i b) { return _mm256_sllv_epi64(a, b); }
// No 64-bit arithmetic right shift, abs or multiply before AVX-512: those run lane by lane.
BCASTGEN_SIMD_AVX2 __m256i neg_i64(__m256i x) { return _mm256_sub_epi64(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_i64(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_i64_u64(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_i64_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi64(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- u64: __m256i, 4 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_u64(const std::uint64_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
BCASTGEN_SIMD_AVX2 __m256i load_tail_u64(const std::uint64_t* p, __m256i t) {
  return _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), t);
}
BCASTGEN_SIMD_AVX2 void store_u64(std::uint64_t* p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 void store_tail_u64(std::uint64_t* p, __m256i t, __m256i v) {
  _mm256_maskstore_epi64(reinterpret_cast<long long*>(p), t, v);
}
template <int N>
BCASTGEN_SIMD_AVX2 void store_first_u64(std::uint64_t* p, __m256i v) {
  detail::store_first_bytes<8 * N>(p, v);
}
BCASTGEN_SIMD_AVX2 void stream_u64(std::uint64_t* p, __m256i v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}
BCASTGEN_SIMD_AVX2 __m256i splat_u64(std::uint64_t x) { return _mm256_set1_epi64x(static_cast<long long>(x)); }
BCASTGEN_SIMD_AVX2 __m256i permute_u64(__m256i v, __m256i i) { return _mm256_permutevar8x32_epi32(v, i); }
BCASTGEN_SIMD_AVX2 __m256i select_u64(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_u64(const bool* p) {
  return _mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_loadu_si32(p)), _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_u64(bool x) { return _mm256_set1_epi64x(x ? -1 : 0); }
BCASTGEN_SIMD_AVX2 void store_bool_u64(bool* p, __m256i m) {
  const std::uint32_t bits = _pdep_u32(static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(m))), 0x01010101u);
  std::memcpy(p, &bits, 4);
}
BCASTGEN_SIMD_AVX2 __m256i add_u64(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i subtract_u64(__m256i a, __m256i b) { return _mm256_sub_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_u64(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_u64(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_u64(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_u64(__m256i a, __m256i b) { return _mm256_cmpeq_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_u64(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi64(a, b), _mm256_set1_epi64x(-1));
}
BCASTGEN_SIMD_AVX2 __m256i bitwise_left_shift_u64(__m256i a, __m256i b) { return _mm256_sllv_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_right_shift_u64(__m256i a, __m256i b) { return _mm256_srlv_epi64(a, b); }
BCASTGEN_SIMD_AVX2 __m256i neg_u64(__m256i x) { return _mm256_sub_epi64(_mm256_setzero_si256(), x); }
BCASTGEN_SIMD_AVX2 __m256i abs_u64(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i bitwise_not_u64(__m256i x) { return _mm256_xor_si256(x, _mm256_set1_epi32(-1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_u64_i64(__m256i x) { return x; }
BCASTGEN_SIMD_AVX2 __m256i cast_u64_bool(__m256i x) {
  return _mm256_xor_si256(_mm256_cmpeq_epi64(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

// --- bool: __m256i, 32 lanes ---
BCASTGEN_SIMD_AVX2 __m256i load_bool(const bool* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
BCASTGEN_SIMD_AVX2 void store_bool(bool* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 void stream_bool(bool* p, __m256i v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
BCASTGEN_SIMD_AVX2 __m256i splat_bool(bool x) { return _mm256_set1_epi8(static_cast<char>(x)); }
BCASTGEN_SIMD_AVX2 __m256i select_bool(__m256i c, __m256i x, __m256i y) { return _mm256_blendv_epi8(y, x, c); }
BCASTGEN_SIMD_AVX2 __m256i load_cmp_bool(const bool* p) {
  return _mm256_cmpgt_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_setzero_si256());
}
BCASTGEN_SIMD_AVX2 __m256i splat_cmp_bool(bool x) { return _mm256_set1_epi8(static_cast<char>(x ? -1 : 0)); }
BCASTGEN_SIMD_AVX2 void store_bool_bool(bool* p, __m256i m) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_and_si256(m, _mm256_set1_epi8(1)));
}
BCASTGEN_SIMD_AVX2 __m256i logical_and_bool(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i logical_or_bool(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i logical_xor_bool(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_and_bool(__m256i a, __m256i b) { return _mm256_and_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_or_bool(__m256i a, __m256i b) { return _mm256_or_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bitwise_xor_bool(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
BCASTGEN_SIMD_AVX2 __m256i equal_bool(__m256i a, __m256i b) { return _mm256_cmpeq_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i not_equal_bool(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(a, b), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i less_bool(__m256i a, __m256i b) { return _mm256_cmpgt_epi8(b, a); }
BCASTGEN_SIMD_AVX2 __m256i less_equal_bool(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi8(a, b), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256i greater_bool(__m256i a, __m256i b) { return _mm256_cmpgt_epi8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i greater_equal_bool(__m256i a, __m256i b) {
  return _mm256_xor_si256(_mm256_cmpgt_epi8(b, a), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX2 __m256 cast_bool_f32(__m256 x) { return _mm256_and_ps(x, _mm256_set1_ps(1.0f)); }
BCASTGEN_SIMD_AVX2 __m256d cast_bool_f64(__m256d x) { return _mm256_and_pd(x, _mm256_set1_pd(1.0)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_i32(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi32(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_u32(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi32(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_i64(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi64x(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_u64(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi64x(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_i16(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi16(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_u16(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi16(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_i8(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi8(1)); }
BCASTGEN_SIMD_AVX2 __m256i cast_bool_u8(__m256i x) { return _mm256_and_si256(x, _mm256_set1_epi8(1)); }

// --- Casts between widths ---
// A kernel that mixes element widths has the lanes of its narrowest type,
// and a node of a type r times wider takes r registers (its parts). A
// widening cast makes part S of its result from segment S of one register
// (the template argument); a narrowing cast joins r registers, in order.
// Each gives ops::cast's bits: integers extend by their source's sign and
// truncate modulo 2^bits; 8- and 16-bit integers and i32 into f64 convert
// exactly (u32 too, through x - 2^31); f32 <-> f64 round as the scalar
// conversion does; f32 -> i8, u8, i16, u16 is cvtt to i32 (INT32_MIN out of
// range), then truncated, and f64 -> i32 is cvtt.
namespace detail {
// Bytes Bytes * S .. of x at the low end of a 128-bit register.
template <int Bytes, int S>
BCASTGEN_SIMD_AVX2 __m128i segment(__m256i x) {
  constexpr int kAt = Bytes * S;
  static_assert(kAt >= 0 && kAt + Bytes <= 32, "a segment of the register");
  __m128i half;
  if constexpr (kAt >= 16) {
    half = _mm256_extracti128_si256(x, 1);
  } else {
    half = _mm256_castsi256_si128(x);
  }
  if constexpr (kAt % 16 == 0) {
    return half;
  } else {
    return _mm_srli_si128(half, kAt % 16);
  }
}
// The low half of every lane of a, then of b: masked to the half so that
// the unsigned saturating pack keeps it, then the pack's 64-bit blocks
// (a0 b0 a1 b1, per 128-bit lane) put back in order (a0 a1 b0 b1).
BCASTGEN_SIMD_AVX2 __m256i truncate_32_16(__m256i a, __m256i b) {
  const __m256i low = _mm256_set1_epi32(0xffff);
  return _mm256_permute4x64_epi64(_mm256_packus_epi32(_mm256_and_si256(a, low), _mm256_and_si256(b, low)), 0xD8);
}
BCASTGEN_SIMD_AVX2 __m256i truncate_16_8(__m256i a, __m256i b) {
  const __m256i low = _mm256_set1_epi16(0xff);
  return _mm256_permute4x64_epi64(_mm256_packus_epi16(_mm256_and_si256(a, low), _mm256_and_si256(b, low)), 0xD8);
}
// The even 32-bit words (the low halves of the 64-bit lanes) of a, then of b.
BCASTGEN_SIMD_AVX2 __m256i truncate_64_32(__m256i a, __m256i b) {
  const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  return _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(a, even), _mm256_permutevar8x32_epi32(b, even), 0x20);
}
}  // namespace detail
// Widening: part S of the result, from segment S of x.
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i8_i16(__m256i x) { return _mm256_cvtepi8_epi16(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i8_u16(__m256i x) { return _mm256_cvtepi8_epi16(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i8_i32(__m256i x) { return _mm256_cvtepi8_epi32(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i8_u32(__m256i x) { return _mm256_cvtepi8_epi32(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i8_i64(__m256i x) { return _mm256_cvtepi8_epi64(detail::segment<4, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i8_u64(__m256i x) { return _mm256_cvtepi8_epi64(detail::segment<4, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u8_i16(__m256i x) { return _mm256_cvtepu8_epi16(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u8_u16(__m256i x) { return _mm256_cvtepu8_epi16(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u8_i32(__m256i x) { return _mm256_cvtepu8_epi32(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u8_u32(__m256i x) { return _mm256_cvtepu8_epi32(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u8_i64(__m256i x) { return _mm256_cvtepu8_epi64(detail::segment<4, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u8_u64(__m256i x) { return _mm256_cvtepu8_epi64(detail::segment<4, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i16_i32(__m256i x) { return _mm256_cvtepi16_epi32(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i16_u32(__m256i x) { return _mm256_cvtepi16_epi32(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i16_i64(__m256i x) { return _mm256_cvtepi16_epi64(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i16_u64(__m256i x) { return _mm256_cvtepi16_epi64(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u16_i32(__m256i x) { return _mm256_cvtepu16_epi32(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u16_u32(__m256i x) { return _mm256_cvtepu16_epi32(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u16_i64(__m256i x) { return _mm256_cvtepu16_epi64(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u16_u64(__m256i x) { return _mm256_cvtepu16_epi64(detail::segment<8, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i32_i64(__m256i x) { return _mm256_cvtepi32_epi64(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_i32_u64(__m256i x) { return _mm256_cvtepi32_epi64(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u32_i64(__m256i x) { return _mm256_cvtepu32_epi64(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256i cast_u32_u64(__m256i x) { return _mm256_cvtepu32_epi64(detail::segment<16, S>(x)); }
template <int S>
BCASTGEN_SIMD_AVX2 __m256 cast_i8_f32(__m256i x) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(detail::segment<8, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256 cast_u8_f32(__m256i x) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(detail::segment<8, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256 cast_i16_f32(__m256i x) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(detail::segment<16, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256 cast_u16_f32(__m256i x) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(detail::segment<16, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_i8_f64(__m256i x) {
  return _mm256_cvtepi32_pd(_mm_cvtepi8_epi32(detail::segment<4, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_u8_f64(__m256i x) {
  return _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(detail::segment<4, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_i16_f64(__m256i x) {
  return _mm256_cvtepi32_pd(_mm_cvtepi16_epi32(detail::segment<8, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_u16_f64(__m256i x) {
  return _mm256_cvtepi32_pd(_mm_cvtepu16_epi32(detail::segment<8, S>(x)));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_i32_f64(__m256i x) { return _mm256_cvtepi32_pd(detail::segment<16, S>(x)); }
// u32 -> f64: x - 2^31 as an i32, converted and 2^31 added back (both exact).
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_u32_f64(__m256i x) {
  return _mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128(detail::segment<16, S>(x), _mm_set1_epi32(INT32_MIN))),
                       _mm256_set1_pd(2147483648.0));
}
template <int S>
BCASTGEN_SIMD_AVX2 __m256d cast_f32_f64(__m256 x) {
  return _mm256_cvtps_pd(_mm_castsi128_ps(detail::segment<16, S>(_mm256_castps_si256(x))));
}
// Narrowing: the result from r registers, in order.
BCASTGEN_SIMD_AVX2 __m256i cast_i16_i8(__m256i a, __m256i b) { return detail::truncate_16_8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_i16_u8(__m256i a, __m256i b) { return detail::truncate_16_8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_u16_i8(__m256i a, __m256i b) { return detail::truncate_16_8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_u16_u8(__m256i a, __m256i b) { return detail::truncate_16_8(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_i32_i8(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_16_8(detail::truncate_32_16(a, b), detail::truncate_32_16(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_i32_u8(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_16_8(detail::truncate_32_16(a, b), detail::truncate_32_16(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_i32_i16(__m256i a, __m256i b) { return detail::truncate_32_16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_i32_u16(__m256i a, __m256i b) { return detail::truncate_32_16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_u32_i8(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_16_8(detail::truncate_32_16(a, b), detail::truncate_32_16(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_u32_u8(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_16_8(detail::truncate_32_16(a, b), detail::truncate_32_16(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_u32_i16(__m256i a, __m256i b) { return detail::truncate_32_16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_u32_u16(__m256i a, __m256i b) { return detail::truncate_32_16(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_i64_i16(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_32_16(detail::truncate_64_32(a, b), detail::truncate_64_32(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_i64_u16(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_32_16(detail::truncate_64_32(a, b), detail::truncate_64_32(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_i64_i32(__m256i a, __m256i b) { return detail::truncate_64_32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_i64_u32(__m256i a, __m256i b) { return detail::truncate_64_32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_u64_i16(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_32_16(detail::truncate_64_32(a, b), detail::truncate_64_32(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_u64_u16(__m256i a, __m256i b, __m256i c, __m256i d) {
  return detail::truncate_32_16(detail::truncate_64_32(a, b), detail::truncate_64_32(c, d));
}
BCASTGEN_SIMD_AVX2 __m256i cast_u64_i32(__m256i a, __m256i b) { return detail::truncate_64_32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_u64_u32(__m256i a, __m256i b) { return detail::truncate_64_32(a, b); }
BCASTGEN_SIMD_AVX2 __m256i cast_f32_i16(__m256 a, __m256 b) {
  return detail::truncate_32_16(_mm256_cvttps_epi32(a), _mm256_cvttps_epi32(b));
}
BCASTGEN_SIMD_AVX2 __m256i cast_f32_u16(__m256 a, __m256 b) {
  return detail::truncate_32_16(_mm256_cvttps_epi32(a), _mm256_cvttps_epi32(b));
}
BCASTGEN_SIMD_AVX2 __m256i cast_f32_i8(__m256 a, __m256 b, __m256 c, __m256 d) {
  return detail::truncate_16_8(detail::truncate_32_16(_mm256_cvttps_epi32(a), _mm256_cvttps_epi32(b)),
                                detail::truncate_32_16(_mm256_cvttps_epi32(c), _mm256_cvttps_epi32(d)));
}
BCASTGEN_SIMD_AVX2 __m256i cast_f32_u8(__m256 a, __m256 b, __m256 c, __m256 d) {
  return detail::truncate_16_8(detail::truncate_32_16(_mm256_cvttps_epi32(a), _mm256_cvttps_epi32(b)),
                                detail::truncate_32_16(_mm256_cvttps_epi32(c), _mm256_cvttps_epi32(d)));
}
BCASTGEN_SIMD_AVX2 __m256 cast_f64_f32(__m256d a, __m256d b) {
  return _mm256_set_m128(_mm256_cvtpd_ps(b), _mm256_cvtpd_ps(a));
}
BCASTGEN_SIMD_AVX2 __m256i cast_f64_i32(__m256d a, __m256d b) {
  return _mm256_set_m128i(_mm256_cvttpd_epi32(b), _mm256_cvttpd_epi32(a));
}

// --- rounding to integers, classification and sign (exact; ops.h) ---
// round is to nearest even (numpy.round); vroundps never raises, and keeps -0.
BCASTGEN_SIMD_AVX2 __m256 floor_f32(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256 ceil_f32(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256 trunc_f32(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256 round_f32(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256d floor_f64(__m256d x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256d ceil_f64(__m256d x) { return _mm256_round_pd(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256d trunc_f64(__m256d x) { return _mm256_round_pd(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
BCASTGEN_SIMD_AVX2 __m256d round_f64(__m256d x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
// Classification: a compare result. signbit is the sign bit itself (of -0
// and of a NaN too): an arithmetic shift, or for f64 a signed compare with 0.
BCASTGEN_SIMD_AVX2 __m256 isnan_f32(__m256 x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }
BCASTGEN_SIMD_AVX2 __m256 isinf_f32(__m256 x) {
  return _mm256_cmp_ps(abs_f32(x), _mm256_set1_ps(INFINITY), _CMP_EQ_OQ);
}
BCASTGEN_SIMD_AVX2 __m256 isfinite_f32(__m256 x) {
  return _mm256_cmp_ps(abs_f32(x), _mm256_set1_ps(INFINITY), _CMP_LT_OQ);
}
BCASTGEN_SIMD_AVX2 __m256 signbit_f32(__m256 x) {
  return _mm256_castsi256_ps(_mm256_srai_epi32(_mm256_castps_si256(x), 31));
}
BCASTGEN_SIMD_AVX2 __m256d isnan_f64(__m256d x) { return _mm256_cmp_pd(x, x, _CMP_UNORD_Q); }
BCASTGEN_SIMD_AVX2 __m256d isinf_f64(__m256d x) {
  return _mm256_cmp_pd(abs_f64(x), _mm256_set1_pd(INFINITY), _CMP_EQ_OQ);
}
BCASTGEN_SIMD_AVX2 __m256d isfinite_f64(__m256d x) {
  return _mm256_cmp_pd(abs_f64(x), _mm256_set1_pd(INFINITY), _CMP_LT_OQ);
}
BCASTGEN_SIMD_AVX2 __m256d signbit_f64(__m256d x) {
  return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_setzero_si256(), _mm256_castpd_si256(x)));
}
// sign: 1 or -1 by the compares, +0 for either zero, x itself for NaN.
BCASTGEN_SIMD_AVX2 __m256 sign_f32(__m256 x) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 ones = _mm256_or_ps(_mm256_and_ps(_mm256_cmp_ps(x, zero, _CMP_GT_OQ), _mm256_set1_ps(1.0f)),
                                   _mm256_and_ps(_mm256_cmp_ps(x, zero, _CMP_LT_OQ), _mm256_set1_ps(-1.0f)));
  return _mm256_blendv_ps(ones, x, isnan_f32(x));
}
BCASTGEN_SIMD_AVX2 __m256d sign_f64(__m256d x) {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d ones = _mm256_or_pd(_mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GT_OQ), _mm256_set1_pd(1.0)),
                                    _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_LT_OQ), _mm256_set1_pd(-1.0)));
  return _mm256_blendv_pd(ones, x, isnan_f64(x));
}

// --- math functions: the shared algorithms of math_f32.inl ---
namespace detail {
BCASTGEN_SIMD_AVX2 __m256 fmadd_f32(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
// vmaxps/vminps: a > b ? a : b (a < b ? a : b), so b where either is NaN.
BCASTGEN_SIMD_AVX2 __m256 max_or_b_f32(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
BCASTGEN_SIMD_AVX2 __m256 min_or_b_f32(__m256 a, __m256 b) { return _mm256_min_ps(a, b); }
BCASTGEN_SIMD_AVX2 __m256i bits_f32(__m256 x) { return _mm256_castps_si256(x); }
BCASTGEN_SIMD_AVX2 __m256 from_bits_f32(__m256i x) { return _mm256_castsi256_ps(x); }
template <int N>
BCASTGEN_SIMD_AVX2 __m256i shift_left_i32(__m256i x) { return _mm256_slli_epi32(x, N); }
template <int N>
BCASTGEN_SIMD_AVX2 __m256i shift_right_i32(__m256i x) { return _mm256_srai_epi32(x, N); }
// table[j & 3] per lane (vpermilps reads the low 2 bits of each lane's j;
// callers pass j with higher bits set): the 4-entry table in both 128-bit
// halves. An in-lane permute, two per cycle on Zen 3 where vpermps is one.
BCASTGEN_SIMD_AVX2 __m256 lookup4_f32(const float* table, __m256i j) {
  return _mm256_permutevar_ps(_mm256_broadcast_ps(reinterpret_cast<const __m128*>(table)), j);
}
// table[j & 7] per lane (vpermps reads the low 3 bits; callers pass j with
// higher bits set): the table is one register.
BCASTGEN_SIMD_AVX2 __m256 lookup8_f32(const float* table, __m256i j) {
  return _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), j);
}
// table[j & 15]: a permute of each half of the table, and bit 3 of j
// (shifted to the sign, which vblendvps reads) picks between them.
BCASTGEN_SIMD_AVX2 __m256 lookup16_f32(const float* table, __m256i j) {
  return _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(table), j),
                          _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 8), j),
                          _mm256_castsi256_ps(_mm256_slli_epi32(j, 28)));
}
}  // namespace detail
using f32v = __m256;
using i32v = __m256i;
#define BCASTGEN_SIMD_FN BCASTGEN_SIMD_AVX2
#include "bcastgen/simd/math_f32.inl"
#define BCASTGEN_SIMD_PACK_ISA avx2
#define BCASTGEN_SIMD_PACK_WIDTH 2
#include "bcastgen/simd/math_pack.inl"
#undef BCASTGEN_SIMD_PACK_WIDTH
#define BCASTGEN_SIMD_PACK_WIDTH 4
#include "bcastgen/simd/math_pack.inl"
#undef BCASTGEN_SIMD_PACK_WIDTH
#undef BCASTGEN_SIMD_PACK_ISA
#undef BCASTGEN_SIMD_FN

// --- f16, bf16: __m256 of their f32 values, 8 lanes from 16 bytes ---
// F16C converts f16 (vcvtph2ps exactly; vcvtps2ph to nearest even, NaN to
// a quiet NaN with the top payload bits, subnormals kept). bf16 is the
// high half of an f32: a load shifts it up; a store rounds on the bits. Both
// stores round, so a kernel's last op may leave its result in f32 (the
// emitter uses its f32 form there); lanes already of the type are exact.
namespace detail {
// The bits of f32 lanes rounded to bf16 in their high halves, to nearest
// even: add 0x7FFF plus the lowest kept bit (a carry reaches the next
// binade or inf). Right for every lane but a NaN with a nonzero low half,
// which the carry could turn into inf or a zero.
BCASTGEN_SIMD_AVX2 __m256i bf16_round_add(__m256i b) {
  const __m256i low_kept = _mm256_and_si256(_mm256_srli_epi32(b, 16), _mm256_set1_epi32(1));
  return _mm256_add_epi32(b, _mm256_add_epi32(low_kept, _mm256_set1_epi32(0x7FFF)));
}
// The same for every lane: a NaN is not rounded but quieted, its payload cut.
BCASTGEN_SIMD_AVX2 __m256i bf16_rounded_bits(__m256 x) {
  const __m256i b = _mm256_castps_si256(x);
  const __m256i nan = _mm256_or_si256(b, _mm256_set1_epi32(0x00400000));
  return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(bf16_round_add(b)), _mm256_castsi256_ps(nan),
                                              _mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
}
// The high halves of 8 lanes as 8 bf16: vpshufb gathers each 128-bit
// lane's four into its low 8 bytes and vpermq joins the two (two shuffles,
// where a shift, an extract and a pack were three).
BCASTGEN_SIMD_AVX2 __m128i high_halves(__m256i bits) {
  const __m256i pick = _mm256_setr_epi8(2, 3, 6, 7, 10, 11, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1,  //
                                        2, 3, 6, 7, 10, 11, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1);
  return _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_shuffle_epi8(bits, pick), 0x08));
}
// 8 f32 lanes to 8 bf16, rounded.
BCASTGEN_SIMD_AVX2 __m128i narrow_bf16(__m256 x) { return high_halves(bf16_rounded_bits(x)); }
BCASTGEN_SIMD_AVX2 __m128i narrow_f16(__m256 x) { return _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT); }
BCASTGEN_SIMD_AVX2 __m128i load_halves(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
}  // namespace detail
// (The stores write through their typed pointers: bcastgen inspect counts
// the elements a store writes by the pointer's element type.)
BCASTGEN_SIMD_AVX2 __m256 load_f16(const f16* p) { return _mm256_cvtph_ps(detail::load_halves(p)); }
BCASTGEN_SIMD_AVX2 void store_f16(f16* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), detail::narrow_f16(v));
}
BCASTGEN_SIMD_AVX2 void stream_f16(f16* p, __m256 v) {
  _mm_stream_si128(reinterpret_cast<__m128i*>(p), detail::narrow_f16(v));
}
BCASTGEN_SIMD_AVX2 __m256 splat_f16(f16 x) { return _mm256_set1_ps(to_float(x)); }
// vbroadcasti128 (a load, no shuffle port) puts the 8 halves in both 128-bit
// lanes; one vpshufb moves halves 0-3 (low lane) and 4-7 (high lane) to the
// high 16 bits of the f32 lanes and zeroes the low ones.
BCASTGEN_SIMD_AVX2 __m256 load_bf16(const bf16* p) {
  const __m256i to_high_halves = _mm256_setr_epi8(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7,  //
                                                  -1, -1, 8, 9, -1, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, 15);
  return _mm256_castsi256_ps(
      _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(detail::load_halves(p)), to_high_halves));
}
BCASTGEN_SIMD_AVX2 void store_bf16(bf16* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), detail::narrow_bf16(v));
}
BCASTGEN_SIMD_AVX2 void stream_bf16(bf16* p, __m256 v) {
  _mm_stream_si128(reinterpret_cast<__m128i*>(p), detail::narrow_bf16(v));
}
BCASTGEN_SIMD_AVX2 __m256 splat_bf16(bf16 x) { return _mm256_set1_ps(to_float(x)); }
// Lanes whose NaNs are already bf16 NaNs (low halves zero: the plan's
// root_nans_exact) round by the add alone, three instructions fewer.
BCASTGEN_SIMD_AVX2 void store_nan_exact_bf16(bf16* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), detail::high_halves(detail::bf16_round_add(_mm256_castps_si256(v))));
}
BCASTGEN_SIMD_AVX2 void stream_nan_exact_bf16(bf16* p, __m256 v) {
  _mm_stream_si128(reinterpret_cast<__m128i*>(p), detail::high_halves(detail::bf16_round_add(_mm256_castps_si256(v))));
}
// Lanes that hold bf16 values (the plan's root_in_type: a max, a sign
// change or a select of them) are stored by their high halves, unrounded.
BCASTGEN_SIMD_AVX2 void store_exact_bf16(bf16* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), detail::high_halves(_mm256_castps_si256(v)));
}
BCASTGEN_SIMD_AVX2 void stream_exact_bf16(bf16* p, __m256 v) {
  _mm_stream_si128(reinterpret_cast<__m128i*>(p), detail::high_halves(_mm256_castps_si256(v)));
}
// A compare result of 16-bit float lanes is f32's.
BCASTGEN_SIMD_AVX2 void store_bool_f16(bool* p, __m256 m) {
  const std::uint64_t bits = _pdep_u64(static_cast<unsigned>(_mm256_movemask_ps(m)), 0x0101010101010101ull);
  std::memcpy(p, &bits, 8);
}
BCASTGEN_SIMD_AVX2 void store_bool_bf16(bool* p, __m256 m) {
  const std::uint64_t bits = _pdep_u64(static_cast<unsigned>(_mm256_movemask_ps(m)), 0x0101010101010101ull);
  std::memcpy(p, &bits, 8);
}
BCASTGEN_SIMD_AVX2 void store_bool4_f16(bool* p, __m256 a, __m256 b, __m256 c, __m256 d) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::bools_of_4(a, b, c, d));
}
BCASTGEN_SIMD_AVX2 void store_bool4_bf16(bool* p, __m256 a, __m256 b, __m256 c, __m256 d) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::bools_of_4(a, b, c, d));
}
namespace detail {
BCASTGEN_SIMD_AVX2 __m256 nearest_f16(__m256 x) { return _mm256_cvtph_ps(narrow_f16(x)); }
BCASTGEN_SIMD_AVX2 __m256 nearest_bf16(__m256 x) {
  return _mm256_and_ps(_mm256_castsi256_ps(bf16_rounded_bits(x)),
                       _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0xFFFF0000u))));
}
BCASTGEN_SIMD_AVX2 __m256 nearest_bf16_nan_exact(__m256 x) {
  return _mm256_and_ps(_mm256_castsi256_ps(bf16_round_add(_mm256_castps_si256(x))),
                       _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0xFFFF0000u))));
}
}  // namespace detail
using f64v = __m256d;
using i8v = __m256i;  // the integer register of every width
using u8v = __m256i;
using i16v = __m256i;
using u16v = __m256i;
using cmp32v = __m256;
#define BCASTGEN_SIMD_FN BCASTGEN_SIMD_AVX2
#include "bcastgen/simd/half_f32.inl"
#undef BCASTGEN_SIMD_FN

}  // namespace bcastgen::simd::avx2

#undef BCASTGEN_SIMD_AVX2
