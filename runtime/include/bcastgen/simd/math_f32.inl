// The f32 math functions with a vector form, written once. Each SIMD header
// (bcastgen/simd/<isa>.h) and the scalar one (bcastgen/simd/scalar.h)
// includes this file inside its own namespace, after defining
//
//   BCASTGEN_SIMD_FN   its wrapper attribute (target and always_inline),
//   f32v, i32v         its f32 and i32 register types (float, std::int32_t
//                      for scalar),
//
// and the wrappers used below: splat_f32, add_f32, subtract_f32,
// multiply_f32, divide_f32, neg_f32, abs_f32, less_f32 (a compare result),
// select_f32, splat_i32, add_i32, subtract_i32, bitwise_and_i32,
// bitwise_or_i32, bitwise_xor_i32, cast_i32_f32, and in namespace detail fmadd_f32, max_or_b_f32,
// min_or_b_f32, bits_f32, from_bits_f32, shift_left_i32<N>,
// shift_right_i32<N> (arithmetic), lookup4_f32 (table[j & 3]), lookup8_f32
// (table[j & 7]) and lookup16_f32 (table[j & 15]); and, where it defines
// BCASTGEN_SIMD_SCALEF, times_power_of_two<S>, and where it defines
// BCASTGEN_SIMD_LOG_SPECIALS, log_specials (all below).
// Each wrapper is one IEEE operation (fmadd rounds once) or exact (selects,
// bits, lookups), so
// every instantiation computes the same bits: a kernel's vector lanes, its
// scalar tail, its scalar variant and bcastgen::ops (the reference) agree on
// every element, whichever ISA the CPU dispatches to. That holds when the
// calling code is compiled without multiply-add contraction, as the
// generated files are (GCC contracts by default, even in ISO mode, wherever
// the target has FMA).
//
// The constants come from scripts/derive-math-constants.py, which prints
// them in this spelling. The error bounds below are measured over all 2^32
// inputs by bench/ulp/ (docs/reference/functions.md).
//
// No include guard: it is meant to be included once per namespace.

namespace detail {

// a + b = s + err exactly, whichever is larger (2Sum, Knuth).
struct TwoSum {
  f32v s, err;
};

BCASTGEN_SIMD_FN TwoSum two_sum(f32v a, f32v b) {
  const f32v s = add_f32(a, b);
  const f32v b_part = subtract_f32(s, a);
  return {s, add_f32(subtract_f32(a, subtract_f32(s, b_part)), subtract_f32(b, b_part))};
}

// a + b = s + err exactly when |a| >= |b| (or a is 0): Fast2Sum (Dekker),
// three operations where two_sum takes six.
BCASTGEN_SIMD_FN TwoSum fast_two_sum(f32v a, f32v b) {
  const f32v s = add_f32(a, b);
  return {s, add_f32(subtract_f32(a, s), b)};
}

// y copysign(1, x), exactly: the sign bits xor'ed (the odd functions, which
// compute for |x|: x's sign where y >= 0).
BCASTGEN_SIMD_FN f32v times_sign_of(f32v y, f32v x) {
  return from_bits_f32(bitwise_xor_i32(bits_f32(y), bitwise_and_i32(bits_f32(x), splat_i32(INT32_MIN))));
}

// 2^(b - 127) for a biased exponent b in [1, 254]: b shifted to the
// exponent field (bits of b above the ninth, if any, are shifted out).
BCASTGEN_SIMD_FN f32v from_exponent_field(i32v b) { return from_bits_f32(shift_left_i32<23>(b)); }

// 2^e for a normal exponent e (-126 <= e <= 127), from its bits.
BCASTGEN_SIMD_FN f32v power_of_two(i32v e) { return from_exponent_field(add_i32(e, splat_i32(127))); }

// The reductions below round x / c to an integer n by adding kShifter =
// 1.5 * 2^23: z = n + kShifter holds n in its low bits (z = kShifter holds 0).
constexpr float kShifter = 0x1.8p+23f;

BCASTGEN_SIMD_FN i32v held_integer(f32v z) { return subtract_i32(bits_f32(z), bits_f32(splat_f32(kShifter))); }

// 2^(m - 127) for the m in [1, 254] that z holds in its low bits over a
// shifter kShifter + offset (so m = n + offset for the n it rounds to): the
// bits shifted to the exponent field, one operation (the shift drops the
// shifter's own bits).
BCASTGEN_SIMD_FN f32v power_of_two_held(f32v z) { return from_exponent_field(bits_f32(z)); }

// The shifter of the reductions in 2^S-ths (exp_reduction's n = round(x 8 /
// ln2) and exp2_f32's n = round(8 x), S = 3; exp_f32's n = round(x / ln2),
// S = 0): z holds m = n + 254 2^S in its low bits, m > 0 for their n, so
// that m >> S is e + 254 for e = n >> S.
template <int S>
constexpr float kFractionShifter = kShifter + 254.0f * (1 << S);

// y 2^(n >> S), rounded once, for the n that z holds over
// kFractionShifter<S> (|n >> S| <= 252) and the y the callers pass (mostly
// in [0.48, 240]; small_exp's s_err is the exception). An ISA with a scale
// instruction (AVX-512's vscalefps, which takes the floor of a float
// exponent) defines BCASTGEN_SIMD_SCALEF and its own times_power_of_two.
// The others multiply by two normal powers of two, 2^(floor((e + 254) / 2)
// - 127) and 2^(ceil((e + 254) / 2) - 127): m >> (S + 1) and (m + 2^S) >>
// (S + 1), each shifted to the exponent field (the shift by 23 drops the
// shifter's own bits; (e + 254) / 2 < 256 leaves the sign clear), five
// integer operations, where a shifter holding n itself took eight (n - the
// shifter's bits, >> S, >> 1, two + 127, two << 23, e - a). The first
// product is exact where y 2^floor(e/2) is normal, so overflow and
// subnormal results round once, as vscalefps does.
#ifndef BCASTGEN_SIMD_SCALEF
template <int S>
BCASTGEN_SIMD_FN f32v times_power_of_two(f32v y, f32v z) {
  const i32v m = bits_f32(z);
  const f32v floor_half = from_exponent_field(shift_right_i32<S + 1>(m));
  const f32v ceil_half = from_exponent_field(shift_right_i32<S + 1>(add_i32(m, splat_i32(1 << S))));
  return multiply_f32(multiply_f32(y, floor_half), ceil_half);
}
#endif

// e^x before its last rounding: (hi + u) 2^(n >> 3), with n the integer z
// holds; hi + u is within 0.15 ulp of e^(x - (n >> 3) ln2) (error analysis
// at exp_f32).
struct ExpParts {
  f32v hi, u, z;
};

// e^(n ln2/8 + r), for n held in z's low bits (z = n + 1.5 * 2^23) and
// |r| <= ln2/16 (plus a few ulps).
BCASTGEN_SIMD_FN ExpParts exp_reduced(f32v z, f32v r) {
  static constexpr float kHi[8] = {0x1p+0f,       0x1.172b84p+0f, 0x1.306fep+0f,  0x1.4bfdaep+0f,
                                   0x1.6a09e6p+0f, 0x1.8ace54p+0f, 0x1.ae89fap+0f, 0x1.d5818ep+0f};
  static constexpr float kLo[8] = {0.0f,           -0x1.c15742p-27f, 0x1.4636e2p-25f, -0x1.593abcp-25f,
                                   0x1.9fcef4p-26f, 0x1.15506ep-27f,  -0x1.a94b14p-26f, -0x1.822dbcp-27f};
  // e^r - 1 = r + r^2 (1/2 + r (1/6 + r/24))
  f32v q = fmadd_f32(r, splat_f32(0x1.555556p-5f), splat_f32(0x1.555556p-3f));
  q = fmadd_f32(r, q, splat_f32(0.5f));
  const f32v p = fmadd_f32(multiply_f32(r, r), q, r);
  // lookup8 reads the low 3 bits, n & 7 (1.5 * 2^23's low bits are 0).
  const i32v j = bits_f32(z);
  const f32v hi = lookup8_f32(kHi, j), lo = lookup8_f32(kLo, j);
  return {hi, fmadd_f32(hi, p, lo), z};
}

// x = n ln2/8 + r, with n held in z's low bits. x is clamped to [-120,
// 89], past the thresholds (e^x < 2^-150 rounds to 0 below -103.97,
// overflows above 88.723); max_or_b/min_or_b return x when it is NaN, so
// NaN propagates.
struct ExpReduction {
  f32v z, r;
};

BCASTGEN_SIMD_FN f32v clamped_exp_argument(f32v x) {
  return min_or_b_f32(splat_f32(89.0f), max_or_b_f32(splat_f32(-120.0f), x));
}

BCASTGEN_SIMD_FN ExpReduction exp_reduction(f32v x) {
  const f32v xc = clamped_exp_argument(x);
  // Adding the shifter rounds x * 8/ln2 to an integer n, held in the low
  // bits (as n + 2032: kFractionShifter<3>).
  const f32v shifter = splat_f32(kFractionShifter<3>);
  const f32v z = fmadd_f32(xc, splat_f32(0x1.715476p+3f), shifter);
  const f32v n = subtract_f32(z, shifter);
  // r = x - n ln2/8, with ln2/8 as hi + lo: the first fma is exact.
  const f32v r = fmadd_f32(n, splat_f32(-0x1.62e43p-4f), xc);
  return {z, fmadd_f32(n, splat_f32(0x1.05c61p-32f), r)};
}

BCASTGEN_SIMD_FN ExpParts exp_parts(f32v x) {
  const ExpReduction e = exp_reduction(x);
  return exp_reduced(e.z, e.r);
}

// P(u) with e^u = 1 + u P(u) for |u| <= ln2/2 (plus a reduction's
// rounding): degree 5, P(0) = 1, relative error 0.09 2^-24
// (scripts/derive-math-polynomials.sollya). exp_f32's, erf_f32's and the
// fast tier's.
// Its coefficients, from degree 5 down to 0.
constexpr float kExpPolynomial[6] = {0x1.6b7536p-10f, 0x1.122a66p-7f, 0x1.555716p-5f,
                                     0x1.5554acp-3f,  0x1.fffffep-2f, 1.0f};

// Horner's scheme over c, highest degree first, from c[J] on (p holds the
// steps before it). One step per instantiation, so that the steps are
// unrolled whatever the compiler's loop heuristics.
template <int J, int D>
BCASTGEN_SIMD_FN f32v horner_from(const float (&c)[D], f32v u, f32v p) {
  p = fmadd_f32(u, p, splat_f32(c[J]));
  if constexpr (J + 1 == D) {
    return p;
  } else {
    return horner_from<J + 1>(c, u, p);
  }
}

template <int D>
BCASTGEN_SIMD_FN f32v horner(const float (&c)[D], f32v u) {
  return horner_from<2>(c, u, fmadd_f32(u, splat_f32(c[0]), splat_f32(c[1])));
}

BCASTGEN_SIMD_FN f32v exp_polynomial(f32v u) { return horner(kExpPolynomial, u); }

// e^r = 1 + r P(r) for |r| <= ln2/2 (plus a reduction's rounding), rounded
// once.
BCASTGEN_SIMD_FN f32v exp_of_reduced(f32v r) { return fmadd_f32(r, exp_polynomial(r), splat_f32(1.0f)); }

// t = n ln2 + r: n held in z, and r.
struct ExpReducedLn2 {
  f32v r, z;
};

// n = round(t / ln2) by a shifter (kShifter + an offset, so that z's low
// bits hold n + offset), and r = t - n ln2 with ln2 as hi + lo, two fmas:
// the first exact (t and n ln2's hi are multiples of 2^-25 or more where n
// is nonzero, and |r| <= ln2/2 needs no more than 24 bits of them), the
// second rounds r. Its constants: 1/ln2 rounded, and ln2 = kLn2Hi - kLn2Lo
// (kLn2Hi is ln 2 rounded to float; other reductions use it alone).
constexpr float kInvLn2 = 0x1.715476p+0f, kLn2Hi = 0x1.62e43p-1f, kLn2Lo = 0x1.05c61p-29f;

BCASTGEN_SIMD_FN ExpReducedLn2 exp_reduce_ln2(f32v t, float shifter_value) {
  const f32v shifter = splat_f32(shifter_value);
  const f32v z = fmadd_f32(t, splat_f32(kInvLn2), shifter);
  const f32v n = subtract_f32(z, shifter);
  return {fmadd_f32(n, splat_f32(kLn2Lo), fmadd_f32(n, splat_f32(-kLn2Hi), t)), z};
}

// e^(x + x_lo), for |x_lo| <= ulp(x) / 2 (a double-float argument).
BCASTGEN_SIMD_FN ExpParts exp_parts(f32v x, f32v x_lo) {
  const ExpReduction e = exp_reduction(x);
  return exp_reduced(e.z, add_f32(e.r, x_lo));
}

}  // namespace detail

