// The NEON forms with native f16 lanes (float16x8_t, 8 per register), for
// the `neonfp16` row of the ISA table: Armv8.2's half-precision Advanced
// SIMD arithmetic (FEAT_FP16, Linux HWCAP "asimdhp"). Every other dtype
// keeps the NEON forms (this ISA's vocabulary row has `base: neon`), so this
// header adds only f16's, named _ph beside NEON's _f16 (which hold f16
// values as f32 lanes).
//
// What is native and why it gives bcastgen::ops' bits (ops.h: each f16 op
// is the f32 op rounded once to f16), as for avx512fp16:
// - + - * / and sqrt are correctly rounded in f16, and so is the f32 result
//   rounded to f16: f32's 24 bits are at least 2 x 11 + 2, so the double
//   rounding is innocuous. square is x * x and reciprocal 1 / x.
// - max/min (with NEON's fix for equal operands), comparisons, the
//   classifications, copysign, neg, abs and the roundings to integers are
//   exact: the same on f16 values as on their f32 values.
// Everything else (squared_difference and the math functions) widens each
// half to f32 (fcvtl, exact), runs the f32 form and rounds back once
// (fcvtn, to nearest even).
//
// GCC only: it declares these intrinsics for the target attribute
// "arch=armv8.2-a+fp16" ("+fp16" alone fails to inline them: arm_neon.h
// defines them for Armv8.2), which Clang 14 rejects. The condition below is
// the row's `compiler` field (cpu.h), under which generated code includes
// this header and compiles the variant; Clang builds use the neon row.
#pragma once

#include "bcastgen/simd/neon.h"

#if !defined(__clang__) && __GNUC__ >= 10

// The wrappers compile for the row's target by a pragma region, not by a
// target attribute on each: with the attributes, GCC 12 (AArch64) fails to
// inline the includer's own always_inline functions that follow under a
// `#pragma GCC optimize` ("target specific option mismatch"), as generated
// files have them. The pragma spells the row's target
// (BCASTGEN_TARGET_NEONFP16), which the static_assert below holds to.
#pragma GCC push_options
#pragma GCC target("arch=armv8.2-a+fp16")
#define BCASTGEN_SIMD_NEONFP16 __attribute__((always_inline)) inline

