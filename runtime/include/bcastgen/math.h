// bcastgen runtime: the math and activation functions of expressions, one
// scalar function per (function, float type) in bcastgen::ops. These are
// what every scalar path computes (the reference, the scalar variant, the
// scalar tails and the lane-by-lane nodes of vector variants), so a kernel
// gives the same bits on every element and every ISA.
//
// How each is computed, and the bound it is held to (the `form` and
// `wide` columns of the table, unary_functions.h; docs/design/accuracy.md;
// bench/ulp/ measures it over all 2^32 f32 inputs):
// - f32 of a Vector function: the scalar instantiation of its one algorithm
//   (bcastgen/simd/math_f32.inl).
// - hardsigmoid(x) = max(0, min(1, x alpha + 1/2)), alpha = 1/6 rounded to
//   float, and hardswish(x) = x hardsigmoid(x): exact to that definition,
//   each operation rounded once in the type (x alpha, then + 1/2, never
//   fused; hardswish's product), in f32 by the vector form's scalar
//   instantiation, in f64 with the same float alpha (ONNX's attribute).
// - the fast tier (fast_*): f32 as above, within 4 ulp; f64 is the exact
//   function's.
// - f32 of a Libm function (the trigonometric and hyperbolic ones): the
//   double function of the C library, rounded once to float.
//   glibc's double functions are within a few double ulps, 2^-50 of an f32
//   ulp, so the result is within 0.5 ulp + 2^-28: <= 1 ulp, and correctly
//   rounded but for inputs whose exact value lies that close to a midpoint
//   between two floats.
// - f64: the C library's long double function (x87 extended on x86-64,
//   64-bit significand), rounded once to double: <= 1 ulp wherever the long
//   double library is within 2^10 of its own ulps (glibc: a few). The
//   composites (detail::*_in below) are evaluated in a form that does not
//   cancel. These long double forms are also the oracle of bench/ulp/ for
//   f32.
//
// Special values follow C99 Annex F and the Array API: NaN in gives NaN;
// exp(-inf) = +0, log(+-0) = -inf, log(x < 0) = NaN, expm1(-0) = -0,
// tanh(+-inf) = +-1, erf(+-inf) = +-1, sigmoid(-inf) = 0, sigmoid(inf) = 1,
// softplus(-inf) = 0, softplus(inf) = inf, hardsigmoid(-inf) = 0,
// hardsigmoid(inf) = 1; silu(-inf), gelu(-inf), gelu_tanh(-inf), mish(-inf)
// and hardswish(-inf) are -0 (the limit, and what every large negative
// finite input rounds to), not the NaN of -inf * 0.
#pragma once

#include <cmath>

#include "bcastgen/no_contract.h"
#include "bcastgen/simd/scalar.h"
#include "bcastgen/unary_functions.h"

BCASTGEN_NO_CONTRACT_BEGIN  // bcastgen/no_contract.h: each operation rounded on its own

