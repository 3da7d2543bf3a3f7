// The f32 math functions with a vector form, written once. Each SIMD header
// (bcastgen/simd/<isa>.h) and the scalar one (bcastgen/simd/scalar.h)
// includes this file inside its own namespace, after defining
//
//   BCASTGEN_SIMD_FN   its wrapper attribute (target and always_inline),
//   f32v, i32v         its f32 and i32 register types (float, std::int32_t
//                      for scalar),
//
// and the wrappers used below: splat_f32, add_f32, subtract_f32,
// multiply_f32, splat_i32, add_i32, subtract_i32, bitwise_and_i32, and in
// namespace detail fmadd_f32, max_or_b_f32, min_or_b_f32, bits_f32,
// from_bits_f32, shift_left_i32<N>, shift_right_i32<N> (arithmetic) and
// lookup8_f32. Each wrapper is one IEEE operation (fmadd rounds once), so
// every instantiation computes the same bits: a kernel's vector lanes, its
// scalar tail, its scalar variant and bcastgen::ops (the reference) agree on
// every element, whichever ISA the CPU dispatches to.
//
// The constants come from scripts/derive-math-constants.py, which prints
// them in this spelling. The error bounds below are measured over all 2^32
// inputs by bench/ulp/ (README: "Math functions").
//
// No include guard: it is meant to be included once per namespace.

// e^x, <= 1 ulp (error analysis below; measured max in the README).
//
// n = round(x * 8 / ln 2) splits x = n ln2/8 + r with |r| <= ln2/16, so
// e^x = 2^(n >> 3) * 2^((n & 7)/8) * e^r. 2^(j/8) is a hi + lo pair from an
// 8-entry table (one permute), e^r - 1 a degree-4 Taylor polynomial
// (truncation 1.3e-9, 0.02 ulp), and y = hi + (hi (e^r - 1) + lo) in [0.96,
// 2.1) rounds once: the terms before it carry under 0.15 ulp of error, so
// |y - e^(j ln2/8 + r)| < 0.65 ulp. Then y * 2^a * 2^b with a + b = n >> 3:
// the first product is exact, the second rounds once more only where the
// result overflows or is subnormal, so inf and the subnormals come out right
// without a special case. x is first clamped to [-104, 89], past the
// thresholds (e^x < 2^-150 rounds to 0 below -103.97, overflows above
// 88.723); max_or_b/min_or_b return x when it is NaN, so NaN propagates.
BCASTGEN_SIMD_FN f32v exp_f32(f32v x) {
  static constexpr float kHi[8] = {0x1p+0f,       0x1.172b84p+0f, 0x1.306fep+0f,  0x1.4bfdaep+0f,
                                   0x1.6a09e6p+0f, 0x1.8ace54p+0f, 0x1.ae89fap+0f, 0x1.d5818ep+0f};
  static constexpr float kLo[8] = {0.0f,           -0x1.c15742p-27f, 0x1.4636e2p-25f, -0x1.593abcp-25f,
                                   0x1.9fcef4p-26f, 0x1.15506ep-27f,  -0x1.a94b14p-26f, -0x1.822dbcp-27f};
  const f32v xc = detail::min_or_b_f32(splat_f32(89.0f), detail::max_or_b_f32(splat_f32(-104.0f), x));
  // Adding 1.5 * 2^23 rounds x * 8/ln2 to an integer n, held in the low bits.
  const f32v shifter = splat_f32(0x1.8p+23f);
  const f32v z = detail::fmadd_f32(xc, splat_f32(0x1.715476p+3f), shifter);
  const f32v n = subtract_f32(z, shifter);
  const i32v ni = subtract_i32(detail::bits_f32(z), detail::bits_f32(shifter));
  // r = x - n ln2/8, with ln2/8 as hi + lo: n * hi is exact inside the fma.
  f32v r = detail::fmadd_f32(n, splat_f32(-0x1.62e43p-4f), xc);
  r = detail::fmadd_f32(n, splat_f32(0x1.05c61p-32f), r);
  // e^r - 1 = r + r^2 (1/2 + r (1/6 + r/24))
  f32v q = detail::fmadd_f32(r, splat_f32(0x1.555556p-5f), splat_f32(0x1.555556p-3f));
  q = detail::fmadd_f32(r, q, splat_f32(0.5f));
  const f32v p = detail::fmadd_f32(multiply_f32(r, r), q, r);
  const i32v j = bitwise_and_i32(ni, splat_i32(7));
  const f32v hi = detail::lookup8_f32(kHi, j), lo = detail::lookup8_f32(kLo, j);
  const f32v y = add_f32(hi, detail::fmadd_f32(hi, p, lo));
  // 2^(n >> 3) as two normal powers of two, 2^a * 2^b, a = (n >> 3) >> 1.
  const i32v e = detail::shift_right_i32<3>(ni);
  const i32v a = detail::shift_right_i32<1>(e);
  const i32v b = subtract_i32(e, a);
  const i32v bias = splat_i32(127);
  const f32v scale_a = detail::from_bits_f32(detail::shift_left_i32<23>(add_i32(a, bias)));
  const f32v scale_b = detail::from_bits_f32(detail::shift_left_i32<23>(add_i32(b, bias)));
  return multiply_f32(multiply_f32(y, scale_a), scale_b);
}
