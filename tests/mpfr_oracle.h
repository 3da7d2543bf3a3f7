// MPFR (Debian's libmpfr-dev) as the correctly rounded oracle of the math
// functions: their exact values at 256 bits, and the distance of a result
// from one in ulps of its type. Used by tests/math_accuracy_test.cpp and
// bench/ulp/ (the exhaustive f32 check).
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "bcastgen/expr.h"

namespace bcastgen::test {

inline constexpr mpfr_prec_t kPrecision = 256;

// RAII for one mpfr_t.
struct Big {
  mpfr_t v;
  Big() { mpfr_init2(v, kPrecision); }
  ~Big() { mpfr_clear(v); }
  Big(const Big&) = delete;
  Big& operator=(const Big&) = delete;
};

// y = sigmoid(x) = 1 / (1 + e^-x).
inline void sigmoid(mpfr_t y, const mpfr_t x) {
  Big t;
  mpfr_neg(t.v, x, MPFR_RNDN);
  mpfr_exp(t.v, t.v, MPFR_RNDN);
  mpfr_add_ui(t.v, t.v, 1, MPFR_RNDN);
  mpfr_ui_div(y, 1, t.v, MPFR_RNDN);
}

// The exact function, at kPrecision bits (the composites by their
// definitions, in forms that do not cancel at this precision).
inline void exact(bcastgen::UnaryOp u, mpfr_t y, const mpfr_t x) {
  u = bcastgen::exact_function(u);  // a fast-tier row is graded against its function
  Big t, c;
  const bool x_ninf = mpfr_inf_p(x) && mpfr_sgn(x) < 0;
  if (x_ninf && (u == bcastgen::UnaryOp::Silu || u == bcastgen::UnaryOp::Gelu || u == bcastgen::UnaryOp::GeluTanh ||
                 u == bcastgen::UnaryOp::Mish)) {
    mpfr_set_zero(y, -1);  // the limit, -0 (README): the formulas give -inf * 0
    return;
  }
  switch (u) {
    case bcastgen::UnaryOp::Exp: mpfr_exp(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Expm1: mpfr_expm1(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Exp2: mpfr_exp2(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Log: mpfr_log(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Log1p: mpfr_log1p(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Log2: mpfr_log2(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Log10: mpfr_log10(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Tanh: mpfr_tanh(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Sigmoid: sigmoid(y, x); return;
    case bcastgen::UnaryOp::Erf: mpfr_erf(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Gelu:  // x/2 erfc(-x/sqrt 2)
      mpfr_sqrt_ui(c.v, 2, MPFR_RNDN);
      mpfr_div(t.v, x, c.v, MPFR_RNDN);
      mpfr_neg(t.v, t.v, MPFR_RNDN);
      mpfr_erfc(t.v, t.v, MPFR_RNDN);
      mpfr_mul(t.v, t.v, x, MPFR_RNDN);
      mpfr_div_ui(y, t.v, 2, MPFR_RNDN);
      return;
    case bcastgen::UnaryOp::GeluTanh: {  // x/2 (1 + tanh z) = x sigmoid(2z), z = sqrt(2/pi) (x + 0.044715 x^3)
      mpfr_pow_ui(t.v, x, 3, MPFR_RNDN);
      mpfr_set_str(c.v, "0.044715", 10, MPFR_RNDN);
      mpfr_mul(t.v, t.v, c.v, MPFR_RNDN);
      mpfr_add(t.v, t.v, x, MPFR_RNDN);
      mpfr_const_pi(c.v, MPFR_RNDN);
      mpfr_ui_div(c.v, 2, c.v, MPFR_RNDN);
      mpfr_sqrt(c.v, c.v, MPFR_RNDN);
      mpfr_mul(t.v, t.v, c.v, MPFR_RNDN);
      mpfr_mul_ui(t.v, t.v, 2, MPFR_RNDN);
      sigmoid(t.v, t.v);
      mpfr_mul(y, t.v, x, MPFR_RNDN);
      return;
    }
    case bcastgen::UnaryOp::Silu:
      sigmoid(t.v, x);
      mpfr_mul(y, t.v, x, MPFR_RNDN);
      return;
    case bcastgen::UnaryOp::Softplus:  // log(1 + e^x) = max(x, 0) + log(1 + e^-|x|): e^|x| overflows MPFR too
      mpfr_abs(t.v, x, MPFR_RNDN);
      mpfr_neg(t.v, t.v, MPFR_RNDN);
      mpfr_exp(t.v, t.v, MPFR_RNDN);
      mpfr_log1p(t.v, t.v, MPFR_RNDN);
      if (mpfr_sgn(x) > 0) mpfr_add(t.v, t.v, x, MPFR_RNDN);
      mpfr_set(y, t.v, MPFR_RNDN);
      return;
    case bcastgen::UnaryOp::Mish:  // x tanh(log(1 + e^x)): e^x overflows MPFR to inf far above where tanh is 1
      mpfr_exp(t.v, x, MPFR_RNDN);
      mpfr_log1p(t.v, t.v, MPFR_RNDN);
      mpfr_tanh(t.v, t.v, MPFR_RNDN);
      mpfr_mul(y, t.v, x, MPFR_RNDN);
      return;
    case bcastgen::UnaryOp::Cbrt: mpfr_cbrt(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Sin: mpfr_sin(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Cos: mpfr_cos(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Tan: mpfr_tan(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Asin: mpfr_asin(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Acos: mpfr_acos(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Atan: mpfr_atan(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Sinh: mpfr_sinh(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Cosh: mpfr_cosh(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Asinh: mpfr_asinh(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Acosh: mpfr_acosh(y, x, MPFR_RNDN); return;
    case bcastgen::UnaryOp::Atanh: mpfr_atanh(y, x, MPFR_RNDN); return;
    default: mpfr_set_nan(y); return;  // no oracle: NaN, which no finite result matches
  }
}

// |ours - exact| in ulps of T at the exact value (the subnormal ulp below
// the normal range; an infinity counts as 2^(emax) so that overflow by a
// rounding is measured, not infinite). NaN and exact zero and infinity are
// compared by value: 0 when they agree, infinity when not.
// The exact value rounded to T (to nearest even).
template <class T>
inline T rounded(const mpfr_t exact) {
  if constexpr (sizeof(T) == 4) {
    return mpfr_get_flt(exact, MPFR_RNDN);
  } else {
    return mpfr_get_d(exact, MPFR_RNDN);
  }
}

template <class T>
inline double ulp_error(T ours, const mpfr_t exact) {
  using L = std::numeric_limits<T>;
  if (mpfr_nan_p(exact)) return std::isnan(ours) ? 0 : INFINITY;
  if (std::isnan(ours)) return INFINITY;
  if (mpfr_inf_p(exact)) return std::isinf(ours) && (ours > 0) == (mpfr_sgn(exact) > 0) ? 0 : INFINITY;
  if (mpfr_zero_p(exact)) return ours == 0 ? 0 : INFINITY;
  if (std::isinf(ours) && rounded<T>(exact) == ours) return 0;  // overflow, correctly
  const long e = mpfr_get_exp(exact) - 1;  // exact in [2^e, 2^(e+1))
  const long ulp_exp = std::max<long>(e - (L::digits - 1), L::min_exponent - L::digits);
  Big d, o;
  if (std::isinf(ours)) {
    mpfr_set_ui_2exp(o.v, 1, L::max_exponent, MPFR_RNDN);
    if (ours < 0) mpfr_neg(o.v, o.v, MPFR_RNDN);
  } else {
    mpfr_set_ld(o.v, static_cast<long double>(ours), MPFR_RNDN);
  }
  mpfr_sub(d.v, o.v, exact, MPFR_RNDN);
  mpfr_abs(d.v, d.v, MPFR_RNDN);
  mpfr_mul_2si(d.v, d.v, -ulp_exp, MPFR_RNDN);
  return mpfr_get_d(d.v, MPFR_RNDN);
}

// hardsigmoid and hardswish, exact to their definitions (math.h), in T
// (float or double): each operation exact at kPrecision bits (the product
// of x and alpha has at most 77 bits; the sum with 1/2 is exact unless x
// alpha is beyond 2^255, where it rounds to x alpha as the sum in T does),
// then rounded to T where the definition rounds: x alpha, + 1/2, and
// hardswish's product; hardswish(-inf) is -0, the limit.
template <class T>
inline T defined(bcastgen::UnaryOp u, T x) {
  if (std::isnan(x)) return x;
  Big v;
  mpfr_set_d(v.v, static_cast<double>(x), MPFR_RNDN);
  mpfr_mul_d(v.v, v.v, static_cast<double>(0x1.555556p-3f), MPFR_RNDN);  // alpha: 1/6 rounded to float
  const T product = rounded<T>(v.v);
  mpfr_set_d(v.v, static_cast<double>(product), MPFR_RNDN);
  mpfr_add_d(v.v, v.v, 0.5, MPFR_RNDN);
  const T s = rounded<T>(v.v);
  const T h = s > T(1) ? T(1) : s < T(0) ? T(0) : s;
  if (u == bcastgen::UnaryOp::Hardsigmoid) return h;
  if (std::isinf(x) && x < 0) return T(-0.0);
  mpfr_set_d(v.v, static_cast<double>(x), MPFR_RNDN);
  mpfr_mul_d(v.v, v.v, static_cast<double>(h), MPFR_RNDN);
  return rounded<T>(v.v);
}

}  // namespace bcastgen::test
