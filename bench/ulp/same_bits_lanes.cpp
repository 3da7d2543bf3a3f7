// One f32 math function over n inputs, as extern "C" SYM, built by
// same_bits.sh (its AVX2 lanes, the default, once per header version) and
// neon_model.sh (-DNEON: its NEON lanes, simd/neon.h under the model of
// neon_model/arm_neon.h; -DSCALAR: its scalar variant, the bits every ISA
// must give). n is a multiple of 8.
#if defined(NEON)
#include "bcastgen/simd/neon.h"

extern "C" void SYM(const float* x, float* y, long n) {
  for (long i = 0; i < n; i += 4) vst1q_f32(y + i, bcastgen::simd::neon::FN(vld1q_f32(x + i)));
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