namespace bcastgen::ops {

namespace detail {

// The composites, over any float type R (long double for f64 and for the
// f32 oracle), written so that no step cancels or overflows.
template <class R>
inline R sigmoid_in(R x) {
  if (x >= 0) return R(1) / (R(1) + std::exp(-x));
  const R e = std::exp(x);  // NaN also lands here: e is NaN
  return e / (R(1) + e);
}

template <class R>
inline R silu_in(R x) {
  if (std::isinf(x)) return x > 0 ? x : R(-0.0);
  return x * sigmoid_in(x);
}

// max(x, 0) + log(1 + e^-|x|): log1p keeps the small tail exact, and e^-|x|
// never overflows.
template <class R>
inline R softplus_in(R x) {
  if (std::isnan(x)) return x;
  return (x > 0 ? x : R(0)) + std::log1p(std::exp(-std::fabs(x)));
}

// x/2 * erfc(-x/sqrt 2): erfc keeps the negative side's relative accuracy,
// which 1 + erf(x/sqrt 2) loses below x = -4.
template <class R>
inline R gelu_in(R x) {
  if (std::isinf(x)) return x > 0 ? x : R(-0.0);
  const R inv_sqrt2 = R(0.707106781186547524400844362104849039L);
  return R(0.5) * x * std::erfc(-x * inv_sqrt2);
}

// x/2 * (1 + tanh(z)) = x * sigmoid(2 z), z = sqrt(2/pi) (x + 0.044715 x^3):
// the sigmoid form does not cancel for negative x.
template <class R>
inline R gelu_tanh_in(R x) {
  if (std::isinf(x)) return x > 0 ? x : R(-0.0);
  const R sqrt_2_over_pi = R(0.797884560802865355879892119868763737L);
  const R z = sqrt_2_over_pi * (x + R(0.044715L) * x * x * x);
  return x * sigmoid_in(R(2) * z);
}

// x tanh(softplus(x)) = x n / (n + 2), n = e^x (e^x + 2), which does not
// cancel; for x >= 0 in t = e^-x, (1 + 2t) / (1 + 2t + 2t^2), which does
// not overflow.
template <class R>
inline R mish_in(R x) {
  if (std::isinf(x)) return x > 0 ? x : R(-0.0);
  if (x >= 0) {
    const R t = std::exp(-x);
    const R n = R(1) + R(2) * t;
    return x * (n / (n + R(2) * t * t));
  }
  const R e = std::exp(x);  // NaN also lands here
  const R n = e * (e + R(2));
  return x * (n / (n + R(2)));
}

// hardsigmoid and hardswish over f64 (and long double): their definitions
// in the type itself, each operation rounded once, as the f32 form
// (simd/math_f32.inl), with the same alpha, 1/6 rounded to float (ONNX's
// float attribute): x alpha rounded, + 1/2 rounded, clamped to [0, 1].
template <class R>
inline R hardsigmoid_in(R x) {
  const R product = x * R(simd::scalar::detail::kHardsigmoidAlpha);
  const R s = product + R(0.5);
  const R m = R(1) < s ? R(1) : s;  // NaN: s
  return R(0) > m ? R(0) : m;
}

template <class R>
inline R hardswish_in(R x) {
  return (R(-3) > x ? R(-3) : x) * hardsigmoid_in(x);  // -inf: -3 * +0 = -0
}

// f32 through double, f64 through long double, rounded once.
template <class T>
using wider_t = std::conditional_t<std::is_same_v<T, float>, double, long double>;

}  // namespace detail

// One function per row of the table (unary_functions.h) that is not Own,
// over f32 and f64, by its form: a Libm function computes `wide` in the
// wider type and rounds once; a Vector function's f32 is the scalar
// instantiation of its algorithm (simd/math_f32.inl) and its f64 `wide`.
#define BCASTGEN_MATH_FORM_Libm(NAME, BODY)                                                   \
  template <class T>                                                                          \
  inline std::enable_if_t<std::is_floating_point_v<T>, T> NAME(T x) {                         \
    using R = detail::wider_t<T>;                                                             \
    const R w = static_cast<R>(x);                                                            \
    return static_cast<T>(BODY);                                                              \
  }
#define BCASTGEN_MATH_FORM_Vector(NAME, BODY)                                                 \
  template <class T>                                                                          \
  inline std::enable_if_t<std::is_floating_point_v<T>, T> NAME(T x) {                         \
    if constexpr (std::is_same_v<T, float>) {                                                 \
      return simd::scalar::NAME##_f32(x);                                                     \
    } else {                                                                                  \
      using R = detail::wider_t<T>;                                                           \
      const R w = static_cast<R>(x);                                                          \
      return static_cast<T>(BODY);                                                            \
    }                                                                                         \
  }
#define BCASTGEN_MATH_FORM_Own(NAME, BODY)  // ops.h
#define BCASTGEN_MATH_FUNCTION_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  BCASTGEN_MATH_FORM_##form(name, wide)
BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_MATH_FUNCTION_)
#undef BCASTGEN_MATH_FUNCTION_
#undef BCASTGEN_MATH_FORM_Own
#undef BCASTGEN_MATH_FORM_Vector
#undef BCASTGEN_MATH_FORM_Libm

}  // namespace bcastgen::ops

BCASTGEN_NO_CONTRACT_END
