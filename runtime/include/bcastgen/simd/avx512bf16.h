// The AVX512-BF16 vector forms, for the `avx512bf16` row of the ISA table:
// AVX-512 whose bf16 stores round with one vcvtneps2bf16. Every other form
// is AVX-512's (this ISA's vocabulary row lists bf16 as `partial`, with
// only its rounding stores), so this header adds only those, named _pbh
// (the intrinsics' suffix) beside AVX-512's _bf16.
//
// Why the bits are AVX-512's (simd/avx512.h, bf16_rounded_bits): Intel's
// definition of the instruction is the same integer rounding (add 0x7FFF
// plus the lowest kept bit; a NaN keeps its high half with the quiet bit
// set), but for one thing: it reads an f32 subnormal as a zero of its sign.
// A vfpclassps test finds such lanes, and a vector with one takes
// AVX-512's rounding instead, so a subnormal is kept, never flushed. Real
// data almost never has them; the test and its branch are three
// instructions per vector, about a third of a bf16 bias add's time on
// Zen 5 (docs/benchmarks.md, "16-bit floats").
#pragma once

#include "bcastgen/simd/avx512.h"

#define BCASTGEN_SIMD_AVX512BF16 __attribute__((always_inline, target(BCASTGEN_TARGET_AVX512BF16))) inline

namespace bcastgen::simd::avx512bf16 {

using namespace bcastgen::simd::avx512;  // every form but bf16's rounding stores: AVX-512's

namespace detail {
// 16 f32 lanes to 16 bf16, rounded to nearest even (AVX-512's bits).
BCASTGEN_SIMD_AVX512BF16 __m256i narrow_bf16(__m512 v) {
  constexpr int kSubnormal = 0x20;  // vfpclassps category: denormal
  if (_mm512_fpclass_ps_mask(v, kSubnormal) != 0) return avx512::detail::narrow_bf16(v);
  return reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(v));
}
// Two vectors to 32 bf16, a's then b's: one vcvtne2ps2bf16 (whose first
// operand fills the high half) and one test of both, unless either holds
// an f32 subnormal. A bf16 bias add ran about 17% faster with it than with
// two narrow_bf16 (Zen 5; docs/benchmarks.md, "16-bit floats").
BCASTGEN_SIMD_AVX512BF16 __m512i narrow_pair_bf16(__m512 a, __m512 b) {
  constexpr int kSubnormal = 0x20;
  if ((_mm512_fpclass_ps_mask(a, kSubnormal) | _mm512_fpclass_ps_mask(b, kSubnormal)) != 0) {
    // AVX-512's rounding of both, then word 2i + 1 of (a, b) to word i:
    // the high halves of a's lanes, then b's (vpermt2w).
    const __m512i odd_words = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29,
                                               27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(avx512::detail::bf16_rounded_bits(a), odd_words,
                                     avx512::detail::bf16_rounded_bits(b));
  }
  return reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(b, a));
}
}  // namespace detail

// (The stores write through their typed pointers: bcastgen inspect counts
// the elements a store writes by the pointer's element type.)
BCASTGEN_SIMD_AVX512BF16 void store_pbh(bf16* p, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), detail::narrow_bf16(v));
}
BCASTGEN_SIMD_AVX512BF16 void store_tail_pbh(bf16* p, __mmask16 t, __m512 v) {
  _mm256_mask_storeu_epi16(p, t, detail::narrow_bf16(v));
}
BCASTGEN_SIMD_AVX512BF16 void stream_pbh(bf16* p, __m512 v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), detail::narrow_bf16(v));
}
// a at p, b at p + 16.
BCASTGEN_SIMD_AVX512BF16 void store_pair_pbh(bf16* p, __m512 a, __m512 b) {
  _mm512_storeu_si512(reinterpret_cast<__m512i*>(p), detail::narrow_pair_bf16(a, b));
}
BCASTGEN_SIMD_AVX512BF16 void stream_pair_pbh(bf16* p, __m512 a, __m512 b) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), detail::narrow_pair_bf16(a, b));
}

}  // namespace bcastgen::simd::avx512bf16

#undef BCASTGEN_SIMD_AVX512BF16