// e^x, <= 1 ulp (measured over all 2^32 inputs: 0.909, docs/reference/functions.md).
//
// n = round(x / ln2) splits x = n ln2 + r with |r| <= ln2/2
// (exp_reduce_ln2), so e^x = 2^n e^r, and y = 1 + r P(r) (exp_polynomial)
// rounds once, in [0.7, 1.5). Then y 2^n rounds once more only where the
// result overflows or is subnormal (times_power_of_two), so inf and the
// subnormals come out right without a special case. No table: exp_parts's
// 2^(j/8) from an 8-entry table as hi + lo (0.76 ulp, for the callers that
// need e^x as a double-float) took one fma fewer but two permutes, an
// addition and three integer operations more per vector (they share the FP
// pipes), and ran 1.2x to 1.4x slower on Zen 3. x is first clamped to
// [-120, 89], past the thresholds (e^x < 2^-150 rounds to 0 below -103.97,
// overflows above 88.723); max_or_b/min_or_b return x when it is NaN, so
// NaN propagates.
BCASTGEN_SIMD_FN f32v exp_f32(f32v x) {
  const f32v xc = detail::clamped_exp_argument(x);
  // n in [-173, 128]: y 2^floor(n/2) is normal for y in [0.7, 1.5].
  const detail::ExpReducedLn2 e = detail::exp_reduce_ln2(xc, detail::kFractionShifter<0>);
  const f32v y = detail::exp_of_reduced(e.r);
  return detail::times_power_of_two<0>(y, e.z);
}

namespace detail {

// E = e^x for x <= 0 (so E <= 1), as exp_parts gives it but with hi + u made
// exact first (Fast2Sum, |hi| >= |u|): E = (s + s_err) 2^(n >> 3), and
// scaled: big_e + big_e_err. s >= 0.96 scales with one rounding on every
// ISA. s_err is tiny: where its first factor underflows, scaling twice can
// round twice and vscalefps would not; simd_math_test's run over all 2^32
// inputs finds the same bits on every ISA for each function using it.
struct SmallExp {
  f32v s, s_err, z, big_e, big_e_err;
};

BCASTGEN_SIMD_FN SmallExp small_exp(const ExpParts& e) {
  const TwoSum s = fast_two_sum(e.hi, e.u);
  return {s.s, s.err, e.z, times_power_of_two<3>(s.s, e.z), times_power_of_two<3>(s.err, e.z)};
}

// 1 / D as q (1 + r), within 2^-40, for D = d_hi + d_lo (|d_lo| below an
// ulp of d_hi): q = 1/d_hi rounded, r = 1 - D q from two fmas (the first
// exact).
struct Inverse {
  f32v q, r;
};

BCASTGEN_SIMD_FN Inverse inverse(f32v d_hi, f32v d_lo) {
  const f32v one = splat_f32(1.0f);
  const f32v q = divide_f32(one, d_hi);
  const f32v r = fmadd_f32(neg_f32(d_lo), q, fmadd_f32(neg_f32(d_hi), q, one));
  return {q, r};
}

// 1 / (1 + E): D = 1 + E carried as d_hi + d_lo (Fast2Sum, 1 >= E).
BCASTGEN_SIMD_FN Inverse inverse_one_plus(const SmallExp& e) {
  const f32v one = splat_f32(1.0f);
  const f32v d_hi = add_f32(one, e.big_e);
  const f32v d_lo = add_f32(subtract_f32(e.big_e, subtract_f32(d_hi, one)), e.big_e_err);
  return inverse(d_hi, d_lo);
}

// (n_hi + n_lo) q (1 + r), before its last rounding: n_hi q as the exact
// product p_hi + p_lo, plus the small terms.
BCASTGEN_SIMD_FN f32v times_inverse_lo(f32v n_hi, f32v n_lo, const Inverse& d, f32v p_hi) {
  f32v p_lo = fmadd_f32(n_hi, d.q, neg_f32(p_hi));
  p_lo = fmadd_f32(p_hi, d.r, p_lo);
  return fmadd_f32(n_lo, d.q, p_lo);
}

// sigmoid(x) before its last rounding: (hi + lo) 2^(n >> 3), n held in z
// (0 for x >= 0).
//
// With E = e^-|x| (small_exp), the result is 1/(1 + E) = q + q r for x >= 0,
// and E/(1 + E) = 2^k (s + s_err) q (1 + r) for x < 0, with 2^k applied last
// so that a subnormal result rounds once more at most. Every term before the
// last addition is within 0.3 ulp, so the result is within 1 ulp.
struct SigmoidParts {
  f32v hi, lo, z;
};

BCASTGEN_SIMD_FN SigmoidParts sigmoid_parts(f32v x, const SmallExp& e) {
  const Inverse d = inverse_one_plus(e);
  const f32v p_hi = multiply_f32(e.s, d.q);
  const f32v p_lo = times_inverse_lo(e.s, e.s_err, d, p_hi);
  const auto negative = less_f32(x, splat_f32(0.0f));
  return {select_f32(negative, p_hi, d.q), select_f32(negative, p_lo, multiply_f32(d.q, d.r)),
          select_f32(negative, e.z, splat_f32(kFractionShifter<3>))};
}

BCASTGEN_SIMD_FN SigmoidParts sigmoid_parts(f32v x) {
  return sigmoid_parts(x, small_exp(exp_parts(neg_f32(abs_f32(x)))));
}

}  // namespace detail

// 1 / (1 + e^-x), <= 1 ulp: sigmoid_parts rounded once (then scaled).
// sigmoid(-inf) = 0, sigmoid(inf) = 1, NaN gives NaN.
BCASTGEN_SIMD_FN f32v sigmoid_f32(f32v x) {
  const detail::SigmoidParts p = detail::sigmoid_parts(x);
  return detail::times_power_of_two<3>(add_f32(p.hi, p.lo), p.z);
}

// x sigmoid(x), <= 2 ulp: x (hi + lo) with one rounding, then scaled. x is
// clamped to -120 as a factor (silu(x) rounds to -0 below about -109, and
// -inf gives -0, not NaN), and to [-120, 120] in the small term (where
// +inf would meet lo = 0).
BCASTGEN_SIMD_FN f32v silu_f32(f32v x) {
  const detail::SigmoidParts p = detail::sigmoid_parts(x);
  const f32v xm = detail::max_or_b_f32(splat_f32(-120.0f), x);
  const f32v xc = detail::min_or_b_f32(splat_f32(120.0f), xm);
  const f32v y = detail::fmadd_f32(xm, p.hi, multiply_f32(xc, p.lo));
  return detail::times_power_of_two<3>(y, p.z);
}

// tanh(x), <= 1 ulp, odd: computed for |x| and given x's sign (-0 stays).
// Below |x| = 0.55 an odd minimax polynomial, |x| + |x|^3 P(x^2) (relative
// error 2^-30; scripts/derive-math-polynomials.sollya). Above, (1 - E) /
// (1 + E) with E = e^-2|x| <= 0.33 from small_exp: 1 - E = n_hi + n_lo
// exactly (Fast2Sum), times 1/(1 + E) = q (1 + r), rounded once; E's error
// is amplified at most 2/(1 - E^2) < 2.3 times, 0.25 ulp. tanh(+-inf) = +-1.
BCASTGEN_SIMD_FN f32v tanh_f32(f32v x) {
  const f32v a = abs_f32(x);
  const f32v a2 = multiply_f32(a, a);
  f32v p = detail::fmadd_f32(a2, splat_f32(-0x1.9a79bap-8f), splat_f32(0x1.5918a4p-6f));
  p = detail::fmadd_f32(a2, p, splat_f32(-0x1.b92358p-5f));
  p = detail::fmadd_f32(a2, p, splat_f32(0x1.110dp-3f));
  p = detail::fmadd_f32(a2, p, splat_f32(-0x1.55554ap-2f));
  const f32v small = detail::fmadd_f32(multiply_f32(a2, a), p, a);
  const detail::SmallExp e = detail::small_exp(detail::exp_parts(multiply_f32(a, splat_f32(-2.0f))));
  const detail::Inverse d = detail::inverse_one_plus(e);
  const f32v one = splat_f32(1.0f);
  const detail::TwoSum n = detail::fast_two_sum(one, neg_f32(e.big_e));
  const f32v n_lo = subtract_f32(n.err, e.big_e_err);
  const f32v p_hi = multiply_f32(n.s, d.q);
  const f32v large = add_f32(p_hi, detail::times_inverse_lo(n.s, n_lo, d, p_hi));
  const f32v y = select_f32(less_f32(a, splat_f32(0.55f)), small, large);
  return detail::times_sign_of(y, x);
}

// 2^x, <= 1 ulp: n = round(8 x) leaves t = x - n/8 exact (|t| <= 1/16), and
// 2^x = 2^(n/8) e^(t ln 2) is exp's evaluation from r = t ln 2 (ln 2 as
// hi + lo, one rounding). Integers give exact powers of two. x is clamped
// to [-151, 129], past the thresholds (2^x rounds to 0 at -150 and below,
// overflows at 128).
BCASTGEN_SIMD_FN f32v exp2_f32(f32v x) {
  const f32v xc = detail::min_or_b_f32(splat_f32(129.0f), detail::max_or_b_f32(splat_f32(-151.0f), x));
  const f32v shifter = splat_f32(detail::kFractionShifter<3>);
  const f32v z = detail::fmadd_f32(xc, splat_f32(8.0f), shifter);
  const f32v t = detail::fmadd_f32(subtract_f32(z, shifter), splat_f32(-0.125f), xc);
  const f32v r = detail::fmadd_f32(t, splat_f32(detail::kLn2Hi), multiply_f32(t, splat_f32(-detail::kLn2Lo)));
  const detail::ExpParts e = detail::exp_reduced(z, r);
  return detail::times_power_of_two<3>(add_f32(e.hi, e.u), e.z);
}

