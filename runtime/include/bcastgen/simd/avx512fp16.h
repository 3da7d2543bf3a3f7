// The AVX512-FP16 vector forms: native f16 lanes (__m512h, 32 per
// register), for the `avx512fp16` row of the ISA table. Every other dtype
// keeps avx512bf16's forms, AVX-512's but for bf16's stores (this ISA's
// vocabulary row has `base: avx512bf16`), so this header adds only f16's,
// named _ph beside AVX-512's _f16 (which hold f16 values as f32 lanes).
//
// What is native and why it gives bcastgen::ops' bits (ops.h: each f16 op
// is the f32 op rounded once to f16):
// - + - * / and sqrt are correctly rounded in f16, and so is the f32 result
//   rounded to f16: f32's 24 bits are at least 2 x 11 + 2, so the double
//   rounding is innocuous (tests/half_test.cpp checks it against MPFR).
//   square is x * x and reciprocal 1 / x, each one such operation.
// - max/min, comparisons, the classifications, copysign, neg, abs and the
//   roundings to integers are exact: the same on f16 values as on their
//   f32 values.
// Everything else (squared_difference, sign's NaN rule aside, and the math
// functions) widens each half to f32 (vcvtph2ps, exact), runs the f32 form
// and rounds back once (vcvtps2ph, to nearest even), as AVX-512's f16 forms
// do. An f16 signaling NaN reads as quiet, as F16C does.
//
// GCC 12 declares these intrinsics under a target attribute; Clang 14 only
// when the whole file is compiled with -mavx512fp16. The condition below is
// the row's `compiler` field (cpu.h), under which generated code includes
// this header and compiles the variant.
#pragma once

#include "bcastgen/simd/avx512bf16.h"

#if (!defined(__clang__) && __GNUC__ >= 12) || defined(__AVX512FP16__)

#define BCASTGEN_SIMD_AVX512FP16 __attribute__((always_inline, target(BCASTGEN_TARGET_AVX512FP16))) inline

namespace bcastgen::simd::avx512fp16 {

using namespace bcastgen::simd::avx512bf16;  // every dtype but f16: AVX-512's forms, bf16's stores avx512bf16's

namespace detail {
BCASTGEN_SIMD_AVX512FP16 __m512i bits(__m512h x) { return _mm512_castph_si512(x); }
BCASTGEN_SIMD_AVX512FP16 __m512h from_bits(__m512i x) { return _mm512_castsi512_ph(x); }
BCASTGEN_SIMD_AVX512FP16 __m512h splat_bits(std::uint16_t b) {
  return from_bits(_mm512_set1_epi16(static_cast<short>(b)));
}
// Lanes 0-15 and 16-31 as f32 (exact), and two f32 halves rounded back to
// one register of f16 (to nearest even): AVX-512's conversions and halves.
BCASTGEN_SIMD_AVX512FP16 __m512 low_f32(__m512h x) {
  return avx512::detail::widen_f16(avx512::detail::half<0>(bits(x)));
}
BCASTGEN_SIMD_AVX512FP16 __m512 high_f32(__m512h x) {
  return avx512::detail::widen_f16(avx512::detail::half<1>(bits(x)));
}
BCASTGEN_SIMD_AVX512FP16 __m512h rounded(__m512 low, __m512 high) {
  return from_bits(avx512::detail::join(avx512::detail::narrow_f16(low), avx512::detail::narrow_f16(high)));
}
}  // namespace detail

// --- memory, splat, select, bools: 32 lanes of 2 bytes ---
BCASTGEN_SIMD_AVX512FP16 __m512h load_ph(const f16* p) { return _mm512_loadu_ph(p); }
BCASTGEN_SIMD_AVX512FP16 __m512h load_tail_ph(const f16* p, __mmask32 t) {
  return detail::from_bits(_mm512_maskz_loadu_epi16(t, p));
}
BCASTGEN_SIMD_AVX512FP16 void store_ph(f16* p, __m512h v) { _mm512_storeu_ph(p, v); }
BCASTGEN_SIMD_AVX512FP16 void store_tail_ph(f16* p, __mmask32 t, __m512h v) {
  _mm512_mask_storeu_epi16(p, t, detail::bits(v));
}
BCASTGEN_SIMD_AVX512FP16 void stream_ph(f16* p, __m512h v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), detail::bits(v));
}
BCASTGEN_SIMD_AVX512FP16 __m512h splat_ph(f16 x) { return detail::splat_bits(x.bits); }
BCASTGEN_SIMD_AVX512FP16 __m512h select_ph(__mmask32 c, __m512h x, __m512h y) { return _mm512_mask_blend_ph(c, y, x); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 load_cmp_ph(const bool* p) {
  return _mm256_test_epi8_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512FP16 __mmask32 load_cmp_tail_ph(const bool* p, __mmask32 t) {
  return _mm256_mask_test_epi8_mask(t, _mm256_maskz_loadu_epi8(t, p), _mm256_set1_epi8(-1));
}
BCASTGEN_SIMD_AVX512FP16 __mmask32 splat_cmp_ph(bool x) { return x ? 0xFFFFFFFFu : 0u; }
BCASTGEN_SIMD_AVX512FP16 void store_bool_ph(bool* p, __mmask32 m) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_maskz_set1_epi8(m, 1));
}
BCASTGEN_SIMD_AVX512FP16 void store_bool_tail_ph(bool* p, __mmask32 t, __mmask32 m) {
  _mm256_mask_storeu_epi8(p, t, _mm256_maskz_set1_epi8(m, 1));
}

