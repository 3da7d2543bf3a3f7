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
// bitwise_xor_i32, and in namespace detail fmadd_f32, max_or_b_f32,
// min_or_b_f32, bits_f32, from_bits_f32, shift_left_i32<N>,
// shift_right_i32<N> (arithmetic) and lookup8_f32. Each wrapper is one IEEE
// operation (fmadd rounds once) or exact (selects, bits, lookups), so
// every instantiation computes the same bits: a kernel's vector lanes, its
// scalar tail, its scalar variant and bcastgen::ops (the reference) agree on
// every element, whichever ISA the CPU dispatches to.
//
// The constants come from scripts/derive-math-constants.py, which prints
// them in this spelling. The error bounds below are measured over all 2^32
// inputs by bench/ulp/ (README: "Math functions").
//
// No include guard: it is meant to be included once per namespace.

namespace detail {

// e^x before its last rounding: (hi + u) * scale_a * scale_b, within 0.15
// ulp of hi + u (error analysis at exp_f32).
struct ExpParts {
  f32v hi, u, scale_a, scale_b;
};

BCASTGEN_SIMD_FN ExpParts exp_parts(f32v x) {
  static constexpr float kHi[8] = {0x1p+0f,       0x1.172b84p+0f, 0x1.306fep+0f,  0x1.4bfdaep+0f,
                                   0x1.6a09e6p+0f, 0x1.8ace54p+0f, 0x1.ae89fap+0f, 0x1.d5818ep+0f};
  static constexpr float kLo[8] = {0.0f,           -0x1.c15742p-27f, 0x1.4636e2p-25f, -0x1.593abcp-25f,
                                   0x1.9fcef4p-26f, 0x1.15506ep-27f,  -0x1.a94b14p-26f, -0x1.822dbcp-27f};
  const f32v xc = min_or_b_f32(splat_f32(89.0f), max_or_b_f32(splat_f32(-120.0f), x));
  // Adding 1.5 * 2^23 rounds x * 8/ln2 to an integer n, held in the low bits.
  const f32v shifter = splat_f32(0x1.8p+23f);
  const f32v z = fmadd_f32(xc, splat_f32(0x1.715476p+3f), shifter);
  const f32v n = subtract_f32(z, shifter);
  const i32v ni = subtract_i32(bits_f32(z), bits_f32(shifter));
  // r = x - n ln2/8, with ln2/8 as hi + lo: n * hi is exact inside the fma.
  f32v r = fmadd_f32(n, splat_f32(-0x1.62e43p-4f), xc);
  r = fmadd_f32(n, splat_f32(0x1.05c61p-32f), r);
  // e^r - 1 = r + r^2 (1/2 + r (1/6 + r/24))
  f32v q = fmadd_f32(r, splat_f32(0x1.555556p-5f), splat_f32(0x1.555556p-3f));
  q = fmadd_f32(r, q, splat_f32(0.5f));
  const f32v p = fmadd_f32(multiply_f32(r, r), q, r);
  const i32v j = bitwise_and_i32(ni, splat_i32(7));
  const f32v hi = lookup8_f32(kHi, j), lo = lookup8_f32(kLo, j);
  // 2^(n >> 3) as two normal powers of two, 2^a * 2^b, a = (n >> 3) >> 1.
  const i32v e = shift_right_i32<3>(ni);
  const i32v a = shift_right_i32<1>(e);
  const i32v b = subtract_i32(e, a);
  const i32v bias = splat_i32(127);
  return {hi, fmadd_f32(hi, p, lo), from_bits_f32(shift_left_i32<23>(add_i32(a, bias))),
          from_bits_f32(shift_left_i32<23>(add_i32(b, bias)))};
}

}  // namespace detail

// e^x, <= 1 ulp (measured: 0.77, README).
//
// n = round(x * 8 / ln 2) splits x = n ln2/8 + r with |r| <= ln2/16, so
// e^x = 2^(n >> 3) * 2^((n & 7)/8) * e^r. 2^(j/8) is a hi + lo pair from an
// 8-entry table (one permute), e^r - 1 a degree-4 Taylor polynomial
// (truncation 1.3e-9, 0.02 ulp), and y = hi + (hi (e^r - 1) + lo) in [0.96,
// 2.1) rounds once: the terms before it carry under 0.15 ulp of error, so
// |y - e^(j ln2/8 + r)| < 0.65 ulp. Then y * 2^a * 2^b with a + b = n >> 3:
// the first product is exact, the second rounds once more only where the
// result overflows or is subnormal, so inf and the subnormals come out right
// without a special case. x is first clamped to [-120, 89], past the
// thresholds (e^x < 2^-150 rounds to 0 below -103.97, overflows above
// 88.723); max_or_b/min_or_b return x when it is NaN, so NaN propagates.
BCASTGEN_SIMD_FN f32v exp_f32(f32v x) {
  const detail::ExpParts e = detail::exp_parts(x);
  return multiply_f32(multiply_f32(add_f32(e.hi, e.u), e.scale_a), e.scale_b);
}

