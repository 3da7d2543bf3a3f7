// SLEEF's u10 vector functions over a buffer, for math_bench.cpp: compiled
// once with -mavx2 -mfma -DSLEEF_LOOP_AVX2 and once with -mavx512f, because
// sleef.h declares each ISA's functions only under its flag. sigmoid and
// silu are composed as PyTorch's CPU kernels do.
#include "sleef_loops.h"

#include <immintrin.h>
#include <sleef.h>

#if defined(SLEEF_LOOP_AVX2)
#define VEC __m256
#define LANES 8
#define LOAD _mm256_loadu_ps
#define STORE _mm256_storeu_ps
#define SET1 _mm256_set1_ps
#define ADD _mm256_add_ps
#define SUB _mm256_sub_ps
#define MUL _mm256_mul_ps
#define DIV _mm256_div_ps
#define EXP Sleef_expf8_u10avx2
#define TANH Sleef_tanhf8_u10avx2
#define NAME sleef_avx2
#else
#define VEC __m512
#define LANES 16
#define LOAD _mm512_loadu_ps
#define STORE _mm512_storeu_ps
#define SET1 _mm512_set1_ps
#define ADD _mm512_add_ps
#define SUB _mm512_sub_ps
#define MUL _mm512_mul_ps
#define DIV _mm512_div_ps
#define EXP Sleef_expf16_u10avx512f
#define TANH Sleef_tanhf16_u10avx512f
#define NAME sleef_avx512
#endif

void NAME(Fn f, const float* x, float* y, std::int64_t n) {
  const VEC one = SET1(1.0f), zero = SET1(0.0f);
  for (std::int64_t i = 0; i < n; i += LANES) {
    const VEC v = LOAD(x + i);
    VEC r;
    switch (f) {
      case Fn::Exp: r = EXP(v); break;
      case Fn::Tanh: r = TANH(v); break;
      case Fn::Sigmoid: r = DIV(one, ADD(one, EXP(SUB(zero, v)))); break;
      default: r = MUL(v, DIV(one, ADD(one, EXP(SUB(zero, v))))); break;
    }
    STORE(y + i, r);
  }
}
