// SLEEF's u10 vector functions over a buffer, for math_bench.cpp: compiled
// once with -mavx2 -mfma -DSLEEF_LOOP_AVX2 and once with -mavx512f, because
// sleef.h declares each ISA's functions only under its flag. The
// composites are written as PyTorch's CPU kernels write them:
// sigmoid 1 / (1 + exp(-x)), silu x sigmoid(x), softplus x > 20 ? x :
// log1p(exp(x)), gelu x/2 (1 + erf(x / sqrt 2)), gelu_tanh x/2 (1 +
// tanh(sqrt(2/pi) (x + 0.044715 x^3))).
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
#define ABOVE(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#define SELECT(c, a, b) _mm256_blendv_ps(b, a, c)
#define SLEEF_(NAME) Sleef_##NAME##f8_u10avx2
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
#define ABOVE(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)
#define SELECT(c, a, b) _mm512_mask_blend_ps(c, b, a)
#define SLEEF_(NAME) Sleef_##NAME##f16_u10avx512f
#define NAME sleef_avx512
#endif

namespace {

template <Fn F>
VEC apply(VEC v) {
  const VEC one = SET1(1.0f), half = SET1(0.5f);
  switch (F) {
    case Fn::exp: return SLEEF_(exp)(v);
    case Fn::exp2: return SLEEF_(exp2)(v);
    case Fn::expm1: return SLEEF_(expm1)(v);
    case Fn::log: return SLEEF_(log)(v);
    case Fn::log2: return SLEEF_(log2)(v);
    case Fn::log10: return SLEEF_(log10)(v);
    case Fn::log1p: return SLEEF_(log1p)(v);
    case Fn::erf: return SLEEF_(erf)(v);
    case Fn::tanh: return SLEEF_(tanh)(v);
    case Fn::gelu: return MUL(MUL(v, half), ADD(one, SLEEF_(erf)(MUL(v, SET1(0.70710678f)))));
    case Fn::sigmoid: return DIV(one, ADD(one, SLEEF_(exp)(SUB(SET1(0.0f), v))));
    case Fn::silu: return MUL(v, DIV(one, ADD(one, SLEEF_(exp)(SUB(SET1(0.0f), v)))));
    case Fn::softplus: return SELECT(ABOVE(v, SET1(20.0f)), v, SLEEF_(log1p)(SLEEF_(exp)(v)));
    case Fn::gelu_tanh: {
      const VEC inner = MUL(SET1(0.79788456f), ADD(v, MUL(SET1(0.044715f), MUL(v, MUL(v, v)))));
      return MUL(MUL(v, half), ADD(one, SLEEF_(tanh)(inner)));
    }
  }
  return v;
}

template <Fn F>
void loop(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; i += LANES) STORE(y + i, apply<F>(LOAD(x + i)));
}

}  // namespace

void NAME(Fn f, const float* x, float* y, std::int64_t n) {
  switch (f) {
#define BCASTGEN_CASE_(FN) \
  case Fn::FN: return loop<Fn::FN>(x, y, n);
    BCASTGEN_MATH_BENCH_FUNCTIONS_(BCASTGEN_CASE_)
#undef BCASTGEN_CASE_
  }
}