namespace bcastgen::simd::neonfp16 {

namespace detail {
constexpr bool same_text(const char* a, const char* b) {
  return *a == *b && (*a == '\0' || same_text(a + 1, b + 1));
}
static_assert(same_text(BCASTGEN_TARGET_NEONFP16, "arch=armv8.2-a+fp16"), "the pragma above spells the row's target");
}  // namespace detail

using namespace bcastgen::simd::neon;  // every dtype but f16: NEON's forms

namespace detail {
BCASTGEN_SIMD_NEONFP16 float16x8_t splat_bits(std::uint16_t b) { return vreinterpretq_f16_u16(vdupq_n_u16(b)); }
// Lanes 0-3 and 4-7 as f32 (exact), and two f32 halves rounded back to one
// register of f16 (to nearest even).
BCASTGEN_SIMD_NEONFP16 float32x4_t low_f32(float16x8_t x) { return vcvt_f32_f16(vget_low_f16(x)); }
BCASTGEN_SIMD_NEONFP16 float32x4_t high_f32(float16x8_t x) { return vcvt_high_f32_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t rounded(float32x4_t low, float32x4_t high) {
  return vcvt_high_f16_f32(vcvt_f16_f32(low), high);
}
}  // namespace detail

// --- memory, splat, select, bools: 8 lanes of 2 bytes ---
// (The stores write through their typed pointers: bcastgen inspect counts
// the elements a store writes by the pointer's element type.)
BCASTGEN_SIMD_NEONFP16 float16x8_t load_ph(const f16* p) {
  return vreinterpretq_f16_u16(vld1q_u16(reinterpret_cast<const std::uint16_t*>(p)));
}
BCASTGEN_SIMD_NEONFP16 void store_ph(f16* p, float16x8_t v) {
  vst1q_u16(reinterpret_cast<std::uint16_t*>(p), vreinterpretq_u16_f16(v));
}
BCASTGEN_SIMD_NEONFP16 float16x8_t splat_ph(f16 x) { return detail::splat_bits(x.bits); }
BCASTGEN_SIMD_NEONFP16 float16x8_t select_ph(uint16x8_t c, float16x8_t x, float16x8_t y) { return vbslq_f16(c, x, y); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t load_cmp_ph(const bool* p) { return load_cmp_u16(p); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t splat_cmp_ph(bool x) { return splat_cmp_u16(x); }
BCASTGEN_SIMD_NEONFP16 void store_bool_ph(bool* p, uint16x8_t m) { store_bool_u16(p, m); }

// --- ops ---
BCASTGEN_SIMD_NEONFP16 float16x8_t add_ph(float16x8_t a, float16x8_t b) { return vaddq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 float16x8_t subtract_ph(float16x8_t a, float16x8_t b) { return vsubq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 float16x8_t multiply_ph(float16x8_t a, float16x8_t b) { return vmulq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 float16x8_t divide_ph(float16x8_t a, float16x8_t b) { return vdivq_f16(a, b); }
// As maximum_f32: fmax gives NaN where either is NaN; where a == b, b.
BCASTGEN_SIMD_NEONFP16 float16x8_t maximum_ph(float16x8_t a, float16x8_t b) {
  return vbslq_f16(vceqq_f16(a, b), b, vmaxq_f16(a, b));
}
BCASTGEN_SIMD_NEONFP16 float16x8_t minimum_ph(float16x8_t a, float16x8_t b) {
  return vbslq_f16(vceqq_f16(a, b), b, vminq_f16(a, b));
}
// With a literal operand, as maximum_number_f32 and maximum_zero_f32.
BCASTGEN_SIMD_NEONFP16 float16x8_t maximum_number_ph(float16x8_t n, float16x8_t x) {
  return vbslq_f16(vcgtq_f16(n, x), n, x);
}
BCASTGEN_SIMD_NEONFP16 float16x8_t minimum_number_ph(float16x8_t n, float16x8_t x) {
  return vbslq_f16(vcltq_f16(n, x), n, x);
}
BCASTGEN_SIMD_NEONFP16 float16x8_t maximum_zero_ph(float16x8_t x) { return vmaxq_f16(x, detail::splat_bits(0)); }
BCASTGEN_SIMD_NEONFP16 float16x8_t minimum_zero_ph(float16x8_t x) {
  return vbslq_f16(vcgeq_f16(x, detail::splat_bits(0)), detail::splat_bits(0), x);
}
// One rounding of the f32 (a - b)^2, as ops::squared_difference.
BCASTGEN_SIMD_NEONFP16 float16x8_t squared_difference_ph(float16x8_t a, float16x8_t b) {
  return detail::rounded(squared_difference_f32(detail::low_f32(a), detail::low_f32(b)),
                         squared_difference_f32(detail::high_f32(a), detail::high_f32(b)));
}
BCASTGEN_SIMD_NEONFP16 uint16x8_t equal_ph(float16x8_t a, float16x8_t b) { return vceqq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t not_equal_ph(float16x8_t a, float16x8_t b) { return vmvnq_u16(vceqq_f16(a, b)); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t less_ph(float16x8_t a, float16x8_t b) { return vcltq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t less_equal_ph(float16x8_t a, float16x8_t b) { return vcleq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t greater_ph(float16x8_t a, float16x8_t b) { return vcgtq_f16(a, b); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t greater_equal_ph(float16x8_t a, float16x8_t b) { return vcgeq_f16(a, b); }
// |a| with the sign bit of b: a bit select.
BCASTGEN_SIMD_NEONFP16 float16x8_t copysign_ph(float16x8_t a, float16x8_t b) {
  return vbslq_f16(vdupq_n_u16(0x8000), b, a);
}

// --- unary ---
BCASTGEN_SIMD_NEONFP16 float16x8_t neg_ph(float16x8_t x) { return vnegq_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t abs_ph(float16x8_t x) { return vabsq_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t sqrt_ph(float16x8_t x) { return vsqrtq_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t square_ph(float16x8_t x) { return vmulq_f16(x, x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t reciprocal_ph(float16x8_t x) { return vdivq_f16(detail::splat_bits(0x3C00), x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t floor_ph(float16x8_t x) { return vrndmq_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t ceil_ph(float16x8_t x) { return vrndpq_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t trunc_ph(float16x8_t x) { return vrndq_f16(x); }
BCASTGEN_SIMD_NEONFP16 float16x8_t round_ph(float16x8_t x) { return vrndnq_f16(x); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t isnan_ph(float16x8_t x) { return vmvnq_u16(vceqq_f16(x, x)); }
BCASTGEN_SIMD_NEONFP16 uint16x8_t isinf_ph(float16x8_t x) {
  return vceqq_u16(vandq_u16(vreinterpretq_u16_f16(x), vdupq_n_u16(0x7FFF)), vdupq_n_u16(0x7C00));
}
BCASTGEN_SIMD_NEONFP16 uint16x8_t isfinite_ph(float16x8_t x) {
  return vcltq_u16(vandq_u16(vreinterpretq_u16_f16(x), vdupq_n_u16(0x7FFF)), vdupq_n_u16(0x7C00));
}
BCASTGEN_SIMD_NEONFP16 uint16x8_t signbit_ph(float16x8_t x) {
  return vcltq_s16(vreinterpretq_s16_f16(x), vdupq_n_s16(0));
}
// 1, -1, +0 for either zero, the NaN itself for NaN (as sign_f32).
BCASTGEN_SIMD_NEONFP16 float16x8_t sign_ph(float16x8_t x) {
  const float16x8_t zero = detail::splat_bits(0);
  const float16x8_t ones = vbslq_f16(vcgtq_f16(x, zero), detail::splat_bits(0x3C00),
                                     vbslq_f16(vcltq_f16(x, zero), detail::splat_bits(0xBC00), zero));
  return vbslq_f16(isnan_ph(x), x, ones);
}
// The math functions: f32 forms (math_f32.inl) on each half, rounded once.
#define BCASTGEN_SIMD_PH_FN BCASTGEN_SIMD_NEONFP16
#define BCASTGEN_SIMD_PH_TYPE float16x8_t
#include "bcastgen/simd/half_native_math.inl"
#undef BCASTGEN_SIMD_PH_TYPE
#undef BCASTGEN_SIMD_PH_FN

// --- casts ---
// f16 -> f32 widens: part S of the result from lanes 4S to 4S+3.
template <int S>
BCASTGEN_SIMD_NEONFP16 float32x4_t cast_ph_f32(float16x8_t x) {
  static_assert(S == 0 || S == 1, "an f16 register is two f32 registers");
  if constexpr (S == 0) {
    return detail::low_f32(x);
  } else {
    return detail::high_f32(x);
  }
}
// f32 -> f16 joins two registers, each rounded once.
BCASTGEN_SIMD_NEONFP16 float16x8_t cast_f32_ph(float32x4_t low, float32x4_t high) {
  return detail::rounded(low, high);
}
// To bool is x != 0 (NaN gives true); from bool 0 or 1.
BCASTGEN_SIMD_NEONFP16 uint16x8_t cast_ph_bool(float16x8_t x) { return vmvnq_u16(vceqq_f16(x, detail::splat_bits(0))); }
BCASTGEN_SIMD_NEONFP16 float16x8_t cast_bool_ph(uint16x8_t m) {
  return vreinterpretq_f16_u16(vandq_u16(m, vdupq_n_u16(0x3C00)));
}

}  // namespace bcastgen::simd::neonfp16

#undef BCASTGEN_SIMD_NEONFP16
#pragma GCC pop_options

#endif  // the compiler declares the half-precision NEON intrinsics