// e^x - 1, <= 1 ulp, without the cancellation of exp(x) - 1 near 0.
//
// x = n ln2 + r + r_lo with |r| <= ln2/2 (ln 2 as a 13-bit hi, so n hi is
// exact, + lo), e^r - 1 = r + r^2/2 + r^3 Q(r) as em_hi + em_lo (Q: minimax,
// relative error 2^-30; scripts/derive-math-polynomials.sollya), then
// e^x - 1 = 2^n em + (2^n - 1): A = 2^n em_hi is exact, B = 2^n - 1 is
// exact with its error B_err (Fast2Sum, larger term first), and
// |B| >= |A|, so A + B is S + S_err exactly; everything else is below an
// ulp, and the sum rounds once. n = 128 (x in [88.37, 88.72], finite) would
// need 2^128: there the terms are halved (d = 1) and the result doubled,
// which is exact or overflows as the one rounding would. x is clamped to
// [-18, 88.8]: e^x - 1 rounds to -1 below -17.33 and overflows above 88.73.
// |x| < 2^-25 gives x itself (its exact value rounds to x; -0 stays -0).
BCASTGEN_SIMD_FN f32v expm1_f32(f32v x) {
  const f32v xc = detail::min_or_b_f32(splat_f32(88.8f), detail::max_or_b_f32(splat_f32(-18.0f), x));
  const f32v shifter = splat_f32(detail::kShifter);
  const f32v z = detail::fmadd_f32(xc, splat_f32(detail::kInvLn2), shifter);
  const f32v n = subtract_f32(z, shifter);
  const f32v r_hi = detail::fmadd_f32(n, splat_f32(-0x1.62ep-1f), xc);
  const f32v r = detail::fmadd_f32(n, splat_f32(-0x1.0bfbe8p-15f), r_hi);
  const f32v r_lo = detail::fmadd_f32(n, splat_f32(-0x1.0bfbe8p-15f), subtract_f32(r_hi, r));
  // e^r - 1 as em_hi + em_lo: r + h exactly by Fast2Sum (|r| >= h = r^2/2),
  // h's rounding error h_lo from an fma, e^r r_lo ~ r_lo (1 + r).
  const f32v half_r = multiply_f32(r, splat_f32(0.5f));
  const f32v h = multiply_f32(half_r, r);
  const f32v h_lo = detail::fmadd_f32(half_r, r, neg_f32(h));
  f32v q = detail::fmadd_f32(r, splat_f32(0x1.a37ca2p-13f), splat_f32(0x1.6d1002p-10f));
  q = detail::fmadd_f32(r, q, splat_f32(0x1.110f7ep-7f));
  q = detail::fmadd_f32(r, q, splat_f32(0x1.55551ap-5f));
  q = detail::fmadd_f32(r, q, splat_f32(0x1.555556p-3f));
  f32v tail = detail::fmadd_f32(multiply_f32(multiply_f32(r, r), r), q, h_lo);
  tail = add_f32(detail::fmadd_f32(r_lo, r, tail), r_lo);
  const detail::TwoSum em = detail::fast_two_sum(r, h);
  const f32v em_hi = em.s, em_lo = add_f32(em.err, tail);
  // 2^m with m = n - d, d = 1 only for n = 128; the 1 becomes 2^-d.
  const i32v ni = detail::held_integer(z);
  const i32v d = detail::shift_right_i32<8>(add_i32(ni, splat_i32(128)));
  const f32v two_m = detail::power_of_two(subtract_i32(ni, d));
  const f32v one = detail::from_exponent_field(subtract_i32(splat_i32(127), d));
  const f32v b = subtract_f32(two_m, one);
  const auto m_negative = less_f32(two_m, splat_f32(1.0f));
  const f32v b_err = select_f32(m_negative, add_f32(subtract_f32(neg_f32(one), b), two_m),
                                subtract_f32(subtract_f32(two_m, b), one));
  const f32v a = multiply_f32(em_hi, two_m);
  const detail::TwoSum s = detail::fast_two_sum(b, a);
  const f32v y = add_f32(s.s, add_f32(add_f32(s.err, b_err), multiply_f32(em_lo, two_m)));
  const f32v scaled = multiply_f32(y, detail::power_of_two(d));
  return select_f32(less_f32(abs_f32(x), splat_f32(0x1p-25f)), x, scaled);
}

namespace detail {

// ln x = hi + lo before its last rounding, for x > 0 finite (subnormals
// too); |lo| <= 0.04 |hi| + 2^-24 and the pair is within 0.1 ulp of ln x.
//
// x = 2^k z with z in [OFF, 2 OFF), OFF = 0x3f355555 (0.708); the 3 bits of
// z below its offset exponent pick one of 8 intervals, with 1/c from a table
// (lookup8) so that z/c - 1 = r, |r| <= 0.0566: z/c = p_hi + p_lo exactly
// (an fma), r = p_hi - 1 exactly. Then
//   ln x = k ln2 + ln c + ln(1 + r) + p_lo (1 - r),
// with ln(1 + r) = r - r^2/2 + r^3 Q(r) (Q: minimax, relative error 2^-31;
// scripts/derive-math-polynomials.sollya). k ln2_hi (16 bits) + ln c_hi + r
// is summed exactly (two Fast2Sums: |k ln2| >= |ln c| >= |r| where not
// zero); the rest is small. Interval 4 holds 1.0 in its middle with c = 1,
// ln c = 0, so near x = 1 the result is r + ... with no cancellation.
// Tables: scripts/derive-math-constants.py.
struct LogParts {
  f32v hi, lo;
};

// x = 2^k z, and z's interval i (lookup8 reads its low 3 bits).
struct LogReduced {
  f32v z, k;
  i32v i;
};

BCASTGEN_SIMD_FN LogReduced log_reduce(f32v x) {
  // Subnormals: scaled by 2^23, then their exponent field lowered by 23.
  // That ix is no float's bits, but k below comes out 23 lower and z the
  // same, with no correction of k afterwards.
  const f32v scaled = from_bits_f32(subtract_i32(bits_f32(multiply_f32(x, splat_f32(0x1p+23f))), splat_i32(23 << 23)));
  const i32v ix = bits_f32(select_f32(less_f32(x, splat_f32(0x1p-126f)), scaled, x));
  const i32v t = subtract_i32(ix, splat_i32(0x3f355555));
  const i32v ki = shift_right_i32<23>(t);
  return {from_bits_f32(subtract_i32(ix, shift_left_i32<23>(ki))), cast_i32_f32(ki), shift_right_i32<20>(t)};
}

// ln(1 + r) = r + r^2 P(r): P(r) = -1/2 + r Q(r).
BCASTGEN_SIMD_FN f32v log_series(f32v r) {
  static constexpr float kP[5] = {-0x1.5690bep-3f, 0x1.9a8de6p-3f, -0x1.ffffaap-3f, 0x1.555548p-2f, -0.5f};
  return horner(kP, r);
}

BCASTGEN_SIMD_FN LogParts log_parts(f32v x) {
  static constexpr float kInvC[8] = {0x1.5a241p+0f, 0x1.3f2b3ap+0f, 0x1.2818aep+0f, 0x1.142286p+0f,
                                     0x1p+0f,       0x1.cfb2bap-1f, 0x1.a08adcp-1f, 0x1.7a17a4p-1f};
  static constexpr float kLogCHi[8] = {-0x1.34e88ep-2f, -0x1.c3abf6p-3f, -0x1.29ffeap-3f, -0x1.361db2p-4f,
                                       0.0f,            0x1.95e042p-4f,  0x1.a693a8p-3f,  0x1.36766ep-2f};
  static constexpr float kLogCLo[8] = {-0x1.1af1aep-27f, -0x1.edcae6p-28f, -0x1.ed63d8p-31f, -0x1.919fdp-30f,
                                       0.0f,             -0x1.ea0be6p-34f, 0x1.ecbc58p-30f,  0x1.2cecd8p-27f};
  const LogReduced d = log_reduce(x);
  const f32v inv_c = lookup8_f32(kInvC, d.i);
  const f32v p_hi = multiply_f32(d.z, inv_c);
  const f32v p_lo = fmadd_f32(d.z, inv_c, neg_f32(p_hi));
  const f32v r = subtract_f32(p_hi, splat_f32(1.0f));
  const f32v a = multiply_f32(d.k, splat_f32(0x1.62e4p-1f));
  const TwoSum s1 = fast_two_sum(a, lookup8_f32(kLogCHi, d.i));
  const TwoSum s2 = fast_two_sum(s1.s, r);
  f32v small = fmadd_f32(d.k, splat_f32(0x1.7f7d1cp-20f), lookup8_f32(kLogCLo, d.i));
  small = add_f32(add_f32(small, add_f32(s1.err, s2.err)), fmadd_f32(neg_f32(p_lo), r, p_lo));
  return {s2.s, fmadd_f32(multiply_f32(r, r), log_series(r), small)};
}

// ln x as hi + lo, within about 1.5 ulp (the fast tier's log): log_parts'
// reduction and series without its error-free steps. r = z/c - 1 is one
// fma, rounded (exact in interval 4, c = 1, and 0.0567 at most elsewhere,
// where |ln x| >= 0.041: 0.7 ulp). Each interval's 1/c here is the float
// near log_parts' where -ln(1/c) is within 0.0003 ulp of a float, so that
// ln c needs no low part; and k ln2 + ln c rounds once in an fma (exact
// for k = 0, where the result can be smaller than ln c; ln 2 rounded to
// float is within 0.05 ulp of ln 2). Tables: derive-math-constants.py.
BCASTGEN_SIMD_FN LogParts fast_log_parts(f32v x) {
  static constexpr float kInvC[8] = {0x1.5a208cp+0f, 0x1.3f404cp+0f, 0x1.282894p+0f, 0x1.14303ep+0f,
                                     0x1p+0f,        0x1.cfb0f2p-1f, 0x1.a0a11ep-1f, 0x1.7a059ep-1f};
  static constexpr float kLogC[8] = {-0x1.34de28p-2f, -0x1.c43326p-3f, -0x1.2a6ddep-3f, -0x1.36e92cp-4f,
                                     0.0f,            0x1.95effep-4f,  0x1.a6263cp-3f,  0x1.36a74p-2f};
  const LogReduced d = log_reduce(x);
  const f32v r = fmadd_f32(d.z, lookup8_f32(kInvC, d.i), splat_f32(-1.0f));
  const f32v hi = fmadd_f32(d.k, splat_f32(kLn2Hi), lookup8_f32(kLogC, d.i));
  return {hi, fmadd_f32(multiply_f32(r, r), log_series(r), r)};
}

// ln x's special values, over a result y computed for x > 0 finite: inf
// and NaN give x, +-0 gives -inf, x < 0 the NaN 0xffc00000 (x86's default
// NaN). An ISA with one instruction for this (AVX-512's vfixupimmps, which
// gives those same bits) defines BCASTGEN_SIMD_LOG_SPECIALS and its own.
#ifndef BCASTGEN_SIMD_LOG_SPECIALS
BCASTGEN_SIMD_FN f32v log_specials(f32v x, f32v y) {
  y = select_f32(less_f32(x, splat_f32(INFINITY)), y, x);
  y = select_f32(less_f32(abs_f32(x), splat_f32(0x1p-149f)), splat_f32(-INFINITY), y);
  return select_f32(less_f32(x, splat_f32(0.0f)), splat_f32(-NAN), y);
}
#endif

// (hi + lo) (c_hi + c_lo), rounded once: ln x in another base. The last fma
// rounds hi c_hi + (hi c_lo + lo c_hi) once, and the small sum carries
// under 0.05 ulp of error (|lo| <= 0.04 |hi| + 2^-24).
BCASTGEN_SIMD_FN f32v times_constant(const LogParts& l, float c_hi, float c_lo) {
  return fmadd_f32(l.hi, splat_f32(c_hi), fmadd_f32(l.hi, splat_f32(c_lo), multiply_f32(l.lo, splat_f32(c_hi))));
}

// ln(1 + v + v_lo) as hi + lo, for v + v_lo a double-float (|v_lo| <=
// ulp(v)), v > -1. Where |v| >= 2^-10, u = 1 + v is carried as u + u_lo
// (2Sum) and ln(u + u_lo) = ln u + u_lo / u, the second term below 2^-24 of
// the result. Below, u_lo would be as large as the result and its division
// would round by half an ulp, so the series v - v^2/2 + v^3/3 (truncation
// 2^-32 relatively) is used instead.
BCASTGEN_SIMD_FN LogParts log1p_parts(f32v v, f32v v_lo) {
  const TwoSum u = two_sum(splat_f32(1.0f), v);
  const f32v u_lo = add_f32(u.err, v_lo);
  const LogParts l = log_parts(u.s);
  const f32v series_lo = fmadd_f32(multiply_f32(v, v), fmadd_f32(v, splat_f32(0x1.555556p-2f), splat_f32(-0.5f)), v_lo);
  const auto small = less_f32(abs_f32(v), splat_f32(0x1p-10f));
  return {select_f32(small, v, l.hi), select_f32(small, series_lo, add_f32(l.lo, divide_f32(u_lo, u.s)))};
}

}  // namespace detail

