// One f32 math function over n inputs, as extern "C" SYM, built by
// same_bits.sh (its AVX2 lanes, the default, once per header version) and
// isa_model.sh (-DNEON: its NEON lanes, simd/neon.h under the model of
// model/neon/arm_neon.h; -DAVX512_MODEL: its AVX-512 lanes under
// model/avx512/immintrin.h; -DSCALAR: its scalar variant, the bits every ISA
// must give). n is a multiple of 16.
#if defined(NEON)
#include "bcastgen/simd/neon.h"

extern "C" void SYM(const float* x, float* y, long n) {
  for (long i = 0; i < n; i += 4) vst1q_f32(y + i, bcastgen::simd::neon::FN(vld1q_f32(x + i)));
}
#elif defined(AVX512_MODEL)
// Under model/avx512/ (its immintrin.h; avx512_model.h compiles avx512.h's
// functions for AVX2).
#include "avx512_model.h"
#include "bcastgen/simd/avx512.h"

extern "C" void SYM(const float* x, float* y, long n) {
  namespace simd = bcastgen::simd::avx512;
  for (long i = 0; i < n; i += 16) _mm512_storeu_ps(y + i, simd::FN(_mm512_loadu_ps(x + i)));
}
#elif defined(SCALAR)
#include "bcastgen/simd/scalar.h"

extern "C" void SYM(const float* x, float* y, long n) {
  for (long i = 0; i < n; ++i) y[i] = bcastgen::simd::scalar::FN(x[i]);
}
#else
#include "bcastgen/simd/avx2.h"

extern "C" __attribute__((target(BCASTGEN_TARGET_AVX2))) void SYM(const float* x, float* y, long n) {
  namespace simd = bcastgen::simd::avx2;
  for (long i = 0; i < n; i += 8) _mm256_storeu_ps(y + i, simd::FN(_mm256_loadu_ps(x + i)));
}
#endif
