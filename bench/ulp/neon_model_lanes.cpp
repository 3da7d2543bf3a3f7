// One f32 math function over n inputs (n a multiple of 4), as extern "C"
// SYM: its NEON lanes (simd/neon.h under the SIMDe model of
// neon_model/arm_neon.h) with -DNEON, else its scalar variant, the bits
// every ISA must give. Built by neon_model.sh.
#if defined(NEON)
#include "bcastgen/simd/neon.h"

extern "C" void SYM(const float* x, float* y, long n) {
  for (long i = 0; i < n; i += 4) vst1q_f32(y + i, bcastgen::simd::neon::FN(vld1q_f32(x + i)));
}
#else
#include "bcastgen/simd/scalar.h"

extern "C" void SYM(const float* x, float* y, long n) {
  for (long i = 0; i < n; ++i) y[i] = bcastgen::simd::scalar::FN(x[i]);
}
#endif