// ln x, <= 1 ulp: log_parts rounded once.
BCASTGEN_SIMD_FN f32v log_f32(f32v x) {
  const detail::LogParts l = detail::log_parts(x);
  return detail::log_specials(x, add_f32(l.hi, l.lo));
}

// log2 x = ln x log2(e), <= 1 ulp: log_parts times log2(e) as hi + lo,
// rounded once. Powers of two give their exponent exactly.
BCASTGEN_SIMD_FN f32v log2_f32(f32v x) {
  return detail::log_specials(x, detail::times_constant(detail::log_parts(x), 0x1.715476p+0f, 0x1.4ae0cp-26f));
}

// log10 x = ln x log10(e), <= 1 ulp, as log2.
BCASTGEN_SIMD_FN f32v log10_f32(f32v x) {
  return detail::log_specials(x, detail::times_constant(detail::log_parts(x), 0x1.bcb7b2p-2f, -0x1.5b235ep-27f));
}

// ln(1 + x), <= 1 ulp: log1p_parts rounded once. x = -1 gives -inf,
// x < -1 NaN, subnormals stay, and -0 stays -0: its low part is -0, so that
// the series' x + lo is -0 + -0.
BCASTGEN_SIMD_FN f32v log1p_f32(f32v x) {
  const detail::LogParts l = detail::log1p_parts(x, splat_f32(-0.0f));
  return detail::log_specials(add_f32(splat_f32(1.0f), x), add_f32(l.hi, l.lo));
}

// The cube root, <= 1 ulp (within 0.5 ulp + 2^-14 by the argument here;
// bench/ulp/ measures it). |x| = 2^e m, m in [1, 2), e = 3q + r with r in
// {0, 1, 2}: cbrt |x| = 2^q cbrt a, a = m 2^r in [1, 8), |x| with its
// exponent field set to r. y = P(m - 1) 2^(r/3) is within 2^-19 of cbrt a
// (P through the Chebyshev nodes, and 2^(r/3) rounded:
// scripts/derive-math-constants.py). One Newton step y + (a - y^3) / (3 y^2)
// squares that error to 2^-38; its residual a - y^3 is small, and computed
// so: y^2 = s + s_lo exactly (an fma), then a - s y and - s_lo y each one
// fma, rounding only the small residual. The step's sum rounds once, and
// the scale by 2^q (|q| <= 50) is exact. q = round((e - 1) / 3) over the
// shifter: (e - 1) / 3 lies within 1/3 of q. Subnormals are scaled by 2^24
// first (e counts it); odd, so zeros keep their sign; inf and NaN give x.
BCASTGEN_SIMD_FN f32v cbrt_f32(f32v x) {
  static constexpr float kP[6] = {0x1.4c7608p-8f,  -0x1.78122ep-6f, 0x1.bb4718p-5f,
                                  -0x1.c09178p-4f, 0x1.55335p-2f,   0x1.00001ep+0f};
  static constexpr float kTwoToThirds[4] = {0x1p+0f, 0x1.428a3p+0f, 0x1.965feap+0f, 0.0f};  // [3]: r < 3
  const f32v ax = abs_f32(x);
  const auto subnormal = less_f32(ax, splat_f32(0x1p-126f));
  const i32v ix = detail::bits_f32(select_f32(subnormal, multiply_f32(ax, splat_f32(0x1p+24f)), ax));
  const f32v e = subtract_f32(cast_i32_f32(detail::shift_right_i32<23>(ix)),
                              select_f32(subnormal, splat_f32(127.0f + 24.0f), splat_f32(127.0f)));
  const f32v shifter = splat_f32(detail::kShifter);
  const f32v zq = detail::fmadd_f32(subtract_f32(e, splat_f32(1.0f)), splat_f32(1.0f / 3.0f), shifter);
  const f32v q = subtract_f32(zq, shifter);
  const i32v r = detail::held_integer(add_f32(detail::fmadd_f32(q, splat_f32(-3.0f), e), shifter));
  const i32v fraction = bitwise_and_i32(ix, splat_i32(0x007fffff));
  const f32v m = detail::from_bits_f32(bitwise_or_i32(fraction, splat_i32(127 << 23)));
  const f32v a = detail::from_bits_f32(bitwise_or_i32(fraction, detail::shift_left_i32<23>(add_i32(r, splat_i32(127)))));
  const f32v p = detail::horner(kP, subtract_f32(m, splat_f32(1.0f)));
  const f32v y = multiply_f32(p, detail::lookup4_f32(kTwoToThirds, r));
  const f32v s = multiply_f32(y, y);
  const f32v s_lo = detail::fmadd_f32(y, y, neg_f32(s));
  const f32v residual = detail::fmadd_f32(neg_f32(s_lo), y, detail::fmadd_f32(neg_f32(s), y, a));
  const f32v root = add_f32(y, divide_f32(residual, multiply_f32(s, splat_f32(3.0f))));
  const f32v signed_root = detail::times_sign_of(multiply_f32(root, detail::power_of_two(detail::held_integer(zq))), x);
  const f32v finite = select_f32(less_f32(ax, splat_f32(0x1p-149f)), x, signed_root);  // +-0: x
  return select_f32(less_f32(ax, splat_f32(INFINITY)), finite, x);
}

// ln(1 + e^x), <= 2 ulp, in a form that neither overflows nor cancels:
// max(x, 0) + ln(1 + E), E = e^-|x| <= 1 carried as big_e + big_e_err
// (small_exp) into log1p_parts, and the last sum by 2Sum. For x below
// about -88, the result is E itself (subnormal results kept).
// softplus(-inf) = 0, softplus(inf) = inf, NaN gives NaN.
BCASTGEN_SIMD_FN f32v softplus_f32(f32v x) {
  const detail::SmallExp e = detail::small_exp(detail::exp_parts(neg_f32(abs_f32(x))));
  const detail::LogParts l = detail::log1p_parts(e.big_e, e.big_e_err);
  const f32v m = detail::max_or_b_f32(splat_f32(0.0f), x);  // NaN: x
  const detail::TwoSum s = detail::two_sum(l.hi, m);
  const f32v y = add_f32(s.s, add_f32(s.err, l.lo));
  return select_f32(less_f32(x, splat_f32(INFINITY)), y, x);
}

namespace detail {

// hardsigmoid's slope: 1/6 rounded to float (0x3e2aaaab), ONNX
// HardSigmoid's alpha (a float attribute) as PyTorch exports Hardsigmoid,
// and the alpha of ONNX HardSwish's definition.
constexpr float kHardsigmoidAlpha = 0x1.555556p-3f;

}  // namespace detail

// max(0, min(1, x alpha + 1/2)), alpha = 1/6 rounded to float, exact to
// that definition: the product rounded, then the sum rounded (two
// operations, never one fma: a fused form gives other bits wherever the
// product is inexact), then clamped. The clamp's bounds are the first
// operands, so that NaN (its compares false) passes through: NaN gives NaN,
// -inf gives +0, inf gives 1, and every x <= -3 gives +0 (-3 alpha rounds
// to -1/2).
BCASTGEN_SIMD_FN f32v hardsigmoid_f32(f32v x) {
  const f32v s = add_f32(multiply_f32(x, splat_f32(detail::kHardsigmoidAlpha)), splat_f32(0.5f));
  return detail::max_or_b_f32(splat_f32(0.0f), detail::min_or_b_f32(splat_f32(1.0f), s));
}

// x hardsigmoid(x), exact to that definition: one product, rounded. x is
// clamped to -3 as the factor, which changes no finite result (hardsigmoid
// is +0 there, and x times +0 is -0 either way) but gives -0 for -inf (the
// limit, as silu's), not the NaN of -inf * 0. NaN gives NaN, inf gives inf.
BCASTGEN_SIMD_FN f32v hardswish_f32(f32v x) {
  return multiply_f32(detail::max_or_b_f32(splat_f32(-3.0f), x), hardsigmoid_f32(x));
}

// x tanh(softplus(x)) = x tanh(ln(1 + e^x)), <= 1 ulp.
//
// With E = e^x, tanh(ln(1 + E)) = n / (n + 2), n = E (E + 2), which has no
// cancellation; written in t = e^-|x| <= 1 (small_exp), nothing overflows:
//   x <  0:  T = t Q,  Q = (1 + t/2) / (1 + t + t^2/2),
//   x >= 0:  T = Q,    Q = (1 + 2t) / (1 + 2t + 2t^2),
// both Q = N / (N + M) with N = 1 + a t, M = a t (b + t), a = 1/2 and b = 1
// below 0, a = 2 and b = 0 above; Q is in [0.6, 1]. a t is exact, and N,
// b + t, M and N + M are double-floats (Fast2Sum: 1 is a multiple of a t's
// ulp, b >= t, N >= M), so Q, from inverse and times_inverse_lo, is within
// 2^-40 of the value at t; t is within 0.15 ulp, and Q's relative
// sensitivity to it is at most 0.53. Below 0, t's unscaled s + s_err is a
// factor of the numerator and its 2^k is applied last (silu's way), so
// that the results of x in [-91.8, -87.3], normal where t is not, keep
// their accuracy, and subnormal ones round once more at most; so do those
// of |x| < 2^-100, scaled. The result |x| T rounds once (one fma) and
// takes x's sign, so -0 stays -0. |x| is
// clamped to 120 as a factor below 0 (mish(x) rounds to -0 below -108.7,
// and -inf gives -0, the limit, not the NaN of -inf * 0) and in the small
// term (where +inf would meet a low part). mish(x) rounds to x from
// x = 8.706489 on (x 2t^2 under half an ulp of x): no special case.
BCASTGEN_SIMD_FN f32v mish_f32(f32v x) {
  const detail::SmallExp e = detail::small_exp(detail::exp_parts(neg_f32(abs_f32(x))));
  const auto negative = less_f32(x, splat_f32(0.0f));
  const f32v a = select_f32(negative, splat_f32(0.5f), splat_f32(2.0f));
  const f32v b = select_f32(negative, splat_f32(1.0f), splat_f32(0.0f));
  const f32v at = multiply_f32(a, e.big_e), at_lo = multiply_f32(a, e.big_e_err);
  const detail::TwoSum n = detail::fast_two_sum(splat_f32(1.0f), at);
  const f32v n_lo = add_f32(n.err, at_lo);
  const detail::TwoSum w = detail::fast_two_sum(b, e.big_e);
  const f32v w_lo = add_f32(w.err, e.big_e_err);
  const f32v m = multiply_f32(at, w.s);
  const f32v m_lo = detail::fmadd_f32(at, w_lo, detail::fmadd_f32(at_lo, w.s, detail::fmadd_f32(at, w.s, neg_f32(m))));
  const detail::TwoSum d = detail::fast_two_sum(n.s, m);
  const detail::Inverse q = detail::inverse(d.s, add_f32(d.err, add_f32(n_lo, m_lo)));
  // The numerator: (s + s_err) N below 0, N above.
  const f32v c = select_f32(negative, e.s, splat_f32(1.0f)), c_lo = select_f32(negative, e.s_err, splat_f32(0.0f));
  const f32v num = multiply_f32(c, n.s);
  const f32v num_lo = detail::fmadd_f32(c_lo, n.s, detail::fmadd_f32(c, n_lo, detail::fmadd_f32(c, n.s, neg_f32(num))));
  const f32v p_hi = multiply_f32(num, q.q);
  const f32v p_lo = detail::times_inverse_lo(num, num_lo, q, p_hi);
  // |x| below 2^-100 is scaled by 2^64 and the result by 2^-64 (as its z
  // says), so that x p_lo stays normal and a subnormal result rounds once.
  const f32v shifter = splat_f32(detail::kFractionShifter<3>);
  const f32v a0 = abs_f32(detail::max_or_b_f32(splat_f32(-120.0f), x));
  const auto tiny = less_f32(a0, splat_f32(0x1p-100f));
  const f32v am = select_f32(tiny, multiply_f32(a0, splat_f32(0x1p+64f)), a0);
  const f32v y = detail::fmadd_f32(am, p_hi, multiply_f32(detail::min_or_b_f32(splat_f32(120.0f), am), p_lo));
  const f32v z = select_f32(tiny, subtract_f32(shifter, splat_f32(512.0f)), select_f32(negative, e.z, shifter));
  return detail::times_sign_of(detail::times_power_of_two<3>(y, z), x);
}

