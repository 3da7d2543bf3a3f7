// One f32 math function's AVX2 lanes over n inputs (n a multiple of 8), as
// extern "C" SYM: built by same_bits.sh once per header version.
#include "bcastgen/simd/avx2.h"

extern "C" __attribute__((target(BCASTGEN_TARGET_AVX2))) void SYM(const float* x, float* y, long n) {
  namespace simd = bcastgen::simd::avx2;
  for (long i = 0; i < n; i += 8) _mm256_storeu_ps(y + i, simd::FN(_mm256_loadu_ps(x + i)));
}