// --- ops ---
BCASTGEN_SIMD_AVX512FP16 __m512h add_ph(__m512h a, __m512h b) { return _mm512_add_ph(a, b); }
BCASTGEN_SIMD_AVX512FP16 __m512h subtract_ph(__m512h a, __m512h b) { return _mm512_sub_ph(a, b); }
BCASTGEN_SIMD_AVX512FP16 __m512h multiply_ph(__m512h a, __m512h b) { return _mm512_mul_ph(a, b); }
BCASTGEN_SIMD_AVX512FP16 __m512h divide_ph(__m512h a, __m512h b) { return _mm512_div_ph(a, b); }
// As maximum_f32: vmaxph returns its second operand where either is NaN
// and for ±0 pairs, as vmaxps does; a NaN in a alone keeps a.
BCASTGEN_SIMD_AVX512FP16 __m512h maximum_ph(__m512h a, __m512h b) {
  return _mm512_mask_max_ph(a, _mm512_cmp_ph_mask(a, a, _CMP_ORD_Q), a, b);
}
BCASTGEN_SIMD_AVX512FP16 __m512h minimum_ph(__m512h a, __m512h b) {
  return _mm512_mask_min_ph(a, _mm512_cmp_ph_mask(a, a, _CMP_ORD_Q), a, b);
}
// With a literal operand, as maximum_number_f32 and maximum_zero_f32.
BCASTGEN_SIMD_AVX512FP16 __m512h maximum_number_ph(__m512h n, __m512h x) {
  return _mm512_maskz_max_ph(0xFFFFFFFFu, n, x);
}
BCASTGEN_SIMD_AVX512FP16 __m512h minimum_number_ph(__m512h n, __m512h x) {
  return _mm512_maskz_min_ph(0xFFFFFFFFu, n, x);
}
BCASTGEN_SIMD_AVX512FP16 __m512h maximum_zero_ph(__m512h x) {
  return _mm512_mask_blend_ph(_mm512_cmp_ph_mask(x, _mm512_setzero_ph(), _CMP_NLE_UQ), _mm512_setzero_ph(), x);
}
BCASTGEN_SIMD_AVX512FP16 __m512h minimum_zero_ph(__m512h x) {
  return _mm512_mask_blend_ph(_mm512_cmp_ph_mask(x, _mm512_setzero_ph(), _CMP_NGE_UQ), _mm512_setzero_ph(), x);
}
// One rounding of the f32 (a - b)^2, as ops::squared_difference.
BCASTGEN_SIMD_AVX512FP16 __m512h squared_difference_ph(__m512h a, __m512h b) {
  return detail::rounded(squared_difference_f32(detail::low_f32(a), detail::low_f32(b)),
                         squared_difference_f32(detail::high_f32(a), detail::high_f32(b)));
}
BCASTGEN_SIMD_AVX512FP16 __mmask32 equal_ph(__m512h a, __m512h b) { return _mm512_cmp_ph_mask(a, b, _CMP_EQ_OQ); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 not_equal_ph(__m512h a, __m512h b) { return _mm512_cmp_ph_mask(a, b, _CMP_NEQ_UQ); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 less_ph(__m512h a, __m512h b) { return _mm512_cmp_ph_mask(a, b, _CMP_LT_OQ); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 less_equal_ph(__m512h a, __m512h b) { return _mm512_cmp_ph_mask(a, b, _CMP_LE_OQ); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 greater_ph(__m512h a, __m512h b) { return _mm512_cmp_ph_mask(a, b, _CMP_GT_OQ); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 greater_equal_ph(__m512h a, __m512h b) {
  return _mm512_cmp_ph_mask(a, b, _CMP_GE_OQ);
}
// |a| with the sign bit of b: a bit select (vpternlog: b where the mask has a bit, else a).
BCASTGEN_SIMD_AVX512FP16 __m512h copysign_ph(__m512h a, __m512h b) {
  return detail::from_bits(
      _mm512_ternarylogic_epi32(_mm512_set1_epi16(static_cast<short>(0x8000)), detail::bits(b), detail::bits(a), 0xCA));
}

// --- unary ---
BCASTGEN_SIMD_AVX512FP16 __m512h neg_ph(__m512h x) {
  return detail::from_bits(_mm512_xor_si512(detail::bits(x), _mm512_set1_epi16(static_cast<short>(0x8000))));
}
BCASTGEN_SIMD_AVX512FP16 __m512h abs_ph(__m512h x) {
  return detail::from_bits(_mm512_and_si512(detail::bits(x), _mm512_set1_epi16(0x7FFF)));
}
BCASTGEN_SIMD_AVX512FP16 __m512h sqrt_ph(__m512h x) { return _mm512_sqrt_ph(x); }
BCASTGEN_SIMD_AVX512FP16 __m512h square_ph(__m512h x) { return _mm512_mul_ph(x, x); }
BCASTGEN_SIMD_AVX512FP16 __m512h reciprocal_ph(__m512h x) { return _mm512_div_ph(detail::splat_bits(0x3C00), x); }
BCASTGEN_SIMD_AVX512FP16 __m512h floor_ph(__m512h x) {
  return _mm512_roundscale_ph(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}
BCASTGEN_SIMD_AVX512FP16 __m512h ceil_ph(__m512h x) {
  return _mm512_roundscale_ph(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
}
BCASTGEN_SIMD_AVX512FP16 __m512h trunc_ph(__m512h x) {
  return _mm512_roundscale_ph(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}
BCASTGEN_SIMD_AVX512FP16 __m512h round_ph(__m512h x) {
  return _mm512_roundscale_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
BCASTGEN_SIMD_AVX512FP16 __mmask32 isnan_ph(__m512h x) { return _mm512_cmp_ph_mask(x, x, _CMP_UNORD_Q); }
// vfpclassph categories: 0x01 quiet NaN, 0x08 +inf, 0x10 -inf, 0x80 signaling NaN.
BCASTGEN_SIMD_AVX512FP16 __mmask32 isinf_ph(__m512h x) { return _mm512_fpclass_ph_mask(x, 0x18); }
BCASTGEN_SIMD_AVX512FP16 __mmask32 isfinite_ph(__m512h x) {
  return static_cast<__mmask32>(~_mm512_fpclass_ph_mask(x, 0x99));
}
BCASTGEN_SIMD_AVX512FP16 __mmask32 signbit_ph(__m512h x) { return _mm512_movepi16_mask(detail::bits(x)); }
// 1, -1, +0 for either zero, the NaN itself for NaN (as sign_f32).
BCASTGEN_SIMD_AVX512FP16 __m512h sign_ph(__m512h x) {
  const __m512h zero = _mm512_setzero_ph();
  __m512h r = _mm512_mask_blend_ph(_mm512_cmp_ph_mask(x, zero, _CMP_GT_OQ), zero, detail::splat_bits(0x3C00));
  r = _mm512_mask_blend_ph(_mm512_cmp_ph_mask(x, zero, _CMP_LT_OQ), r, detail::splat_bits(0xBC00));
  return _mm512_mask_blend_ph(isnan_ph(x), r, x);
}
// The math functions: f32 forms (math_f32.inl) on each half, rounded once.
#define BCASTGEN_SIMD_PH_FN BCASTGEN_SIMD_AVX512FP16
#define BCASTGEN_SIMD_PH_TYPE __m512h
#include "bcastgen/simd/half_native_math.inl"
#undef BCASTGEN_SIMD_PH_TYPE
#undef BCASTGEN_SIMD_PH_FN

// --- casts ---
// f16 -> f32 widens: part S of the result from lanes 16S to 16S+15.
template <int S>
BCASTGEN_SIMD_AVX512FP16 __m512 cast_ph_f32(__m512h x) {
  static_assert(S == 0 || S == 1, "an f16 register is two f32 registers");
  return S == 0 ? detail::low_f32(x) : detail::high_f32(x);
}
// f32 -> f16 joins two registers, each rounded once.
BCASTGEN_SIMD_AVX512FP16 __m512h cast_f32_ph(__m512 low, __m512 high) { return detail::rounded(low, high); }
// To bool is x != 0 (NaN gives true); from bool 0 or 1.
BCASTGEN_SIMD_AVX512FP16 __mmask32 cast_ph_bool(__m512h x) {
  return _mm512_cmp_ph_mask(x, _mm512_setzero_ph(), _CMP_NEQ_UQ);
}
BCASTGEN_SIMD_AVX512FP16 __m512h cast_bool_ph(__mmask32 m) {
  return _mm512_mask_blend_ph(m, _mm512_setzero_ph(), detail::splat_bits(0x3C00));
}

}  // namespace bcastgen::simd::avx512fp16

#undef BCASTGEN_SIMD_AVX512FP16

#endif  // the compiler declares the AVX512-FP16 intrinsics