namespace detail {

// gelu_tanh's sigmoid argument 2z = x (c1 + c3 x^2), c1 = 2 sqrt(2/pi),
// c3 = 0.044715 c1, as a double-float t + t_lo (about 2^-44 relatively),
// for |x| <= 12. Where the result is about x e^(2z), its relative error is
// |2z| times 2z's, so a rounded 2z would cost up to 100 ulp. x^2 = s + s_lo
// exactly; u = c1 + c3 s rounds in one fma, and its error is a second fma
// against c1_hi - u, which is exact (c1_hi keeps 20 bits, so the difference
// fits a float for u up to 16; u <= 11.9 here), plus the small terms
// (c3 s_lo, c3_lo s, c1_lo); then t = u x as an exact product plus u_lo x.
// Constants: scripts/derive-math-constants.py.
struct GeluTanhArgument {
  f32v t, t_lo;
};

BCASTGEN_SIMD_FN GeluTanhArgument gelu_tanh_argument(f32v xz) {
  const f32v s = multiply_f32(xz, xz);
  const f32v s_lo = fmadd_f32(xz, xz, neg_f32(s));
  const f32v c1_hi = splat_f32(0x1.98846p+0f), c3_hi = splat_f32(0x1.2444f2p-4f);
  const f32v u = fmadd_f32(c3_hi, s, c1_hi);
  const f32v small = fmadd_f32(c3_hi, s_lo, fmadd_f32(splat_f32(0x1.49b16ap-29f), s, splat_f32(-0x1.985794p-21f)));
  const f32v u_lo = add_f32(fmadd_f32(c3_hi, s, subtract_f32(c1_hi, u)), small);
  const f32v t = multiply_f32(u, xz);
  return {t, fmadd_f32(u_lo, xz, fmadd_f32(u, xz, neg_f32(t)))};
}

}  // namespace detail

// x/2 (1 + tanh(z)) = x sigmoid(2 z), z = sqrt(2/pi) (x + 0.044715 x^3),
// <= 2 ulp: the sigmoid form does not cancel for negative x; 2z is a
// double-float (gelu_tanh_argument) and sigmoid takes it whole (exp_parts
// with a low part). x is clamped to [-12, 12] inside z (beyond, sigmoid(2z)
// is 0 or 1 exactly, and x^3 stays finite); gelu_tanh(-inf) = -0,
// gelu_tanh(inf) = inf.
BCASTGEN_SIMD_FN f32v gelu_tanh_f32(f32v x) {
  const f32v xz = detail::min_or_b_f32(splat_f32(12.0f), detail::max_or_b_f32(splat_f32(-12.0f), x));
  const detail::GeluTanhArgument a = detail::gelu_tanh_argument(xz);
  // sigmoid(t + t_lo): E = e^-|t + t_lo|.
  const auto negative = less_f32(a.t, splat_f32(0.0f));
  const f32v e_lo = select_f32(negative, a.t_lo, neg_f32(a.t_lo));
  const detail::SigmoidParts p =
      detail::sigmoid_parts(a.t, detail::small_exp(detail::exp_parts(neg_f32(abs_f32(a.t)), e_lo)));
  const f32v xm = detail::max_or_b_f32(splat_f32(-12.0f), x);
  const f32v y = detail::fmadd_f32(xm, p.hi, multiply_f32(xz, p.lo));
  return detail::times_power_of_two<3>(y, p.z);
}

namespace detail {

// gelu's interval of a = |x| (gelu_f32): the exponent and
// first mantissa bit of a (half binades, 0.25 is interval 1), with
// everything below 0.25 read as 0.2 (interval 0); 13 intervals to 16.
BCASTGEN_SIMD_FN i32v gelu_interval(f32v a) {
  return subtract_i32(shift_right_i32<22>(bits_f32(max_or_b_f32(splat_f32(0.2f), a))), splat_i32(249));
}

// A polynomial per interval, its coefficients from 16-entry tables (looked
// up by the interval i): c[0] + c[1] (a double-float constant term), then
// c[2] .. c[8] for t^1 .. t^7; returned as hi + lo, the last addition exact
// (Fast2Sum: the constant term is the larger, or 0). The sum over t^1 ..
// t^7 goes by Estrin's scheme: gelu is bound by its dependency chain, and
// this is 4 steps where Horner's takes 7 (0.80 to 0.74 ns per element on
// Zen 5).
BCASTGEN_SIMD_FN LogParts table_polynomial(const float (&c)[9][16], i32v i, f32v t) {
  const f32v t2 = multiply_f32(t, t), t4 = multiply_f32(t2, t2);
  const f32v p23 = fmadd_f32(t, lookup16_f32(c[3], i), lookup16_f32(c[2], i));
  const f32v p45 = fmadd_f32(t, lookup16_f32(c[5], i), lookup16_f32(c[4], i));
  const f32v p67 = fmadd_f32(t, lookup16_f32(c[7], i), lookup16_f32(c[6], i));
  const f32v q = fmadd_f32(t4, fmadd_f32(t2, lookup16_f32(c[8], i), p67), fmadd_f32(t2, p45, p23));
  const f32v tq = multiply_f32(t, q);
  const TwoSum hi = fast_two_sum(lookup16_f32(c[0], i), tq);
  return {hi.s, add_f32(hi.err, lookup16_f32(c[1], i))};
}

// e^(-h x^2 + L), h = 1 or 1/2, L = l.hi + l.lo: x^2 exactly as sq + sq_lo
// (an fma), -h sq + l.hi as s + s_err (2Sum), and exp of the double-float
// s + (s_err - h sq_lo + l.lo), as small_exp's exact parts.
BCASTGEN_SIMD_FN SmallExp exp_minus_square(f32v x, float h, const LogParts& l) {
  const f32v sq = multiply_f32(x, x);
  const f32v sq_lo = fmadd_f32(x, x, neg_f32(sq));
  const TwoSum s = two_sum(multiply_f32(sq, splat_f32(-h)), l.hi);
  return small_exp(exp_parts(s.s, add_f32(s.err, fmadd_f32(sq_lo, splat_f32(-h), l.lo))));
}

}  // namespace detail

// erf(x), <= 1 ulp, odd: computed for a = |x| and given x's sign.
// Below a = 0.875, a + a R(a^2) (R: minimax, error 2^-30). Above, 1 -
// erfc(a) with erfc(a) = e^Q(a), Q a degree-8 minimax polynomial for
// ln erfc(a) on [0.875, 3.92] in t = a - 0.875. The result's error from
// erfc's is erfc(a) (at most 0.22) times it: so Q rounds once in f32 (its
// approximation error, weighted so, is 0.14 ulp of the result), and e^Q
// needs no table: 2^n e^u with u = q - n ln2 and e^u = 1 + u P(u), P of
// degree 5 (relative error 0.09 2^-24 on |u| <= ln2/2). Then 1 - 2^n (1 +
// u P) is one fma, rounded once: 1 - 2^n is exact for n >= -24, and so is
// 2^n u. n is held at -24 (below it erfc < 2^-24.5, so the wider u, down to
// -1.1, costs nothing visible), and a is clamped to 3.92, where erf rounds
// to 1 (erfc(3.92) < 2^-25). Q goes by Horner's scheme: 8 fmas, where
// Estrin's for its terms of degree 3 and up took a product more and three
// more live values, which spill when AVX2 runs four vectors at a time
// (math_pack.inl): 0.91x the time on Zen 4's avx2 (bench/math/ab.sh), and
// within 1% of Estrin's one vector at a time there, where its chain is 8
// cycles longer. Measured over all 2^32 inputs: 0.879 ulp (Estrin's: the
// same, with 70 more results not correctly rounded). Coefficients:
// scripts/derive-math-polynomials.sollya.
BCASTGEN_SIMD_FN f32v erf_f32(f32v x) {
  const f32v a = abs_f32(x);
  const f32v a2 = multiply_f32(a, a);
  f32v r = detail::fmadd_f32(a2, splat_f32(0x1.6d15a2p-14f), splat_f32(-0x1.aec8fap-11f));
  r = detail::fmadd_f32(a2, r, splat_f32(0x1.553fdep-8f));
  r = detail::fmadd_f32(a2, r, splat_f32(-0x1.b819aap-6f));
  r = detail::fmadd_f32(a2, r, splat_f32(0x1.ce2e78p-4f));
  r = detail::fmadd_f32(a2, r, splat_f32(-0x1.812744p-2f));
  r = detail::fmadd_f32(a2, r, splat_f32(0x1.06eba8p-3f));
  const f32v small = detail::fmadd_f32(a, r, a);
  // (Below 0.875, t < 0 and the large branch's value is not taken.)
  const f32v t = subtract_f32(detail::min_or_b_f32(splat_f32(3.92f), a), splat_f32(0.875f));
  f32v q = detail::fmadd_f32(t, splat_f32(0x1.bfebcp-20f), splat_f32(-0x1.24e088p-15f));
  q = detail::fmadd_f32(t, q, splat_f32(0x1.700c7cp-12f));
  q = detail::fmadd_f32(t, q, splat_f32(-0x1.2e740ep-9f));
  q = detail::fmadd_f32(t, q, splat_f32(0x1.76dfd8p-7f));
  q = detail::fmadd_f32(t, q, splat_f32(-0x1.80980ep-5f));
  q = detail::fmadd_f32(t, q, splat_f32(-0x1.a72ed6p-1f));
  q = detail::fmadd_f32(t, q, splat_f32(-0x1.37117cp+1f));
  q = detail::fmadd_f32(t, q, splat_f32(-0x1.88672ep+0f));
  // erfc = e^q = 2^n e^u, n = max(round(q / ln2), -24), u = q - n ln2 (one
  // rounding; n times ln2's own error in f32, weighted by erfc < 2^(n+1),
  // is under 0.03 ulp of the result). z holds n + 127 (n in [-24, 0]), so
  // that 2^n is its bits shifted.
  const f32v shifter = splat_f32(detail::kShifter + 127.0f);
  const f32v z = detail::max_or_b_f32(splat_f32(detail::kShifter + 103.0f),
                                      detail::fmadd_f32(q, splat_f32(detail::kInvLn2), shifter));
  const f32v n = subtract_f32(z, shifter);
  const f32v u = detail::fmadd_f32(n, splat_f32(-detail::kLn2Hi), q);
  const f32v one = splat_f32(1.0f);
  const f32v pu = detail::exp_polynomial(u);
  const f32v scale = detail::power_of_two_held(z);
  const f32v large = detail::fmadd_f32(neg_f32(multiply_f32(scale, u)), pu, subtract_f32(one, scale));
  // NaN compares false: it takes the small branch, which propagates it.
  const f32v y = select_f32(less_f32(splat_f32(0.875f), a), large, small);
  return detail::times_sign_of(y, x);
}