namespace detail {

// E = e^x for x <= 0 (so E <= 1), as exp_parts gives it but with hi + u made
// exact first (Fast2Sum, |hi| >= |u|): E = (s + s_err) * scale_a * scale_b,
// and scaled: big_e + big_e_err.
struct SmallExp {
  f32v s, s_err, scale_a, scale_b, big_e, big_e_err;
};

BCASTGEN_SIMD_FN SmallExp small_exp(f32v x) {
  const ExpParts e = exp_parts(x);
  const f32v s = add_f32(e.hi, e.u);
  const f32v s_err = add_f32(subtract_f32(e.hi, s), e.u);
  return {s, s_err, e.scale_a, e.scale_b, multiply_f32(multiply_f32(s, e.scale_a), e.scale_b),
          multiply_f32(multiply_f32(s_err, e.scale_a), e.scale_b)};
}

// 1 / (1 + E) as q (1 + r), within 2^-40: D = 1 + E carried as d_hi + d_lo
// (Fast2Sum, 1 >= E), q = 1/d_hi rounded, r = 1 - D q from two fmas (the
// first exact).
struct Inverse {
  f32v q, r;
};

BCASTGEN_SIMD_FN Inverse inverse_one_plus(const SmallExp& e) {
  const f32v one = splat_f32(1.0f);
  const f32v d_hi = add_f32(one, e.big_e);
  const f32v d_lo = add_f32(subtract_f32(e.big_e, subtract_f32(d_hi, one)), e.big_e_err);
  const f32v q = divide_f32(one, d_hi);
  const f32v r = fmadd_f32(neg_f32(d_lo), q, fmadd_f32(neg_f32(d_hi), q, one));
  return {q, r};
}

// (n_hi + n_lo) q (1 + r), before its last rounding: n_hi q as the exact
// product p_hi + p_lo, plus the small terms.
BCASTGEN_SIMD_FN f32v times_inverse_lo(f32v n_hi, f32v n_lo, const Inverse& d, f32v p_hi) {
  f32v p_lo = fmadd_f32(n_hi, d.q, neg_f32(p_hi));
  p_lo = fmadd_f32(p_hi, d.r, p_lo);
  return fmadd_f32(n_lo, d.q, p_lo);
}

// sigmoid(x) before its last rounding: (hi + lo) * scale_a * scale_b.
//
// With E = e^-|x| (small_exp), the result is 1/(1 + E) = q + q r for x >= 0,
// and E/(1 + E) = 2^k (s + s_err) q (1 + r) for x < 0, with 2^k applied last
// so that a subnormal result rounds once more at most. Every term before the
// last addition is within 0.3 ulp, so the result is within 1 ulp.
struct SigmoidParts {
  f32v hi, lo, scale_a, scale_b;
};

BCASTGEN_SIMD_FN SigmoidParts sigmoid_parts(f32v x) {
  const SmallExp e = small_exp(neg_f32(abs_f32(x)));
  const Inverse d = inverse_one_plus(e);
  const f32v p_hi = multiply_f32(e.s, d.q);
  const f32v p_lo = times_inverse_lo(e.s, e.s_err, d, p_hi);
  const f32v one = splat_f32(1.0f);
  const auto negative = less_f32(x, splat_f32(0.0f));
  return {select_f32(negative, p_hi, d.q), select_f32(negative, p_lo, multiply_f32(d.q, d.r)),
          select_f32(negative, e.scale_a, one), select_f32(negative, e.scale_b, one)};
}

}  // namespace detail

// 1 / (1 + e^-x), <= 1 ulp: sigmoid_parts rounded once (then scaled).
// sigmoid(-inf) = 0, sigmoid(inf) = 1, NaN gives NaN.
BCASTGEN_SIMD_FN f32v sigmoid_f32(f32v x) {
  const detail::SigmoidParts p = detail::sigmoid_parts(x);
  return multiply_f32(multiply_f32(add_f32(p.hi, p.lo), p.scale_a), p.scale_b);
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
  return multiply_f32(multiply_f32(y, p.scale_a), p.scale_b);
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
  const detail::SmallExp e = detail::small_exp(multiply_f32(a, splat_f32(-2.0f)));
  const detail::Inverse d = detail::inverse_one_plus(e);
  const f32v one = splat_f32(1.0f);
  const f32v n_hi = subtract_f32(one, e.big_e);
  const f32v n_lo = subtract_f32(subtract_f32(subtract_f32(one, n_hi), e.big_e), e.big_e_err);
  const f32v p_hi = multiply_f32(n_hi, d.q);
  const f32v large = add_f32(p_hi, detail::times_inverse_lo(n_hi, n_lo, d, p_hi));
  const f32v y = select_f32(less_f32(a, splat_f32(0.55f)), small, large);
  const i32v sign = bitwise_and_i32(detail::bits_f32(x), splat_i32(INT32_MIN));
  return detail::from_bits_f32(bitwise_xor_i32(detail::bits_f32(y), sign));
}