// x/2 (1 + erf(x / sqrt 2)), <= 2 ulp, with erfc for the negative side,
// where 1 + erf cancels: erfc(|x| / sqrt 2) = E = e^(-x^2/2 + L(|x|)), L a
// degree-7 polynomial in |x| itself (so x / sqrt 2 is never rounded) on 13
// intervals of [0, 16): [0, 0.25), then halves of binades (absolute error
// 2^-29.3; L(0) = 0, so the first has no constant term). x <= 0 gives x/2 E
// (one rounding, then the scale; -0 stays -0), x > 0 gives x - x/2 E (at
// least x/2: no cancellation). |x| is clamped to 15.99 (gelu(-15.99) rounds
// to -0; gelu(x) = x from about 5.7); gelu(-inf) = -0, gelu(inf) = inf.
// Coefficients: scripts/derive-math-polynomials.sollya.
BCASTGEN_SIMD_FN f32v gelu_f32(f32v x) {
  static constexpr float kL[9][16] = {
      {0.0f, -0x1.dc7c5ep-3f, -0x1.44c734p-2f, -0x1.be506ep-2f, -0x1.29496ap-1f, -0x1.8be49cp-1f, -0x1.fc6a9ap-1f, -0x1.4374cep+0f, -0x1.8c445cp+0f, -0x1.df31a4p+0f, -0x1.1877fp+1f, -0x1.44e1b4p+1f, -0x1.6f5876p+1f, 0.0f, 0.0f, 0.0f},
      {0.0f, -0x1.3b892ap-28f, -0x1.b6fa9cp-27f, -0x1.c3b9c4p-29f, 0x1.d5036p-28f, 0x1.fa293cp-26f, -0x1.524eecp-27f, -0x1.a20072p-25f, -0x1.8f5b1ap-25f, -0x1.0e3d4cp-27f, -0x1.f36e2ep-24f, -0x1.f67c5ep-25f, -0x1.e75d1ap-24f, 0.0f, 0.0f, 0.0f},
      {-0x1.988454p-1f, -0x1.638744p-1f, -0x1.50fceap-1f, -0x1.37aebcp-1f, -0x1.1a17bap-1f, -0x1.ea4ee8p-2f, -0x1.9d700cp-2f, -0x1.4a7d9cp-2f, -0x1.016cb6p-2f, -0x1.7df5cap-3f, -0x1.19b184p-3f, -0x1.91ca36p-4f, -0x1.21a8dp-4f, 0.0f, 0.0f, 0.0f},
      {0x1.741aacp-3f, 0x1.340b06p-3f, 0x1.1d89dp-3f, 0x1.fdd728p-4f, 0x1.b6fc62p-4f, 0x1.60b1a8p-4f, 0x1.0b1e76p-4f, 0x1.6c6fccp-5f, 0x1.d2652ap-6f, 0x1.0bd96ep-6f, 0x1.2b3406p-7f, 0x1.3581cp-8f, 0x1.448b98p-9f, 0.0f, 0.0f, 0.0f},
      {-0x1.29e95p-5f, -0x1.f2c78ap-6f, -0x1.ce48e8p-6f, -0x1.99a768p-6f, -0x1.5b713p-6f, -0x1.0d5408p-6f, -0x1.7f4818p-7f, -0x1.d45dd4p-8f, -0x1.00b24ep-8f, -0x1.d8fe64p-10f, -0x1.99af1ap-11f, -0x1.383276p-12f, -0x1.e02c6ap-14f, 0.0f, 0.0f, 0.0f},
      {0x1.4ea39ap-8f, 0x1.2c960ep-8f, 0x1.208ad4p-8f, 0x1.0a0b4cp-8f, 0x1.d1f65cp-9f, 0x1.6feef2p-9f, 0x1.02abf8p-9f, 0x1.2988e4p-10f, 0x1.22dc38p-11f, 0x1.bc7d66p-13f, 0x1.315308p-14f, 0x1.5bcd1cp-16f, 0x1.8bb966p-18f, 0.0f, 0.0f, 0.0f},
      {-0x1.cb1f96p-10f, 0x1.d69694p-9f, 0x1.8ebbecp-7f, -0x1.583bbap-10f, 0x1.f8ab92p-15f, -0x1.8e86d8p-12f, -0x1.13dfb6p-12f, -0x1.5aaf64p-13f, -0x1.3eba68p-14f, -0x1.a4b70ep-16f, -0x1.d766c2p-18f, -0x1.9640bcp-20f, -0x1.59061cp-22f, 0.0f, 0.0f, 0.0f},
      {0x1.3644fap-8f, -0x1.5f2f1ap-11f, -0x1.8d9218p-11f, -0x1.55358ap-16f, -0x1.3deffep-20f, 0x1.a5e1e2p-16f, 0x1.efa1fcp-16f, 0x1.690ee6p-16f, 0x1.4df714p-17f, 0x1.92b68ep-19f, 0x1.7329eap-21f, 0x1.fcda3p-24f, 0x1.3e4496p-26f, 0.0f, 0.0f, 0.0f},
      {-0x1.5fd42cp-8f, -0x1.059ac6p-1f, -0x1.a89d34p+0f, 0x1.f7978cp-6f, -0x1.001acap-6f, 0x1.f13e24p-16f, -0x1.a81ae8p-13f, -0x1.9040fap-18f, -0x1.28306p-19f, -0x1.88e028p-22f, -0x1.d6bbd8p-25f, -0x1.34588ep-27f, -0x1.1695eep-30f, 0.0f, 0.0f, 0.0f},
  };
  // Each interval's center, from which t = |x| - center is exact.
  static constexpr float kCenter[16] = {0.0f, 0.3125f, 0.4375f, 0.625f, 0.875f, 1.25f, 1.75f, 2.5f,
                                        3.5f, 5.0f,    7.0f,    10.0f,  14.0f,  0.0f,  0.0f,  0.0f};
  const f32v a = detail::min_or_b_f32(splat_f32(15.99f), abs_f32(x));
  const i32v i = detail::gelu_interval(a);
  const f32v t = subtract_f32(a, detail::lookup16_f32(kCenter, i));
  const detail::SmallExp e = detail::exp_minus_square(a, 0.5f, detail::table_polynomial(kL, i, t));
  const f32v half_x = multiply_f32(detail::max_or_b_f32(splat_f32(-16.0f), x), splat_f32(0.5f));
  // The scale by 2^(n >> 3) is exact unless the result is subnormal (where
  // |x| < 1, n >> 3 is -2 to 0 and the product is normal), so it rounds at
  // most once on every ISA.
  const f32v negative =
      detail::times_power_of_two<3>(detail::fmadd_f32(half_x, e.s, multiply_f32(half_x, e.s_err)), e.z);
  // x (w_hi + w_lo) for x > 0, w_hi + w_lo = 1 - E/2 with E = big_e +
  // big_e_err: 1 - w_hi is exact, and so is w_hi's rounding error from an
  // fma. (x - x/2 big_e, one fma, would carry big_e's rounding: up to an
  // ulp more where E is near 1.) x is held to 16 in the small term, where
  // inf would meet w_lo = 0.
  const f32v one = splat_f32(1.0f), minus_half = splat_f32(-0.5f);
  const f32v w_hi = detail::fmadd_f32(e.big_e, minus_half, one);
  const f32v w_lo =
      detail::fmadd_f32(e.big_e_err, minus_half, detail::fmadd_f32(e.big_e, minus_half, subtract_f32(one, w_hi)));
  const f32v positive = detail::fmadd_f32(x, w_hi, multiply_f32(detail::min_or_b_f32(splat_f32(16.0f), x), w_lo));
  // +-0 and NaN take the negative side, which keeps the sign of zero.
  return select_f32(less_f32(splat_f32(0.0f), x), positive, negative);
}

// --- The fast tier (accuracy: fast; docs/design/accuracy.md) ---------------
//
// Within 4 ulp over the whole range, tails and subnormal results included,
// for a half to three quarters of the operations: error-free
// transformations only where an argument's error would be amplified
// (gelu_tanh's 2z, log1p's 1 + x), one IEEE division where the 1-ulp forms
// carry 1/(1 + E) as a double-float. The same wrappers, so the same bits on
// every ISA, as above.

namespace detail {

// The fast tier's e^t rounds t / ln2 to an integer n with this shifter,
// kShifter + 191: z = t / ln2 + it holds n + 191 in its low bits, so that
// those bits shifted to the exponent field are 2^(n + 64) (n + 191 in [18,
// 191] for the fast tier's n in [-173, 0]; the shift drops the shifter's
// own bits).
constexpr float kFastExpShifter = kShifter + 191.0f;

// 2^(n + 64) for the n that z holds over kFastExpShifter: z's low bits
// shifted to the exponent field, one operation.
BCASTGEN_SIMD_FN f32v fast_two_to_n_plus_64(f32v z) { return power_of_two_held(z); }

// -min(|x|, c) = max(-|x|, -c), NaN staying NaN: x with its sign bit set,
// then clamped. (AVX-512's vrangeps would do it in one, but it returns c
// for a quiet NaN x.)
BCASTGEN_SIMD_FN f32v minus_abs_clamped(f32v x, float c) {
  return max_or_b_f32(splat_f32(-c), from_bits_f32(bitwise_or_i32(bits_f32(x), splat_i32(INT32_MIN))));
}

// e^t for -120 <= t <= 0 (or NaN) before its scaling: y 2^n, n held in z.
// n = round(t / ln2), t = n ln2 + r (|r| <= ln2/2, ln2 as hi + lo, two
// fmas: the first exact, the second rounds r), y = 1 + r P(r)
// (exp_polynomial, erf_f32's, rounded once), within 0.91 ulp of e^t / 2^n
// over every float t in [-120, 0] (0.904 at -70.35, measured). No table:
// a 16-entry one of 2^(j/16) rounded to float took 1.2 ulp, and two
// permutes and a blend per lookup on AVX2. (-120 is past -103.97, where
// e^t rounds to 0.)
struct FastExp {
  f32v y, z;
};

BCASTGEN_SIMD_FN ExpReducedLn2 fast_exp_reduce(f32v t) { return exp_reduce_ln2(t, kFastExpShifter); }

BCASTGEN_SIMD_FN FastExp fast_exp_of_reduced(ExpReducedLn2 e) {
  return {exp_of_reduced(e.r), e.z};
}

BCASTGEN_SIMD_FN FastExp fast_exp_nonpositive(f32v t) { return fast_exp_of_reduced(fast_exp_reduce(t)); }

// e^(t + t_lo), the same, for a double-float argument (|t_lo| <= ulp(t)/2):
// t_lo joins r, whose rounding it is below.
BCASTGEN_SIMD_FN FastExp fast_exp_nonpositive(f32v t, f32v t_lo) {
  const ExpReducedLn2 e = fast_exp_reduce(t);
  return fast_exp_of_reduced({add_f32(e.r, t_lo), e.z});
}

// exp_polynomial's Horner scheme for e^r = 1 + r P(r), taken over s = -2r
// and scaled by 2^-64: the coefficient of degree j times (-1/2)^(j + 1)
// 2^-64, the constant 2^-64. Each step is the other's times a power of two
// (normal), so its value is exactly 2^-64 (1 + r P(r)) as that rounds.
struct ExpMinusHalfPolynomial {
  float c[7];
};

constexpr ExpMinusHalfPolynomial exp_minus_half_polynomial() {
  ExpMinusHalfPolynomial p{};
  float scale = -0x1p-64f / 2;  // for degree 0; halved and negated per degree
  for (int j = 5; j >= 0; --j, scale *= -0.5f) p.c[j] = kExpPolynomial[j] * scale;
  p.c[6] = 0x1p-64f;
  return p;
}

constexpr ExpMinusHalfPolynomial kExpMinusHalfPolynomial = exp_minus_half_polynomial();

// e^(-(q + q_lo)/2) = 2^n y for q >= 0 (up to 210, or NaN), |q_lo| <=
// ulp(q)/2: y 2^-64 in y, n held in z over kFastExpShifter. The same n and
// the same bits as fast_exp_nonpositive(-q/2, -q_lo/2), with -1/2 taken
// into the constants: s = q + 2n ln2 + q_lo is -2 times its r
// (exp_reduce_ln2's constants times -1/2 or -2, exact; the first fma
// exact), and the polynomial's coefficients are scaled to match
// (kExpMinusHalfPolynomial). One product fewer than halving q, and one
// fewer than scaling 2^(n + 64) back, for gelu's e^(-a^2/2).
BCASTGEN_SIMD_FN FastExp fast_exp_minus_half(f32v q, f32v q_lo) {
  const f32v shifter = splat_f32(kFastExpShifter);
  const f32v z = fmadd_f32(q, splat_f32(-0.5f * kInvLn2), shifter);
  const f32v n = subtract_f32(z, shifter);
  const f32v s = fmadd_f32(n, splat_f32(-2.0f * kLn2Lo), fmadd_f32(n, splat_f32(2.0f * kLn2Hi), q));
  return {horner(kExpMinusHalfPolynomial.c, add_f32(s, q_lo)), z};
}

// e^t 2^64 = y 2^(n + 64), exact (normal: |y| in [1/2, 2] and n + 64 >= -109).
BCASTGEN_SIMD_FN f32v fast_exp_times_2_64(const FastExp& e) { return multiply_f32(e.y, fast_two_to_n_plus_64(e.z)); }

// E 2^64 for E = e^-|x| (|x| clamped to 120): the sigmoids' and
// fast_softplus's start. Carried so, E goes into a division that rounds
// once where its result is subnormal, and is E itself after one product.
BCASTGEN_SIMD_FN f32v fast_exp_minus_abs_2_64(f32v x) {
  return fast_exp_times_2_64(fast_exp_nonpositive(minus_abs_clamped(x, 120.0f)));
}

// The same for a double-float x + x_lo: e^-|x + x_lo| 2^64 (the low part
// takes x's sign flipped where x >= 0).
BCASTGEN_SIMD_FN f32v fast_exp_minus_abs_2_64(f32v x, f32v x_lo) {
  const f32v lo = select_f32(less_f32(x, splat_f32(0.0f)), x_lo, neg_f32(x_lo));
  return fast_exp_times_2_64(fast_exp_nonpositive(minus_abs_clamped(x, 120.0f), lo));
}

// factor sigmoid(t) for e_2_64 = E 2^64, E = e^-|t|, and a factor of t's
// sign: factor 2^64 / (2^64 + E 2^64) for t >= 0 and (factor E 2^64) /
// (2^64 + E 2^64) below, as fast_sigmoid_f32 has it: both terms scaled by
// 2^64, so that the quotient rounds once where it is subnormal (a factor
// times a subnormal sigmoid would carry that rounding 100 times over), and
// nothing is scaled back. The numerator's product rounds once (normal:
// |factor| E 2^64 is at least 2^-102 for the callers' nonzero factors, |t|
// <= 120), and 2^64 + E 2^64 as 1 + E would: three roundings, as factor (1 /
// (1 + E)) had, in three operations on the fma pipes where that took six
// (a blend, a product and the division; 1.08x to 1.10x faster on Zen 3).
// factor 2^64 overflows from 2^64 on, where the result is the factor
// itself: the quotient is at most |factor| (the sigmoid is at most 1, and
// every rounding is monotone), so min(|factor|, quotient) gives it back there
// and changes nothing elsewhere, NaN staying NaN. fast_silu's and
// fast_gelu_tanh's end.
BCASTGEN_SIMD_FN f32v times_fast_sigmoid(f32v factor, f32v t, f32v e_2_64) {
  const f32v two_to_64 = splat_f32(0x1p64f);
  const f32v scaled = select_f32(less_f32(t, splat_f32(0.0f)), e_2_64, two_to_64);
  const f32v quotient = divide_f32(multiply_f32(factor, scaled), add_f32(two_to_64, e_2_64));
  return min_or_b_f32(abs_f32(factor), quotient);
}

}  // namespace detail

// 1 / (1 + e^-x), <= 4 ulp: E = e^-|x| (fast_exp_minus_abs_2_64), then one
// division, 1/(1 + E) for x >= 0 and E/(1 + E) below (neither cancels),
// both terms times 2^64: E 2^64 is exact, 2^64 + E 2^64 rounds as 1 + E
// would, and the quotient rounds once, subnormal or not. sigmoid(-inf) = 0,
// sigmoid(inf) = 1, NaN gives NaN.
BCASTGEN_SIMD_FN f32v fast_sigmoid_f32(f32v x) {
  const f32v e_2_64 = detail::fast_exp_minus_abs_2_64(x);
  const f32v two_to_64 = splat_f32(0x1p64f);
  return divide_f32(select_f32(less_f32(x, splat_f32(0.0f)), e_2_64, two_to_64), add_f32(two_to_64, e_2_64));
}

// x sigmoid(x), <= 4 ulp (times_fast_sigmoid). x is clamped to -120 as a
// factor (the result rounds to -0 below about -109, and -inf gives -0, not
// NaN).
BCASTGEN_SIMD_FN f32v fast_silu_f32(f32v x) {
  return detail::times_fast_sigmoid(detail::max_or_b_f32(splat_f32(-120.0f), x), x, detail::fast_exp_minus_abs_2_64(x));
}

// x sigmoid(2z), gelu_tanh, <= 4 ulp: 2z as gelu_tanh_f32 has it (a
// double-float: a rounded 2z would cost up to 100 ulp in the negative
// tail), then times_fast_sigmoid with the low part in E's argument. x is
// clamped to [-11, 11] inside z, so that |2z| <= 112.5 stays in the fast
// exp's range (gelu_tanh(-11) is below 2^-150, and sigmoid(2z) is 1 beyond
// 11), and to -11 as a factor: gelu_tanh(-inf) = -0, gelu_tanh(inf) = inf,
// NaN gives NaN.
BCASTGEN_SIMD_FN f32v fast_gelu_tanh_f32(f32v x) {
  const f32v xz = detail::min_or_b_f32(splat_f32(11.0f), detail::max_or_b_f32(splat_f32(-11.0f), x));
  const detail::GeluTanhArgument a = detail::gelu_tanh_argument(xz);
  return detail::times_fast_sigmoid(detail::max_or_b_f32(splat_f32(-11.0f), x), a.t,
                                    detail::fast_exp_minus_abs_2_64(a.t, a.t_lo));
}

namespace detail {

// (hi + lo) c rounded once, c rounded to float (0.5 ulp more than
// times_constant, one operation less): ln x in another base.
BCASTGEN_SIMD_FN f32v fast_times_constant(const LogParts& l, float c) {
  return fmadd_f32(l.hi, splat_f32(c), multiply_f32(l.lo, splat_f32(c)));
}

}  // namespace detail

// ln x, log2 x and log10 x, <= 4 ulp: fast_log_parts rounded once, or
// times the base's constant; the special values of log_f32.
BCASTGEN_SIMD_FN f32v fast_log_f32(f32v x) {
  const detail::LogParts l = detail::fast_log_parts(x);
  return detail::log_specials(x, add_f32(l.hi, l.lo));
}

BCASTGEN_SIMD_FN f32v fast_log2_f32(f32v x) {
  return detail::log_specials(x, detail::fast_times_constant(detail::fast_log_parts(x), 0x1.715476p+0f));
}

BCASTGEN_SIMD_FN f32v fast_log10_f32(f32v x) {
  return detail::log_specials(x, detail::fast_times_constant(detail::fast_log_parts(x), 0x1.bcb7b2p-2f));
}

namespace detail {

// e^t = 2^n (1 + pm1) for |t| <= 89, n = round(t/ln2) held in z: r = t -
// n ln2 (ln 2 as a 13-bit hi, so n hi is exact, + lo), |r| <= ln2/2, and
// pm1 = e^r - 1 = r + r^2 (1/2 + r Q(r)) (Q: minimax of degree 3, relative
// error 2^-24.2, scripts/derive-math-polynomials.sollya), rounded once; at
// n = 0, r is t itself, so small |t| does not cancel. fast_tanh's and
// fast_expm1's start. z holds n + offset over the shifter kShifter +
// offset, the offset the caller's, so that the power of two it needs is
// power_of_two_held(z).
struct FastExpm1Parts {
  f32v pm1, z;
};

BCASTGEN_SIMD_FN FastExpm1Parts fast_expm1_parts(f32v t, float shifter_value) {
  const f32v shifter = splat_f32(shifter_value);
  const f32v z = fmadd_f32(t, splat_f32(kInvLn2), shifter);
  const f32v n = subtract_f32(z, shifter);
  const f32v r = fmadd_f32(n, splat_f32(-0x1.0bfbe8p-15f), fmadd_f32(n, splat_f32(-0x1.62ep-1f), t));
  static constexpr float kP[5] = {0x1.6d447ap-10f, 0x1.11d8c4p-7f, 0x1.5554f4p-5f, 0x1.555526p-3f, 0.5f};
  return {fmadd_f32(multiply_f32(r, r), horner(kP, r), r), z};
}

}  // namespace detail

// tanh(x), <= 4 ulp, odd: -em / (2 + em) for a = |x|, em = e^-2a - 1,
// given x's sign. em = 2^n pm1 + (2^n - 1) (fast_expm1_parts), one fma,
// rounded once: 2^n - 1 is exact for n >= -24 (below, em is -1 within
// 2^-24; a is clamped to 10, past 9.02 where tanh rounds to 1), and at
// n = 0 em is pm1 itself. Zero keeps its sign, tanh(+-inf) = +-1, NaN gives
// NaN.
BCASTGEN_SIMD_FN f32v fast_tanh_f32(f32v x) {
  // n in [-29, 0]: z holds n + 127, and 2^n is its bits shifted.
  const detail::FastExpm1Parts e = detail::fast_expm1_parts(
      multiply_f32(detail::minus_abs_clamped(x, 10.0f), splat_f32(2.0f)), detail::kShifter + 127.0f);
  const f32v s = detail::power_of_two_held(e.z);
  const f32v em = detail::fmadd_f32(s, e.pm1, subtract_f32(s, splat_f32(1.0f)));
  // -em / (2 + em) as em / (-2 - em): at most 1; |.| and x's sign after.
  const f32v y = abs_f32(divide_f32(em, subtract_f32(splat_f32(-2.0f), em)));
  return detail::times_sign_of(y, x);  // y >= 0: x's sign
}

// e^x - 1, <= 4 ulp: 2 (h pm1 + (h - 1/2)) with h = 2^(n - 1)
// (fast_expm1_parts), one fma rounded once, then doubled exactly (halved,
// 2^n stays finite up to n = 128, where the doubling overflows as e^x
// does). h - 1/2 is exact for n >= -25; x is clamped to [-18, 89], past
// -17.33 where the result rounds to -1 (n = -26 there: h - 1/2 rounds to
// -1/2, which is the result) and 88.73 where it overflows. |x| < 2^-25
// gives x, so that -0 stays -0. expm1(-inf) = -1, expm1(inf) = inf, NaN
// gives NaN.
BCASTGEN_SIMD_FN f32v fast_expm1_f32(f32v x) {
  const f32v xc = detail::min_or_b_f32(splat_f32(89.0f), detail::max_or_b_f32(splat_f32(-18.0f), x));
  // n in [-26, 128]: z holds n + 126, and 2^(n - 1) is its bits shifted.
  const detail::FastExpm1Parts e = detail::fast_expm1_parts(xc, detail::kShifter + 126.0f);
  const f32v h = detail::power_of_two_held(e.z);
  const f32v em_half = detail::fmadd_f32(h, e.pm1, subtract_f32(h, splat_f32(0.5f)));
  return select_f32(less_f32(abs_f32(x), splat_f32(0x1p-25f)), x, add_f32(em_half, em_half));
}

namespace detail {

// c[0] + t (c[1] + ... + t c[D-1]) by Horner's scheme, each coefficient
// looked up by the interval i (i & 3): fast_erf's per-interval polynomials
// (the fast tier's, rounded at every step). One step per instantiation, so
// that the steps are unrolled whatever the compiler's loop heuristics.
template <int J, int D>
BCASTGEN_SIMD_FN f32v table_horner_from(const float (&c)[D][4], i32v i, f32v t, f32v p) {
  p = fmadd_f32(t, p, lookup4_f32(c[J], i));
  if constexpr (J == 0) {
    return p;
  } else {
    return table_horner_from<J - 1>(c, i, t, p);
  }
}

template <int D>
BCASTGEN_SIMD_FN f32v table_horner(const float (&c)[D][4], i32v i, f32v t) {
  return table_horner_from<D - 2>(c, i, t, lookup4_f32(c[D - 1], i));
}

}  // namespace detail

// ln(1 + x), <= 4 ulp: u = 1 + x as u + u_lo (2Sum), then
// ln u + u_lo / u with ln u from fast_log_parts (for tiny x, u = 1 and the
// result is u_lo = x itself). The division rounds by half an ulp of a term
// at most as large as the result. Given x's sign (log1p keeps it), so that
// -0 stays -0; the special values of log1p_f32.
BCASTGEN_SIMD_FN f32v fast_log1p_f32(f32v x) {
  const detail::TwoSum u = detail::two_sum(splat_f32(1.0f), x);
  const detail::LogParts l = detail::fast_log_parts(u.s);
  const f32v y = add_f32(l.hi, add_f32(l.lo, divide_f32(u.err, u.s)));
  return detail::log_specials(u.s, detail::times_sign_of(abs_f32(y), x));
}

namespace detail {

// ln(1 + e) / e for e in [0, 1]: degree 9, P(0) = 1, relative error 0.094
// 2^-24 (scripts/derive-math-polynomials.sollya). Horner's scheme: its last
// step, 1 + e (c1 + ...), rounds once, and is exactly 1 below e = 2^-24.
BCASTGEN_SIMD_FN f32v log1p_ratio_polynomial(f32v e) {
  static constexpr float kP[10] = {-0x1.afc06ep-9f, 0x1.492c9p-6f,  -0x1.d695d8p-5f, 0x1.b4872ap-4f, -0x1.3a2fa4p-3f,
                                   0x1.934142p-3f,  -0x1.ff2136p-3f, 0x1.554da4p-2f, -0x1.ffffdp-2f,  1.0f};
  return horner(kP, e);
}

}  // namespace detail

// ln(1 + e^x), <= 4 ulp: max(x, 0) + E P(E), E = e^-|x|
// (fast_exp_minus_abs_2_64, |x| clamped to 120) and P(E) = ln(1 + E) / E
// one polynomial on [0, 1] (log1p_ratio_polynomial): no logarithm, table or
// division. E's relative error reaches ln(1 + E) at most once (its
// sensitivity, E / ((1 + E) ln(1 + E)), is at most 1), and a positive x
// only shrinks it. E P(E) is (E 2^64) P(E), normal, times 2^-64 last: where
// it is subnormal (x below -87.3), P(E) is exactly 1 and the result E
// rounds once. softplus(-inf) = 0, softplus(inf) = inf, NaN gives NaN.
BCASTGEN_SIMD_FN f32v fast_softplus_f32(f32v x) {
  const f32v e_2_64 = detail::fast_exp_minus_abs_2_64(x);
  const f32v two_to_minus_64 = splat_f32(0x1p-64f);
  const f32v p = detail::log1p_ratio_polynomial(multiply_f32(e_2_64, two_to_minus_64));
  const f32v m = detail::max_or_b_f32(splat_f32(0.0f), x);  // NaN: x
  return add_f32(m, multiply_f32(multiply_f32(e_2_64, p), two_to_minus_64));
}

namespace detail {

// W(a) = a erfc(a / sqrt 2) e^(a^2/2) / 2 for a in [0, 14.5], which rises
// from 0 to 1/sqrt(2 pi), as the rational function M / (k M + R): M = a +
// a^2 (m1 + m2 a + m3 a^2 + m4 a^3), R = 2 + a (r1 + r2 a + r3 a^2 + r4
// a^3), k = sqrt(2 pi) rounded, all coefficients positive (relative error
// 0.30 2^-24; scripts/derive-gelu-rational.py fits it). The order of
// evaluation is chosen for the rounding: at large a the denominator is
// mostly k M, so M's errors cancel in the quotient, and the 2 is added last,
// so that near a = 0 the denominator rounds once (adding it inside R's
// Horner scheme rounded twice there: fast_gelu 4.10 ulp at x = -0.066, now
// 3.66). Ten fmas or products, one addition and one division. (It replaced
// W = s Q(s), s = a / (a + 4) and Q of degree 9, with s's rounding error
// recovered: 22 operations and the same division.)
BCASTGEN_SIMD_FN f32v fast_gelu_w(f32v a) {
  static constexpr float kM[4] = {0x1.3ba424p-7f, 0x1.72fbcap-4f, 0x1.9349dep-2f, 0x1.d38324p-1f};  // m4 .. m1
  static constexpr float kR[4] = {0x1.4a3fdp-19f, 0x1.89c478p-6f, 0x1.d55c84p-3f, 0x1.d4aa58p-1f};  // r4 .. r1
  const f32v big_m = fmadd_f32(multiply_f32(a, horner(kM, a)), a, a);
  const f32v r = horner(kR, a);
  const f32v q = add_f32(fmadd_f32(big_m, splat_f32(0x1.40d932p+1f), multiply_f32(a, r)), splat_f32(2.0f));
  return divide_f32(big_m, q);
}

}  // namespace detail

// x Phi(x) = x/2 (1 + erf(x / sqrt 2)), <= 4 ulp, without cancelling on
// either side: with a = |x| and v = a Phi(-a), gelu is x - v for x > 0 and
// -v below, and Phi(-a) <= 1/2 keeps x - v >= x/2. v = W(a) e^(-a^2/2)
// (fast_gelu_w; measured over all 2^32 inputs: 3.66 ulp). a^2 is a
// double-float (q + q_lo, a product and an fma), and e^(-a^2/2) = 2^n y
// (fast_exp_minus_half) is applied as W 2^(n + 64), exact, times y 2^-64,
// in the fma max(-0, x) - W 2^(n + 64) y 2^-64: one rounding on either side,
// also where the result is subnormal (x - v with v rounded first took one
// more, up to an ulp of x - v). a is clamped to 14.5, past 14.36, where
// gelu(-a) rounds to -0. max(-0, x) keeps the sign of zero: gelu(+-0) =
// +-0, gelu(-inf) = -0, gelu(inf) = inf, NaN gives NaN.
BCASTGEN_SIMD_FN f32v fast_gelu_f32(f32v x) {
  // A NaN x gives a = 14.5: its NaN reaches only the fma's addend, which
  // returns it as it is on every ISA (with two NaN operands, x86 returns the
  // first in the instruction's order, AArch64 the addend).
  const f32v a = detail::min_or_b_f32(abs_f32(x), splat_f32(14.5f));
  const f32v w = detail::fast_gelu_w(a);
  const f32v q = multiply_f32(a, a);
  const detail::FastExp e = detail::fast_exp_minus_half(q, detail::fmadd_f32(a, a, neg_f32(q)));
  const f32v w_scaled = multiply_f32(w, detail::fast_two_to_n_plus_64(e.z));
  return detail::fmadd_f32(neg_f32(w_scaled), e.y, detail::max_or_b_f32(splat_f32(-0.0f), x));
}

// erf(x), <= 4 ulp, odd: a degree-8 polynomial in t = a - k w for a = |x|,
// one per interval of width w = 37/32 around k w, k = round(a / w) = 0 .. 3,
// from 4-entry tables: one in-lane vpermilps each on AVX2 (Zen 3 runs two a
// cycle), where 8 intervals of degree 6 took one vpermps per coefficient (one
// a cycle there; 0.57 to 0.63x Eigen's erf on Zen 3, 1.15 to 1.2x slower than
// this). k comes from the shifter's rounding (k in z's low bits), and t = a -
// k w is exact: k w has 8 bits and a is within w/2 of it (Sterbenz), or t = a
// for k = 0, whose polynomial has no constant term, so that tiny x keeps its
// relative accuracy (its t coefficient, 2/sqrt(pi) rounded, costs 0.9 ulp
// there). The others' constant term is erf(k w) rounded, held in the fit
// (relative error 0.42 2^-24 at worst;
// scripts/derive-math-polynomials.sollya). 3 w + w/2 = 4.05 is past 3.92,
// where erf rounds to 1; a is clamped to 3.95 (k stays 3), and the last
// polynomial (fit to 4) rounds to 1 from 3.939 on: erf(+-inf) = +-1 (on
// [3.92, 3.939) it gives 1 - 2^-24 at places, 1 ulp off). Zero keeps its
// sign, NaN gives NaN. (A rational function of x, Eigen's form, needs no
// table but its f32 evaluation added about 5 ulp to its fit here.)
BCASTGEN_SIMD_FN f32v fast_erf_f32(f32v x) {
  static constexpr float kP[9][4] = {
      {0.0f, 0x1.cbc54cp-1f, 0x1.ff7338p-1f, 0x1.ffffep-1f},
      {0x1.20dd76p+0f, 0x1.2f7cc4p-2f, 0x1.5ff48ap-8f, 0x1.c27b6ep-18f},
      {-0x1.e72442p-19f, -0x1.5ee8eep-2f, -0x1.96effep-7f, -0x1.6301bp-16f},
      {-0x1.81169ep-2f, 0x1.52a7dcp-3f, 0x1.1c43a8p-6f, 0x1.b1619ap-15f},
      {-0x1.edd5e4p-12f, 0x1.32051cp-6f, -0x1.04f5fep-6f, -0x1.dd695ap-14f},
      {0x1.d4e096p-4f, -0x1.dcdce6p-5f, 0x1.3a299ep-7f, 0x1.958ebp-14f},
      {-0x1.24d20cp-9f, 0x1.18b80ep-6f, -0x1.960fd8p-9f, 0x1.0aaebep-14f},
      {-0x1.cb6f24p-6f, 0x1.072f54p-7f, -0x1.f2d914p-12f, 0x1.3e51fap-14f},
      {0x1.a6a8a4p-8f, -0x1.4daeap-8f, 0x1.a5d1dep-11f, -0x1.1fb912p-12f},
  };
  const f32v a = detail::min_or_b_f32(splat_f32(3.95f), abs_f32(x));  // NaN stays
  const f32v shifter = splat_f32(detail::kShifter);
  const f32v z = detail::fmadd_f32(a, splat_f32(32.0f / 37.0f), shifter);
  const f32v t = detail::fmadd_f32(subtract_f32(z, shifter), splat_f32(-37.0f / 32.0f), a);
  const i32v k = detail::bits_f32(z);  // k & 3 (the shifter's low bits are 0)
  return detail::times_sign_of(detail::table_horner(kP, k, t), x);  // >= 0: x's sign
}
