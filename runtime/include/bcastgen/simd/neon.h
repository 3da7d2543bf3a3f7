// The NEON (AArch64 Advanced SIMD) vector forms that generated kernels call:
// one named wrapper per (operation, dtype), always inlined into the kernel
// variant. The vocabulary (templates/vocabulary.yaml) names them; each gives
// the bits of bcastgen::ops (ops.h) on every lane. Advanced SIMD is part of
// every AArch64 CPU, so the variants need no target attribute and no CPU
// check; this header compiles only for AArch64 (generated files include it
// under the ISA table's guard for the architecture).
//
// Registers are 128 bits: float32x4_t (f32; f16 and bf16 as their f32
// values), float64x2_t (f64), and the integer types of their element
// (int8x16_t .. uint64x2_t; bool as 0/1 bytes in uint8x16_t). A comparison gives a lane mask of the unsigned
// integer type of its width, all ones where true. Loads and stores are
// unaligned (ld1/st1). NEON has no masked loads or stores: the planner
// gives it unrolled scalar tails (the ISA table's mask_tail), and no
// streaming stores (no fence in its row).
#pragma once

// (BCASTGEN_SIMD_NEON_MODEL: bench/ulp/isa_model.sh neon compiles it for x86
// against a model of the intrinsics, to check the math lanes over all
// 2^32 inputs natively.)
#if !defined(__aarch64__) && !defined(BCASTGEN_SIMD_NEON_MODEL)
#error "bcastgen/simd/neon.h is for AArch64 targets"
#endif

#include <arm_neon.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "bcastgen/cpu.h"
#include "bcastgen/half.h"

#define BCASTGEN_SIMD_NEON __attribute__((always_inline)) inline

namespace bcastgen::simd::neon {

// What the forms compute, as bcastgen::ops does, where the NEON instruction
// alone would differ:
// - maximum/minimum of floats: fmax/fmin propagate NaN, as the ops do, but
//   order -0 below +0; the ops return the second operand where the two
//   compare equal, so those lanes take b (one compare, one bit select).
// - Shifts take their counts as unsigned: a count >= the width (or
//   negative) gives 0, or the sign for an arithmetic right shift. sshl and
//   ushl read only the low byte of a count, and shift right for a negative
//   one: the counts are clamped first.
// - Casts from float to integer truncate, and give the minimum value (x86's
//   "integer indefinite", the rule bcastgen chose) for NaN and out of range,
//   where fcvtzs saturates and gives 0 for NaN.
// - bool lanes hold 0 or 1, so the logical ops are the bitwise ones.

namespace detail {
// ~x of a compare result (no mvn for 64-bit lanes: the 32-bit one).
BCASTGEN_SIMD_NEON uint8x16_t not_u8(uint8x16_t x) { return vmvnq_u8(x); }
BCASTGEN_SIMD_NEON uint16x8_t not_u16(uint16x8_t x) { return vmvnq_u16(x); }
BCASTGEN_SIMD_NEON uint32x4_t not_u32(uint32x4_t x) { return vmvnq_u32(x); }
BCASTGEN_SIMD_NEON uint64x2_t not_u64(uint64x2_t x) {
  return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(x)));
}
// Lanes of x below n (a shift count in range), as a mask.
BCASTGEN_SIMD_NEON uint8x16_t below_u8(uint8x16_t x, int n) {
  return vcltq_u8(x, vdupq_n_u8(static_cast<std::uint8_t>(n)));
}
BCASTGEN_SIMD_NEON uint16x8_t below_u16(uint16x8_t x, int n) {
  return vcltq_u16(x, vdupq_n_u16(static_cast<std::uint16_t>(n)));
}
BCASTGEN_SIMD_NEON uint32x4_t below_u32(uint32x4_t x, int n) {
  return vcltq_u32(x, vdupq_n_u32(static_cast<std::uint32_t>(n)));
}
BCASTGEN_SIMD_NEON uint64x2_t below_u64(uint64x2_t x, int n) {
  return vcltq_u64(x, vdupq_n_u64(static_cast<std::uint64_t>(n)));
}
// min(x, n) of unsigned lanes (no umin for 64-bit lanes: a compare and a select).
BCASTGEN_SIMD_NEON uint8x16_t at_most_u8(uint8x16_t x, int n) {
  return vminq_u8(x, vdupq_n_u8(static_cast<std::uint8_t>(n)));
}
BCASTGEN_SIMD_NEON uint16x8_t at_most_u16(uint16x8_t x, int n) {
  return vminq_u16(x, vdupq_n_u16(static_cast<std::uint16_t>(n)));
}
BCASTGEN_SIMD_NEON uint32x4_t at_most_u32(uint32x4_t x, int n) {
  return vminq_u32(x, vdupq_n_u32(static_cast<std::uint32_t>(n)));
}
BCASTGEN_SIMD_NEON uint64x2_t at_most_u64(uint64x2_t x, int n) {
  const uint64x2_t limit = vdupq_n_u64(static_cast<std::uint64_t>(n));
  return vbslq_u64(vcltq_u64(x, limit), x, limit);
}
// -x as a signed count: sshl/ushl by it shift right by x.
BCASTGEN_SIMD_NEON int8x16_t negated_s8(uint8x16_t x) { return vnegq_s8(vreinterpretq_s8_u8(x)); }
BCASTGEN_SIMD_NEON int16x8_t negated_s16(uint16x8_t x) { return vnegq_s16(vreinterpretq_s16_u16(x)); }
BCASTGEN_SIMD_NEON int32x4_t negated_s32(uint32x4_t x) { return vnegq_s32(vreinterpretq_s32_u32(x)); }
BCASTGEN_SIMD_NEON int64x2_t negated_s64(uint64x2_t x) { return vnegq_s64(vreinterpretq_s64_u64(x)); }

// bool bytes (0 or 1) as the compare result of lanes of each width: 16, 8,
// 4 or 2 bytes, widened (uxtl) and tested against zero.
BCASTGEN_SIMD_NEON uint8x8_t load_bytes8(const bool* p) {
  std::uint64_t bits;
  std::memcpy(&bits, p, 8);
  return vcreate_u8(bits);
}
BCASTGEN_SIMD_NEON uint8x8_t load_bytes4(const bool* p) {
  std::uint32_t bits;
  std::memcpy(&bits, p, 4);
  return vcreate_u8(bits);
}
BCASTGEN_SIMD_NEON uint8x8_t load_bytes2(const bool* p) {
  std::uint16_t bits;
  std::memcpy(&bits, p, 2);
  return vcreate_u8(bits);
}
BCASTGEN_SIMD_NEON uint8x16_t load_cmp_8(const bool* p) {
  const uint8x16_t b = vld1q_u8(reinterpret_cast<const std::uint8_t*>(p));
  return vtstq_u8(b, b);
}
BCASTGEN_SIMD_NEON uint16x8_t load_cmp_16(const bool* p) {
  const uint16x8_t b = vmovl_u8(load_bytes8(p));
  return vtstq_u16(b, b);
}
BCASTGEN_SIMD_NEON uint32x4_t load_cmp_32(const bool* p) {
  const uint32x4_t b = vmovl_u16(vget_low_u16(vmovl_u8(load_bytes4(p))));
  return vtstq_u32(b, b);
}
BCASTGEN_SIMD_NEON uint64x2_t load_cmp_64(const bool* p) {
  const uint64x2_t b = vmovl_u32(vget_low_u32(vmovl_u16(vget_low_u16(vmovl_u8(load_bytes2(p))))));
  return vtstq_u64(b, b);
}
// A compare result as bool bytes: narrowed (xtn) to bytes and masked to 0/1.
BCASTGEN_SIMD_NEON void store_bool_8(bool* p, uint8x16_t m) {
  vst1q_u8(reinterpret_cast<std::uint8_t*>(p), vandq_u8(m, vdupq_n_u8(1)));
}
BCASTGEN_SIMD_NEON void store_bool_16(bool* p, uint16x8_t m) {
  const std::uint64_t bits = vget_lane_u64(vreinterpret_u64_u8(vand_u8(vmovn_u16(m), vdup_n_u8(1))), 0);
  std::memcpy(p, &bits, 8);
}
BCASTGEN_SIMD_NEON void store_bool_32(bool* p, uint32x4_t m) {
  const uint8x8_t bytes = vmovn_u16(vcombine_u16(vmovn_u32(m), vdup_n_u16(0)));
  const std::uint32_t bits = vget_lane_u32(vreinterpret_u32_u8(vand_u8(bytes, vdup_n_u8(1))), 0);
  std::memcpy(p, &bits, 4);
}
BCASTGEN_SIMD_NEON void store_bool_64(bool* p, uint64x2_t m) {
  const uint32x2_t words = vmovn_u64(m);
  const uint8x8_t bytes = vmovn_u16(vcombine_u16(vmovn_u32(vcombine_u32(words, vdup_n_u32(0))), vdup_n_u16(0)));
  const std::uint16_t bits = vget_lane_u16(vreinterpret_u16_u8(vand_u8(bytes, vdup_n_u8(1))), 0);
  std::memcpy(p, &bits, 2);
}
}  // namespace detail

// --- f32: float32x4_t, 4 lanes ---
BCASTGEN_SIMD_NEON float32x4_t load_f32(const float* p) { return vld1q_f32(p); }
BCASTGEN_SIMD_NEON void store_f32(float* p, float32x4_t v) { vst1q_f32(p, v); }
BCASTGEN_SIMD_NEON float32x4_t splat_f32(float x) { return vdupq_n_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t select_f32(uint32x4_t c, float32x4_t x, float32x4_t y) { return vbslq_f32(c, x, y); }
BCASTGEN_SIMD_NEON uint32x4_t load_cmp_f32(const bool* p) { return detail::load_cmp_32(p); }
BCASTGEN_SIMD_NEON uint32x4_t splat_cmp_f32(bool x) { return vdupq_n_u32(x ? UINT32_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_f32(bool* p, uint32x4_t m) { detail::store_bool_32(p, m); }
BCASTGEN_SIMD_NEON float32x4_t add_f32(float32x4_t a, float32x4_t b) { return vaddq_f32(a, b); }
BCASTGEN_SIMD_NEON float32x4_t subtract_f32(float32x4_t a, float32x4_t b) { return vsubq_f32(a, b); }
BCASTGEN_SIMD_NEON float32x4_t multiply_f32(float32x4_t a, float32x4_t b) { return vmulq_f32(a, b); }
BCASTGEN_SIMD_NEON float32x4_t divide_f32(float32x4_t a, float32x4_t b) { return vdivq_f32(a, b); }
// fmax/fmin give NaN where either is NaN; where a == b (+0 and -0 too) b.
BCASTGEN_SIMD_NEON float32x4_t maximum_f32(float32x4_t a, float32x4_t b) {
  return vbslq_f32(vceqq_f32(a, b), b, vmaxq_f32(a, b));
}
BCASTGEN_SIMD_NEON float32x4_t minimum_f32(float32x4_t a, float32x4_t b) {
  return vbslq_f32(vceqq_f32(a, b), b, vminq_f32(a, b));
}
// max(x, +0.0) (ReLU) is fmax alone: NaN stays NaN, and -0 gives +0 as the
// op does (its second operand, +0, where they compare equal).
BCASTGEN_SIMD_NEON float32x4_t maximum_zero_f32(float32x4_t x) { return vmaxq_f32(x, vdupq_n_f32(0.0f)); }
// min(x, +0.0): x where x < 0 or NaN, else +0 (fmin would keep -0).
BCASTGEN_SIMD_NEON float32x4_t minimum_zero_f32(float32x4_t x) {
  return vbslq_f32(vcgeq_f32(x, vdupq_n_f32(0.0f)), vdupq_n_f32(0.0f), x);
}
// The op of (n, x), n a literal (never NaN): n where it wins the compare,
// else x (a NaN x, and x where the two are equal, as the op gives).
BCASTGEN_SIMD_NEON float32x4_t maximum_number_f32(float32x4_t n, float32x4_t x) {
  return vbslq_f32(vcgtq_f32(n, x), n, x);
}
BCASTGEN_SIMD_NEON float32x4_t minimum_number_f32(float32x4_t n, float32x4_t x) {
  return vbslq_f32(vcltq_f32(n, x), n, x);
}
BCASTGEN_SIMD_NEON float32x4_t squared_difference_f32(float32x4_t a, float32x4_t b) {
  return vmulq_f32(vsubq_f32(a, b), vsubq_f32(a, b));
}
BCASTGEN_SIMD_NEON uint32x4_t equal_f32(float32x4_t a, float32x4_t b) { return vceqq_f32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t not_equal_f32(float32x4_t a, float32x4_t b) { return vmvnq_u32(vceqq_f32(a, b)); }
BCASTGEN_SIMD_NEON uint32x4_t less_f32(float32x4_t a, float32x4_t b) { return vcltq_f32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t less_equal_f32(float32x4_t a, float32x4_t b) { return vcleq_f32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t greater_f32(float32x4_t a, float32x4_t b) { return vcgtq_f32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t greater_equal_f32(float32x4_t a, float32x4_t b) { return vcgeq_f32(a, b); }
// |a| with the sign bit of b: a bit select.
BCASTGEN_SIMD_NEON float32x4_t copysign_f32(float32x4_t a, float32x4_t b) {
  return vbslq_f32(vdupq_n_u32(0x80000000u), b, a);
}
BCASTGEN_SIMD_NEON float32x4_t neg_f32(float32x4_t x) { return vnegq_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t abs_f32(float32x4_t x) { return vabsq_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t sqrt_f32(float32x4_t x) { return vsqrtq_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t square_f32(float32x4_t x) { return vmulq_f32(x, x); }
BCASTGEN_SIMD_NEON float32x4_t reciprocal_f32(float32x4_t x) { return vdivq_f32(vdupq_n_f32(1.0f), x); }
// frintm, frintp, frintz, frintn: exact, keep -0 and NaN; frintn is to nearest even (numpy.round).
BCASTGEN_SIMD_NEON float32x4_t floor_f32(float32x4_t x) { return vrndmq_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t ceil_f32(float32x4_t x) { return vrndpq_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t trunc_f32(float32x4_t x) { return vrndq_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t round_f32(float32x4_t x) { return vrndnq_f32(x); }
BCASTGEN_SIMD_NEON uint32x4_t isnan_f32(float32x4_t x) { return vmvnq_u32(vceqq_f32(x, x)); }
BCASTGEN_SIMD_NEON uint32x4_t isinf_f32(float32x4_t x) { return vceqq_f32(vabsq_f32(x), vdupq_n_f32(INFINITY)); }
// std::nextafter: equal lanes give b, NaN lanes a + b; a zero steps to the
// smallest subnormal with b's sign; any other a steps its bit pattern by
// +1 (away from zero) or -1 (toward it: a < b xor a >= 0), as a + (1 | mask).
BCASTGEN_SIMD_NEON float32x4_t nextafter_f32(float32x4_t a, float32x4_t b) {
  const float32x4_t zero = vdupq_n_f32(0.0f);
  const uint32x4_t toward_zero = veorq_u32(vcltq_f32(a, b), vcgeq_f32(a, zero));
  const float32x4_t stepped = vreinterpretq_f32_s32(
      vaddq_s32(vreinterpretq_s32_f32(a), vreinterpretq_s32_u32(vorrq_u32(toward_zero, vdupq_n_u32(1)))));
  const float32x4_t tiny = vreinterpretq_f32_u32(
      vorrq_u32(vandq_u32(vreinterpretq_u32_f32(b), vdupq_n_u32(0x80000000u)), vdupq_n_u32(1)));
  const float32x4_t equal_or_nan = vbslq_f32(vorrq_u32(isnan_f32(a), isnan_f32(b)), vaddq_f32(a, b), b);
  return vbslq_f32(vorrq_u32(vcltq_f32(a, b), vcgtq_f32(a, b)), vbslq_f32(vceqq_f32(a, zero), tiny, stepped),
                   equal_or_nan);
}
BCASTGEN_SIMD_NEON uint32x4_t isfinite_f32(float32x4_t x) { return vcltq_f32(vabsq_f32(x), vdupq_n_f32(INFINITY)); }
BCASTGEN_SIMD_NEON uint32x4_t signbit_f32(float32x4_t x) { return vcltq_s32(vreinterpretq_s32_f32(x), vdupq_n_s32(0)); }
// 1 or -1 by the sign, +0 for either zero, NaN kept.
BCASTGEN_SIMD_NEON float32x4_t sign_f32(float32x4_t x) {
  const float32x4_t zero = vdupq_n_f32(0.0f);
  const float32x4_t ones =
      vbslq_f32(vcgtq_f32(x, zero), vdupq_n_f32(1.0f), vbslq_f32(vcltq_f32(x, zero), vdupq_n_f32(-1.0f), zero));
  return vbslq_f32(isnan_f32(x), x, ones);
}
// fcvtzs, with the minimum where it would saturate (|x| >= 2^31) or give 0 for NaN.
BCASTGEN_SIMD_NEON int32x4_t cast_f32_i32(float32x4_t x) {
  return vbslq_s32(vcltq_f32(vabsq_f32(x), vdupq_n_f32(0x1p31f)), vcvtq_s32_f32(x), vdupq_n_s32(INT32_MIN));
}
// x != 0, NaN true (an unordered compare).
BCASTGEN_SIMD_NEON uint32x4_t cast_f32_bool(float32x4_t x) { return vmvnq_u32(vceqq_f32(x, vdupq_n_f32(0.0f))); }
BCASTGEN_SIMD_NEON float32x4_t cast_bool_f32(uint32x4_t x) {
  return vreinterpretq_f32_u32(vandq_u32(x, vreinterpretq_u32_f32(vdupq_n_f32(1.0f))));
}
// scvtf, ucvtf: to nearest even.
BCASTGEN_SIMD_NEON float32x4_t cast_i32_f32(int32x4_t x) { return vcvtq_f32_s32(x); }
BCASTGEN_SIMD_NEON float32x4_t cast_u32_f32(uint32x4_t x) { return vcvtq_f32_u32(x); }
// f32 <-> f64 (fcvtl, fcvtn: the scalar conversions' rounding). Part S of
// the widened result comes from half S of x.
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_f32_f64(float32x4_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vcvt_f64_f32(vget_low_f32(x));
  } else {
    return vcvt_high_f64_f32(x);
  }
}
BCASTGEN_SIMD_NEON float32x4_t cast_f64_f32(float64x2_t a, float64x2_t b) {
  return vcvt_high_f32_f64(vcvt_f32_f64(a), b);
}

// --- f64: float64x2_t, 2 lanes ---
BCASTGEN_SIMD_NEON float64x2_t load_f64(const double* p) { return vld1q_f64(p); }
BCASTGEN_SIMD_NEON void store_f64(double* p, float64x2_t v) { vst1q_f64(p, v); }
BCASTGEN_SIMD_NEON float64x2_t splat_f64(double x) { return vdupq_n_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t select_f64(uint64x2_t c, float64x2_t x, float64x2_t y) { return vbslq_f64(c, x, y); }
BCASTGEN_SIMD_NEON uint64x2_t load_cmp_f64(const bool* p) { return detail::load_cmp_64(p); }
BCASTGEN_SIMD_NEON uint64x2_t splat_cmp_f64(bool x) { return vdupq_n_u64(x ? UINT64_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_f64(bool* p, uint64x2_t m) { detail::store_bool_64(p, m); }
BCASTGEN_SIMD_NEON float64x2_t add_f64(float64x2_t a, float64x2_t b) { return vaddq_f64(a, b); }
BCASTGEN_SIMD_NEON float64x2_t subtract_f64(float64x2_t a, float64x2_t b) { return vsubq_f64(a, b); }
BCASTGEN_SIMD_NEON float64x2_t multiply_f64(float64x2_t a, float64x2_t b) { return vmulq_f64(a, b); }
BCASTGEN_SIMD_NEON float64x2_t divide_f64(float64x2_t a, float64x2_t b) { return vdivq_f64(a, b); }
BCASTGEN_SIMD_NEON float64x2_t maximum_f64(float64x2_t a, float64x2_t b) {
  return vbslq_f64(vceqq_f64(a, b), b, vmaxq_f64(a, b));
}
BCASTGEN_SIMD_NEON float64x2_t minimum_f64(float64x2_t a, float64x2_t b) {
  return vbslq_f64(vceqq_f64(a, b), b, vminq_f64(a, b));
}
BCASTGEN_SIMD_NEON float64x2_t maximum_zero_f64(float64x2_t x) { return vmaxq_f64(x, vdupq_n_f64(0.0)); }
BCASTGEN_SIMD_NEON float64x2_t minimum_zero_f64(float64x2_t x) {
  return vbslq_f64(vcgeq_f64(x, vdupq_n_f64(0.0)), vdupq_n_f64(0.0), x);
}
BCASTGEN_SIMD_NEON float64x2_t maximum_number_f64(float64x2_t n, float64x2_t x) {
  return vbslq_f64(vcgtq_f64(n, x), n, x);
}
BCASTGEN_SIMD_NEON float64x2_t minimum_number_f64(float64x2_t n, float64x2_t x) {
  return vbslq_f64(vcltq_f64(n, x), n, x);
}
BCASTGEN_SIMD_NEON float64x2_t squared_difference_f64(float64x2_t a, float64x2_t b) {
  return vmulq_f64(vsubq_f64(a, b), vsubq_f64(a, b));
}
BCASTGEN_SIMD_NEON uint64x2_t equal_f64(float64x2_t a, float64x2_t b) { return vceqq_f64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t not_equal_f64(float64x2_t a, float64x2_t b) { return detail::not_u64(vceqq_f64(a, b)); }
BCASTGEN_SIMD_NEON uint64x2_t less_f64(float64x2_t a, float64x2_t b) { return vcltq_f64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t less_equal_f64(float64x2_t a, float64x2_t b) { return vcleq_f64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t greater_f64(float64x2_t a, float64x2_t b) { return vcgtq_f64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t greater_equal_f64(float64x2_t a, float64x2_t b) { return vcgeq_f64(a, b); }
BCASTGEN_SIMD_NEON float64x2_t copysign_f64(float64x2_t a, float64x2_t b) {
  return vbslq_f64(vdupq_n_u64(0x8000000000000000ull), b, a);
}
BCASTGEN_SIMD_NEON float64x2_t neg_f64(float64x2_t x) { return vnegq_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t abs_f64(float64x2_t x) { return vabsq_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t sqrt_f64(float64x2_t x) { return vsqrtq_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t square_f64(float64x2_t x) { return vmulq_f64(x, x); }
BCASTGEN_SIMD_NEON float64x2_t reciprocal_f64(float64x2_t x) { return vdivq_f64(vdupq_n_f64(1.0), x); }
BCASTGEN_SIMD_NEON float64x2_t floor_f64(float64x2_t x) { return vrndmq_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t ceil_f64(float64x2_t x) { return vrndpq_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t trunc_f64(float64x2_t x) { return vrndq_f64(x); }
BCASTGEN_SIMD_NEON float64x2_t round_f64(float64x2_t x) { return vrndnq_f64(x); }
BCASTGEN_SIMD_NEON uint64x2_t isnan_f64(float64x2_t x) { return detail::not_u64(vceqq_f64(x, x)); }
BCASTGEN_SIMD_NEON uint64x2_t isinf_f64(float64x2_t x) { return vceqq_f64(vabsq_f64(x), vdupq_n_f64(INFINITY)); }
BCASTGEN_SIMD_NEON float64x2_t nextafter_f64(float64x2_t a, float64x2_t b) {
  const float64x2_t zero = vdupq_n_f64(0.0);
  const uint64x2_t toward_zero = veorq_u64(vcltq_f64(a, b), vcgeq_f64(a, zero));
  const float64x2_t stepped = vreinterpretq_f64_s64(
      vaddq_s64(vreinterpretq_s64_f64(a), vreinterpretq_s64_u64(vorrq_u64(toward_zero, vdupq_n_u64(1)))));
  const float64x2_t tiny = vreinterpretq_f64_u64(
      vorrq_u64(vandq_u64(vreinterpretq_u64_f64(b), vdupq_n_u64(0x8000000000000000ull)), vdupq_n_u64(1)));
  const float64x2_t equal_or_nan = vbslq_f64(vorrq_u64(isnan_f64(a), isnan_f64(b)), vaddq_f64(a, b), b);
  return vbslq_f64(vorrq_u64(vcltq_f64(a, b), vcgtq_f64(a, b)), vbslq_f64(vceqq_f64(a, zero), tiny, stepped),
                   equal_or_nan);
}
BCASTGEN_SIMD_NEON uint64x2_t isfinite_f64(float64x2_t x) { return vcltq_f64(vabsq_f64(x), vdupq_n_f64(INFINITY)); }
BCASTGEN_SIMD_NEON uint64x2_t signbit_f64(float64x2_t x) { return vcltq_s64(vreinterpretq_s64_f64(x), vdupq_n_s64(0)); }
BCASTGEN_SIMD_NEON float64x2_t sign_f64(float64x2_t x) {
  const float64x2_t zero = vdupq_n_f64(0.0);
  const float64x2_t ones =
      vbslq_f64(vcgtq_f64(x, zero), vdupq_n_f64(1.0), vbslq_f64(vcltq_f64(x, zero), vdupq_n_f64(-1.0), zero));
  return vbslq_f64(isnan_f64(x), x, ones);
}
BCASTGEN_SIMD_NEON int64x2_t cast_f64_i64(float64x2_t x) {
  return vbslq_s64(vcltq_f64(vabsq_f64(x), vdupq_n_f64(0x1p63)), vcvtq_s64_f64(x), vdupq_n_s64(INT64_MIN));
}
BCASTGEN_SIMD_NEON uint64x2_t cast_f64_bool(float64x2_t x) { return detail::not_u64(vceqq_f64(x, vdupq_n_f64(0.0))); }
BCASTGEN_SIMD_NEON float64x2_t cast_bool_f64(uint64x2_t x) {
  return vreinterpretq_f64_u64(vandq_u64(x, vreinterpretq_u64_f64(vdupq_n_f64(1.0))));
}
BCASTGEN_SIMD_NEON float64x2_t cast_i64_f64(int64x2_t x) { return vcvtq_f64_s64(x); }
BCASTGEN_SIMD_NEON float64x2_t cast_u64_f64(uint64x2_t x) { return vcvtq_f64_u64(x); }

// --- i8: int8x16_t, 16 lanes ---
BCASTGEN_SIMD_NEON int8x16_t load_i8(const std::int8_t* p) { return vld1q_s8(p); }
BCASTGEN_SIMD_NEON void store_i8(std::int8_t* p, int8x16_t v) { vst1q_s8(p, v); }
BCASTGEN_SIMD_NEON int8x16_t splat_i8(std::int8_t x) { return vdupq_n_s8(x); }
BCASTGEN_SIMD_NEON int8x16_t select_i8(uint8x16_t c, int8x16_t x, int8x16_t y) { return vbslq_s8(c, x, y); }
BCASTGEN_SIMD_NEON uint8x16_t load_cmp_i8(const bool* p) { return detail::load_cmp_8(p); }
BCASTGEN_SIMD_NEON uint8x16_t splat_cmp_i8(bool x) { return vdupq_n_u8(x ? UINT8_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_i8(bool* p, uint8x16_t m) { detail::store_bool_8(p, m); }
BCASTGEN_SIMD_NEON int8x16_t add_i8(int8x16_t a, int8x16_t b) { return vaddq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t subtract_i8(int8x16_t a, int8x16_t b) { return vsubq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t multiply_i8(int8x16_t a, int8x16_t b) { return vmulq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t squared_difference_i8(int8x16_t a, int8x16_t b) {
  return vmulq_s8(vsubq_s8(a, b), vsubq_s8(a, b));
}
BCASTGEN_SIMD_NEON int8x16_t maximum_i8(int8x16_t a, int8x16_t b) { return vmaxq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t minimum_i8(int8x16_t a, int8x16_t b) { return vminq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t bitwise_and_i8(int8x16_t a, int8x16_t b) { return vandq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t bitwise_or_i8(int8x16_t a, int8x16_t b) { return vorrq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t bitwise_xor_i8(int8x16_t a, int8x16_t b) { return veorq_s8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t equal_i8(int8x16_t a, int8x16_t b) { return vceqq_s8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t not_equal_i8(int8x16_t a, int8x16_t b) { return detail::not_u8(vceqq_s8(a, b)); }
BCASTGEN_SIMD_NEON uint8x16_t less_i8(int8x16_t a, int8x16_t b) { return vcltq_s8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t less_equal_i8(int8x16_t a, int8x16_t b) { return vcleq_s8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t greater_i8(int8x16_t a, int8x16_t b) { return vcgtq_s8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t greater_equal_i8(int8x16_t a, int8x16_t b) { return vcgeq_s8(a, b); }
BCASTGEN_SIMD_NEON int8x16_t bitwise_left_shift_i8(int8x16_t a, int8x16_t b) {
  return vreinterpretq_s8_u8(
      vandq_u8(vreinterpretq_u8_s8(vshlq_s8(a, b)), detail::below_u8(vreinterpretq_u8_s8(b), 8)));
}
BCASTGEN_SIMD_NEON int8x16_t bitwise_right_shift_i8(int8x16_t a, int8x16_t b) {
  return vshlq_s8(a, detail::negated_s8(detail::at_most_u8(vreinterpretq_u8_s8(b), 7)));
}
BCASTGEN_SIMD_NEON int8x16_t neg_i8(int8x16_t x) { return vnegq_s8(x); }
BCASTGEN_SIMD_NEON int8x16_t abs_i8(int8x16_t x) { return vabsq_s8(x); }
BCASTGEN_SIMD_NEON int8x16_t square_i8(int8x16_t x) { return vmulq_s8(x, x); }
BCASTGEN_SIMD_NEON int8x16_t bitwise_not_i8(int8x16_t x) { return vmvnq_s8(x); }
BCASTGEN_SIMD_NEON uint8x16_t cast_i8_u8(int8x16_t x) { return vreinterpretq_u8_s8(x); }
BCASTGEN_SIMD_NEON uint8x16_t cast_i8_bool(int8x16_t x) { return vtstq_s8(x, x); }
BCASTGEN_SIMD_NEON int8x16_t cast_bool_i8(uint8x16_t x) { return vreinterpretq_s8_u8(vandq_u8(x, vdupq_n_u8(1))); }

// --- u8: uint8x16_t, 16 lanes ---
BCASTGEN_SIMD_NEON uint8x16_t load_u8(const std::uint8_t* p) { return vld1q_u8(p); }
BCASTGEN_SIMD_NEON void store_u8(std::uint8_t* p, uint8x16_t v) { vst1q_u8(p, v); }
BCASTGEN_SIMD_NEON uint8x16_t splat_u8(std::uint8_t x) { return vdupq_n_u8(x); }
BCASTGEN_SIMD_NEON uint8x16_t select_u8(uint8x16_t c, uint8x16_t x, uint8x16_t y) { return vbslq_u8(c, x, y); }
BCASTGEN_SIMD_NEON uint8x16_t load_cmp_u8(const bool* p) { return detail::load_cmp_8(p); }
BCASTGEN_SIMD_NEON uint8x16_t splat_cmp_u8(bool x) { return vdupq_n_u8(x ? UINT8_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_u8(bool* p, uint8x16_t m) { detail::store_bool_8(p, m); }
BCASTGEN_SIMD_NEON uint8x16_t add_u8(uint8x16_t a, uint8x16_t b) { return vaddq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t subtract_u8(uint8x16_t a, uint8x16_t b) { return vsubq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t multiply_u8(uint8x16_t a, uint8x16_t b) { return vmulq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t squared_difference_u8(uint8x16_t a, uint8x16_t b) {
  return vmulq_u8(vsubq_u8(a, b), vsubq_u8(a, b));
}
BCASTGEN_SIMD_NEON uint8x16_t maximum_u8(uint8x16_t a, uint8x16_t b) { return vmaxq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t minimum_u8(uint8x16_t a, uint8x16_t b) { return vminq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_and_u8(uint8x16_t a, uint8x16_t b) { return vandq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_or_u8(uint8x16_t a, uint8x16_t b) { return vorrq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_xor_u8(uint8x16_t a, uint8x16_t b) { return veorq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t equal_u8(uint8x16_t a, uint8x16_t b) { return vceqq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t not_equal_u8(uint8x16_t a, uint8x16_t b) { return detail::not_u8(vceqq_u8(a, b)); }
BCASTGEN_SIMD_NEON uint8x16_t less_u8(uint8x16_t a, uint8x16_t b) { return vcltq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t less_equal_u8(uint8x16_t a, uint8x16_t b) { return vcleq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t greater_u8(uint8x16_t a, uint8x16_t b) { return vcgtq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t greater_equal_u8(uint8x16_t a, uint8x16_t b) { return vcgeq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_left_shift_u8(uint8x16_t a, uint8x16_t b) {
  return vandq_u8(vshlq_u8(a, vreinterpretq_s8_u8(b)), detail::below_u8(b, 8));
}
BCASTGEN_SIMD_NEON uint8x16_t bitwise_right_shift_u8(uint8x16_t a, uint8x16_t b) {
  return vshlq_u8(a, detail::negated_s8(detail::at_most_u8(b, 8)));
}
BCASTGEN_SIMD_NEON uint8x16_t neg_u8(uint8x16_t x) { return vreinterpretq_u8_s8(vnegq_s8(vreinterpretq_s8_u8(x))); }
BCASTGEN_SIMD_NEON uint8x16_t abs_u8(uint8x16_t x) { return x; }
BCASTGEN_SIMD_NEON uint8x16_t square_u8(uint8x16_t x) { return vmulq_u8(x, x); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_not_u8(uint8x16_t x) { return vmvnq_u8(x); }
BCASTGEN_SIMD_NEON int8x16_t cast_u8_i8(uint8x16_t x) { return vreinterpretq_s8_u8(x); }
BCASTGEN_SIMD_NEON uint8x16_t cast_u8_bool(uint8x16_t x) { return vtstq_u8(x, x); }
BCASTGEN_SIMD_NEON uint8x16_t cast_bool_u8(uint8x16_t x) { return vandq_u8(x, vdupq_n_u8(1)); }

// --- i16: int16x8_t, 8 lanes ---
BCASTGEN_SIMD_NEON int16x8_t load_i16(const std::int16_t* p) { return vld1q_s16(p); }
BCASTGEN_SIMD_NEON void store_i16(std::int16_t* p, int16x8_t v) { vst1q_s16(p, v); }
BCASTGEN_SIMD_NEON int16x8_t splat_i16(std::int16_t x) { return vdupq_n_s16(x); }
BCASTGEN_SIMD_NEON int16x8_t select_i16(uint16x8_t c, int16x8_t x, int16x8_t y) { return vbslq_s16(c, x, y); }
BCASTGEN_SIMD_NEON uint16x8_t load_cmp_i16(const bool* p) { return detail::load_cmp_16(p); }
BCASTGEN_SIMD_NEON uint16x8_t splat_cmp_i16(bool x) { return vdupq_n_u16(x ? UINT16_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_i16(bool* p, uint16x8_t m) { detail::store_bool_16(p, m); }
BCASTGEN_SIMD_NEON int16x8_t add_i16(int16x8_t a, int16x8_t b) { return vaddq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t subtract_i16(int16x8_t a, int16x8_t b) { return vsubq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t multiply_i16(int16x8_t a, int16x8_t b) { return vmulq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t squared_difference_i16(int16x8_t a, int16x8_t b) {
  return vmulq_s16(vsubq_s16(a, b), vsubq_s16(a, b));
}
BCASTGEN_SIMD_NEON int16x8_t maximum_i16(int16x8_t a, int16x8_t b) { return vmaxq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t minimum_i16(int16x8_t a, int16x8_t b) { return vminq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t bitwise_and_i16(int16x8_t a, int16x8_t b) { return vandq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t bitwise_or_i16(int16x8_t a, int16x8_t b) { return vorrq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t bitwise_xor_i16(int16x8_t a, int16x8_t b) { return veorq_s16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t equal_i16(int16x8_t a, int16x8_t b) { return vceqq_s16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t not_equal_i16(int16x8_t a, int16x8_t b) { return detail::not_u16(vceqq_s16(a, b)); }
BCASTGEN_SIMD_NEON uint16x8_t less_i16(int16x8_t a, int16x8_t b) { return vcltq_s16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t less_equal_i16(int16x8_t a, int16x8_t b) { return vcleq_s16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t greater_i16(int16x8_t a, int16x8_t b) { return vcgtq_s16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t greater_equal_i16(int16x8_t a, int16x8_t b) { return vcgeq_s16(a, b); }
BCASTGEN_SIMD_NEON int16x8_t bitwise_left_shift_i16(int16x8_t a, int16x8_t b) {
  return vreinterpretq_s16_u16(
      vandq_u16(vreinterpretq_u16_s16(vshlq_s16(a, b)), detail::below_u16(vreinterpretq_u16_s16(b), 16)));
}
BCASTGEN_SIMD_NEON int16x8_t bitwise_right_shift_i16(int16x8_t a, int16x8_t b) {
  return vshlq_s16(a, detail::negated_s16(detail::at_most_u16(vreinterpretq_u16_s16(b), 15)));
}
BCASTGEN_SIMD_NEON int16x8_t neg_i16(int16x8_t x) { return vnegq_s16(x); }
BCASTGEN_SIMD_NEON int16x8_t abs_i16(int16x8_t x) { return vabsq_s16(x); }
BCASTGEN_SIMD_NEON int16x8_t square_i16(int16x8_t x) { return vmulq_s16(x, x); }
BCASTGEN_SIMD_NEON int16x8_t bitwise_not_i16(int16x8_t x) { return vmvnq_s16(x); }
BCASTGEN_SIMD_NEON uint16x8_t cast_i16_u16(int16x8_t x) { return vreinterpretq_u16_s16(x); }
BCASTGEN_SIMD_NEON uint16x8_t cast_i16_bool(int16x8_t x) { return vtstq_s16(x, x); }
BCASTGEN_SIMD_NEON int16x8_t cast_bool_i16(uint16x8_t x) { return vreinterpretq_s16_u16(vandq_u16(x, vdupq_n_u16(1))); }

// --- u16: uint16x8_t, 8 lanes ---
BCASTGEN_SIMD_NEON uint16x8_t load_u16(const std::uint16_t* p) { return vld1q_u16(p); }
BCASTGEN_SIMD_NEON void store_u16(std::uint16_t* p, uint16x8_t v) { vst1q_u16(p, v); }
BCASTGEN_SIMD_NEON uint16x8_t splat_u16(std::uint16_t x) { return vdupq_n_u16(x); }
BCASTGEN_SIMD_NEON uint16x8_t select_u16(uint16x8_t c, uint16x8_t x, uint16x8_t y) { return vbslq_u16(c, x, y); }
BCASTGEN_SIMD_NEON uint16x8_t load_cmp_u16(const bool* p) { return detail::load_cmp_16(p); }
BCASTGEN_SIMD_NEON uint16x8_t splat_cmp_u16(bool x) { return vdupq_n_u16(x ? UINT16_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_u16(bool* p, uint16x8_t m) { detail::store_bool_16(p, m); }
BCASTGEN_SIMD_NEON uint16x8_t add_u16(uint16x8_t a, uint16x8_t b) { return vaddq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t subtract_u16(uint16x8_t a, uint16x8_t b) { return vsubq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t multiply_u16(uint16x8_t a, uint16x8_t b) { return vmulq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t squared_difference_u16(uint16x8_t a, uint16x8_t b) {
  return vmulq_u16(vsubq_u16(a, b), vsubq_u16(a, b));
}
BCASTGEN_SIMD_NEON uint16x8_t maximum_u16(uint16x8_t a, uint16x8_t b) { return vmaxq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t minimum_u16(uint16x8_t a, uint16x8_t b) { return vminq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t bitwise_and_u16(uint16x8_t a, uint16x8_t b) { return vandq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t bitwise_or_u16(uint16x8_t a, uint16x8_t b) { return vorrq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t bitwise_xor_u16(uint16x8_t a, uint16x8_t b) { return veorq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t equal_u16(uint16x8_t a, uint16x8_t b) { return vceqq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t not_equal_u16(uint16x8_t a, uint16x8_t b) { return detail::not_u16(vceqq_u16(a, b)); }
BCASTGEN_SIMD_NEON uint16x8_t less_u16(uint16x8_t a, uint16x8_t b) { return vcltq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t less_equal_u16(uint16x8_t a, uint16x8_t b) { return vcleq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t greater_u16(uint16x8_t a, uint16x8_t b) { return vcgtq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t greater_equal_u16(uint16x8_t a, uint16x8_t b) { return vcgeq_u16(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t bitwise_left_shift_u16(uint16x8_t a, uint16x8_t b) {
  return vandq_u16(vshlq_u16(a, vreinterpretq_s16_u16(b)), detail::below_u16(b, 16));
}
BCASTGEN_SIMD_NEON uint16x8_t bitwise_right_shift_u16(uint16x8_t a, uint16x8_t b) {
  return vshlq_u16(a, detail::negated_s16(detail::at_most_u16(b, 16)));
}
BCASTGEN_SIMD_NEON uint16x8_t neg_u16(uint16x8_t x) {
  return vreinterpretq_u16_s16(vnegq_s16(vreinterpretq_s16_u16(x)));
}
BCASTGEN_SIMD_NEON uint16x8_t abs_u16(uint16x8_t x) { return x; }
BCASTGEN_SIMD_NEON uint16x8_t square_u16(uint16x8_t x) { return vmulq_u16(x, x); }
BCASTGEN_SIMD_NEON uint16x8_t bitwise_not_u16(uint16x8_t x) { return vmvnq_u16(x); }
BCASTGEN_SIMD_NEON int16x8_t cast_u16_i16(uint16x8_t x) { return vreinterpretq_s16_u16(x); }
BCASTGEN_SIMD_NEON uint16x8_t cast_u16_bool(uint16x8_t x) { return vtstq_u16(x, x); }
BCASTGEN_SIMD_NEON uint16x8_t cast_bool_u16(uint16x8_t x) { return vandq_u16(x, vdupq_n_u16(1)); }

// --- i32: int32x4_t, 4 lanes ---
BCASTGEN_SIMD_NEON int32x4_t load_i32(const std::int32_t* p) { return vld1q_s32(p); }
BCASTGEN_SIMD_NEON void store_i32(std::int32_t* p, int32x4_t v) { vst1q_s32(p, v); }
BCASTGEN_SIMD_NEON int32x4_t splat_i32(std::int32_t x) { return vdupq_n_s32(x); }
BCASTGEN_SIMD_NEON int32x4_t select_i32(uint32x4_t c, int32x4_t x, int32x4_t y) { return vbslq_s32(c, x, y); }
BCASTGEN_SIMD_NEON uint32x4_t load_cmp_i32(const bool* p) { return detail::load_cmp_32(p); }
BCASTGEN_SIMD_NEON uint32x4_t splat_cmp_i32(bool x) { return vdupq_n_u32(x ? UINT32_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_i32(bool* p, uint32x4_t m) { detail::store_bool_32(p, m); }
BCASTGEN_SIMD_NEON int32x4_t add_i32(int32x4_t a, int32x4_t b) { return vaddq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t subtract_i32(int32x4_t a, int32x4_t b) { return vsubq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t multiply_i32(int32x4_t a, int32x4_t b) { return vmulq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t squared_difference_i32(int32x4_t a, int32x4_t b) {
  return vmulq_s32(vsubq_s32(a, b), vsubq_s32(a, b));
}
BCASTGEN_SIMD_NEON int32x4_t maximum_i32(int32x4_t a, int32x4_t b) { return vmaxq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t minimum_i32(int32x4_t a, int32x4_t b) { return vminq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t bitwise_and_i32(int32x4_t a, int32x4_t b) { return vandq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t bitwise_or_i32(int32x4_t a, int32x4_t b) { return vorrq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t bitwise_xor_i32(int32x4_t a, int32x4_t b) { return veorq_s32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t equal_i32(int32x4_t a, int32x4_t b) { return vceqq_s32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t not_equal_i32(int32x4_t a, int32x4_t b) { return detail::not_u32(vceqq_s32(a, b)); }
BCASTGEN_SIMD_NEON uint32x4_t less_i32(int32x4_t a, int32x4_t b) { return vcltq_s32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t less_equal_i32(int32x4_t a, int32x4_t b) { return vcleq_s32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t greater_i32(int32x4_t a, int32x4_t b) { return vcgtq_s32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t greater_equal_i32(int32x4_t a, int32x4_t b) { return vcgeq_s32(a, b); }
BCASTGEN_SIMD_NEON int32x4_t bitwise_left_shift_i32(int32x4_t a, int32x4_t b) {
  return vreinterpretq_s32_u32(
      vandq_u32(vreinterpretq_u32_s32(vshlq_s32(a, b)), detail::below_u32(vreinterpretq_u32_s32(b), 32)));
}
BCASTGEN_SIMD_NEON int32x4_t bitwise_right_shift_i32(int32x4_t a, int32x4_t b) {
  return vshlq_s32(a, detail::negated_s32(detail::at_most_u32(vreinterpretq_u32_s32(b), 31)));
}
BCASTGEN_SIMD_NEON int32x4_t neg_i32(int32x4_t x) { return vnegq_s32(x); }
BCASTGEN_SIMD_NEON int32x4_t abs_i32(int32x4_t x) { return vabsq_s32(x); }
BCASTGEN_SIMD_NEON int32x4_t square_i32(int32x4_t x) { return vmulq_s32(x, x); }
BCASTGEN_SIMD_NEON int32x4_t bitwise_not_i32(int32x4_t x) { return vmvnq_s32(x); }
BCASTGEN_SIMD_NEON uint32x4_t cast_i32_u32(int32x4_t x) { return vreinterpretq_u32_s32(x); }
BCASTGEN_SIMD_NEON uint32x4_t cast_i32_bool(int32x4_t x) { return vtstq_s32(x, x); }
BCASTGEN_SIMD_NEON int32x4_t cast_bool_i32(uint32x4_t x) { return vreinterpretq_s32_u32(vandq_u32(x, vdupq_n_u32(1))); }

// --- u32: uint32x4_t, 4 lanes ---
BCASTGEN_SIMD_NEON uint32x4_t load_u32(const std::uint32_t* p) { return vld1q_u32(p); }
BCASTGEN_SIMD_NEON void store_u32(std::uint32_t* p, uint32x4_t v) { vst1q_u32(p, v); }
BCASTGEN_SIMD_NEON uint32x4_t splat_u32(std::uint32_t x) { return vdupq_n_u32(x); }
BCASTGEN_SIMD_NEON uint32x4_t select_u32(uint32x4_t c, uint32x4_t x, uint32x4_t y) { return vbslq_u32(c, x, y); }
BCASTGEN_SIMD_NEON uint32x4_t load_cmp_u32(const bool* p) { return detail::load_cmp_32(p); }
BCASTGEN_SIMD_NEON uint32x4_t splat_cmp_u32(bool x) { return vdupq_n_u32(x ? UINT32_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_u32(bool* p, uint32x4_t m) { detail::store_bool_32(p, m); }
BCASTGEN_SIMD_NEON uint32x4_t add_u32(uint32x4_t a, uint32x4_t b) { return vaddq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t subtract_u32(uint32x4_t a, uint32x4_t b) { return vsubq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t multiply_u32(uint32x4_t a, uint32x4_t b) { return vmulq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t squared_difference_u32(uint32x4_t a, uint32x4_t b) {
  return vmulq_u32(vsubq_u32(a, b), vsubq_u32(a, b));
}
BCASTGEN_SIMD_NEON uint32x4_t maximum_u32(uint32x4_t a, uint32x4_t b) { return vmaxq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t minimum_u32(uint32x4_t a, uint32x4_t b) { return vminq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t bitwise_and_u32(uint32x4_t a, uint32x4_t b) { return vandq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t bitwise_or_u32(uint32x4_t a, uint32x4_t b) { return vorrq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t bitwise_xor_u32(uint32x4_t a, uint32x4_t b) { return veorq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t equal_u32(uint32x4_t a, uint32x4_t b) { return vceqq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t not_equal_u32(uint32x4_t a, uint32x4_t b) { return detail::not_u32(vceqq_u32(a, b)); }
BCASTGEN_SIMD_NEON uint32x4_t less_u32(uint32x4_t a, uint32x4_t b) { return vcltq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t less_equal_u32(uint32x4_t a, uint32x4_t b) { return vcleq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t greater_u32(uint32x4_t a, uint32x4_t b) { return vcgtq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t greater_equal_u32(uint32x4_t a, uint32x4_t b) { return vcgeq_u32(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t bitwise_left_shift_u32(uint32x4_t a, uint32x4_t b) {
  return vandq_u32(vshlq_u32(a, vreinterpretq_s32_u32(b)), detail::below_u32(b, 32));
}
BCASTGEN_SIMD_NEON uint32x4_t bitwise_right_shift_u32(uint32x4_t a, uint32x4_t b) {
  return vshlq_u32(a, detail::negated_s32(detail::at_most_u32(b, 32)));
}
BCASTGEN_SIMD_NEON uint32x4_t neg_u32(uint32x4_t x) {
  return vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(x)));
}
BCASTGEN_SIMD_NEON uint32x4_t abs_u32(uint32x4_t x) { return x; }
BCASTGEN_SIMD_NEON uint32x4_t square_u32(uint32x4_t x) { return vmulq_u32(x, x); }
BCASTGEN_SIMD_NEON uint32x4_t bitwise_not_u32(uint32x4_t x) { return vmvnq_u32(x); }
BCASTGEN_SIMD_NEON int32x4_t cast_u32_i32(uint32x4_t x) { return vreinterpretq_s32_u32(x); }
BCASTGEN_SIMD_NEON uint32x4_t cast_u32_bool(uint32x4_t x) { return vtstq_u32(x, x); }
BCASTGEN_SIMD_NEON uint32x4_t cast_bool_u32(uint32x4_t x) { return vandq_u32(x, vdupq_n_u32(1)); }

// --- i64: int64x2_t, 2 lanes ---
BCASTGEN_SIMD_NEON int64x2_t load_i64(const std::int64_t* p) { return vld1q_s64(p); }
BCASTGEN_SIMD_NEON void store_i64(std::int64_t* p, int64x2_t v) { vst1q_s64(p, v); }
BCASTGEN_SIMD_NEON int64x2_t splat_i64(std::int64_t x) { return vdupq_n_s64(x); }
BCASTGEN_SIMD_NEON int64x2_t select_i64(uint64x2_t c, int64x2_t x, int64x2_t y) { return vbslq_s64(c, x, y); }
BCASTGEN_SIMD_NEON uint64x2_t load_cmp_i64(const bool* p) { return detail::load_cmp_64(p); }
BCASTGEN_SIMD_NEON uint64x2_t splat_cmp_i64(bool x) { return vdupq_n_u64(x ? UINT64_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_i64(bool* p, uint64x2_t m) { detail::store_bool_64(p, m); }
BCASTGEN_SIMD_NEON int64x2_t add_i64(int64x2_t a, int64x2_t b) { return vaddq_s64(a, b); }
BCASTGEN_SIMD_NEON int64x2_t subtract_i64(int64x2_t a, int64x2_t b) { return vsubq_s64(a, b); }
BCASTGEN_SIMD_NEON int64x2_t maximum_i64(int64x2_t a, int64x2_t b) { return vbslq_s64(vcgtq_s64(a, b), a, b); }
BCASTGEN_SIMD_NEON int64x2_t minimum_i64(int64x2_t a, int64x2_t b) { return vbslq_s64(vcltq_s64(a, b), a, b); }
BCASTGEN_SIMD_NEON int64x2_t bitwise_and_i64(int64x2_t a, int64x2_t b) { return vandq_s64(a, b); }
BCASTGEN_SIMD_NEON int64x2_t bitwise_or_i64(int64x2_t a, int64x2_t b) { return vorrq_s64(a, b); }
BCASTGEN_SIMD_NEON int64x2_t bitwise_xor_i64(int64x2_t a, int64x2_t b) { return veorq_s64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t equal_i64(int64x2_t a, int64x2_t b) { return vceqq_s64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t not_equal_i64(int64x2_t a, int64x2_t b) { return detail::not_u64(vceqq_s64(a, b)); }
BCASTGEN_SIMD_NEON uint64x2_t less_i64(int64x2_t a, int64x2_t b) { return vcltq_s64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t less_equal_i64(int64x2_t a, int64x2_t b) { return vcleq_s64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t greater_i64(int64x2_t a, int64x2_t b) { return vcgtq_s64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t greater_equal_i64(int64x2_t a, int64x2_t b) { return vcgeq_s64(a, b); }
BCASTGEN_SIMD_NEON int64x2_t bitwise_left_shift_i64(int64x2_t a, int64x2_t b) {
  return vreinterpretq_s64_u64(
      vandq_u64(vreinterpretq_u64_s64(vshlq_s64(a, b)), detail::below_u64(vreinterpretq_u64_s64(b), 64)));
}
BCASTGEN_SIMD_NEON int64x2_t bitwise_right_shift_i64(int64x2_t a, int64x2_t b) {
  return vshlq_s64(a, detail::negated_s64(detail::at_most_u64(vreinterpretq_u64_s64(b), 63)));
}
BCASTGEN_SIMD_NEON int64x2_t neg_i64(int64x2_t x) { return vnegq_s64(x); }
BCASTGEN_SIMD_NEON int64x2_t abs_i64(int64x2_t x) { return vabsq_s64(x); }
BCASTGEN_SIMD_NEON int64x2_t bitwise_not_i64(int64x2_t x) {
  return vreinterpretq_s64_u64(detail::not_u64(vreinterpretq_u64_s64(x)));
}
BCASTGEN_SIMD_NEON uint64x2_t cast_i64_u64(int64x2_t x) { return vreinterpretq_u64_s64(x); }
BCASTGEN_SIMD_NEON uint64x2_t cast_i64_bool(int64x2_t x) { return vtstq_s64(x, x); }
BCASTGEN_SIMD_NEON int64x2_t cast_bool_i64(uint64x2_t x) { return vreinterpretq_s64_u64(vandq_u64(x, vdupq_n_u64(1))); }

// --- u64: uint64x2_t, 2 lanes ---
BCASTGEN_SIMD_NEON uint64x2_t load_u64(const std::uint64_t* p) { return vld1q_u64(p); }
BCASTGEN_SIMD_NEON void store_u64(std::uint64_t* p, uint64x2_t v) { vst1q_u64(p, v); }
BCASTGEN_SIMD_NEON uint64x2_t splat_u64(std::uint64_t x) { return vdupq_n_u64(x); }
BCASTGEN_SIMD_NEON uint64x2_t select_u64(uint64x2_t c, uint64x2_t x, uint64x2_t y) { return vbslq_u64(c, x, y); }
BCASTGEN_SIMD_NEON uint64x2_t load_cmp_u64(const bool* p) { return detail::load_cmp_64(p); }
BCASTGEN_SIMD_NEON uint64x2_t splat_cmp_u64(bool x) { return vdupq_n_u64(x ? UINT64_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_u64(bool* p, uint64x2_t m) { detail::store_bool_64(p, m); }
BCASTGEN_SIMD_NEON uint64x2_t add_u64(uint64x2_t a, uint64x2_t b) { return vaddq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t subtract_u64(uint64x2_t a, uint64x2_t b) { return vsubq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t maximum_u64(uint64x2_t a, uint64x2_t b) { return vbslq_u64(vcgtq_u64(a, b), a, b); }
BCASTGEN_SIMD_NEON uint64x2_t minimum_u64(uint64x2_t a, uint64x2_t b) { return vbslq_u64(vcltq_u64(a, b), a, b); }
BCASTGEN_SIMD_NEON uint64x2_t bitwise_and_u64(uint64x2_t a, uint64x2_t b) { return vandq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t bitwise_or_u64(uint64x2_t a, uint64x2_t b) { return vorrq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t bitwise_xor_u64(uint64x2_t a, uint64x2_t b) { return veorq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t equal_u64(uint64x2_t a, uint64x2_t b) { return vceqq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t not_equal_u64(uint64x2_t a, uint64x2_t b) { return detail::not_u64(vceqq_u64(a, b)); }
BCASTGEN_SIMD_NEON uint64x2_t less_u64(uint64x2_t a, uint64x2_t b) { return vcltq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t less_equal_u64(uint64x2_t a, uint64x2_t b) { return vcleq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t greater_u64(uint64x2_t a, uint64x2_t b) { return vcgtq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t greater_equal_u64(uint64x2_t a, uint64x2_t b) { return vcgeq_u64(a, b); }
BCASTGEN_SIMD_NEON uint64x2_t bitwise_left_shift_u64(uint64x2_t a, uint64x2_t b) {
  return vandq_u64(vshlq_u64(a, vreinterpretq_s64_u64(b)), detail::below_u64(b, 64));
}
BCASTGEN_SIMD_NEON uint64x2_t bitwise_right_shift_u64(uint64x2_t a, uint64x2_t b) {
  return vshlq_u64(a, detail::negated_s64(detail::at_most_u64(b, 64)));
}
BCASTGEN_SIMD_NEON uint64x2_t neg_u64(uint64x2_t x) {
  return vreinterpretq_u64_s64(vnegq_s64(vreinterpretq_s64_u64(x)));
}
BCASTGEN_SIMD_NEON uint64x2_t abs_u64(uint64x2_t x) { return x; }
BCASTGEN_SIMD_NEON uint64x2_t bitwise_not_u64(uint64x2_t x) { return detail::not_u64(x); }
BCASTGEN_SIMD_NEON int64x2_t cast_u64_i64(uint64x2_t x) { return vreinterpretq_s64_u64(x); }
BCASTGEN_SIMD_NEON uint64x2_t cast_u64_bool(uint64x2_t x) { return vtstq_u64(x, x); }
BCASTGEN_SIMD_NEON uint64x2_t cast_bool_u64(uint64x2_t x) { return vandq_u64(x, vdupq_n_u64(1)); }

// --- bool: uint8x16_t of 0/1 bytes, 16 lanes ---
BCASTGEN_SIMD_NEON uint8x16_t load_bool(const bool* p) { return vld1q_u8(reinterpret_cast<const std::uint8_t*>(p)); }
BCASTGEN_SIMD_NEON void store_bool(bool* p, uint8x16_t v) { vst1q_u8(reinterpret_cast<std::uint8_t*>(p), v); }
BCASTGEN_SIMD_NEON uint8x16_t splat_bool(bool x) { return vdupq_n_u8(x ? 1 : 0); }
BCASTGEN_SIMD_NEON uint8x16_t select_bool(uint8x16_t c, uint8x16_t x, uint8x16_t y) { return vbslq_u8(c, x, y); }
BCASTGEN_SIMD_NEON uint8x16_t load_cmp_bool(const bool* p) { return detail::load_cmp_8(p); }
BCASTGEN_SIMD_NEON uint8x16_t splat_cmp_bool(bool x) { return vdupq_n_u8(x ? UINT8_MAX : 0); }
BCASTGEN_SIMD_NEON void store_bool_bool(bool* p, uint8x16_t m) { detail::store_bool_8(p, m); }
BCASTGEN_SIMD_NEON uint8x16_t logical_and_bool(uint8x16_t a, uint8x16_t b) { return vandq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t logical_or_bool(uint8x16_t a, uint8x16_t b) { return vorrq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t logical_xor_bool(uint8x16_t a, uint8x16_t b) { return veorq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_and_bool(uint8x16_t a, uint8x16_t b) { return vandq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_or_bool(uint8x16_t a, uint8x16_t b) { return vorrq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t bitwise_xor_bool(uint8x16_t a, uint8x16_t b) { return veorq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t equal_bool(uint8x16_t a, uint8x16_t b) { return vceqq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t not_equal_bool(uint8x16_t a, uint8x16_t b) { return vmvnq_u8(vceqq_u8(a, b)); }
BCASTGEN_SIMD_NEON uint8x16_t less_bool(uint8x16_t a, uint8x16_t b) { return vcltq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t less_equal_bool(uint8x16_t a, uint8x16_t b) { return vcleq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t greater_bool(uint8x16_t a, uint8x16_t b) { return vcgtq_u8(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t greater_equal_bool(uint8x16_t a, uint8x16_t b) { return vcgeq_u8(a, b); }

// --- math functions: the shared algorithms of math_f32.inl ---
namespace detail {
// fmla rounds once, as the scalar std::fma.
BCASTGEN_SIMD_NEON float32x4_t fmadd_f32(float32x4_t a, float32x4_t b, float32x4_t c) { return vfmaq_f32(c, a, b); }
// a > b ? a : b (a < b ? a : b): b where either is NaN, as x86's vmaxps and
// the scalar instantiation (fmax would give the NaN).
BCASTGEN_SIMD_NEON float32x4_t max_or_b_f32(float32x4_t a, float32x4_t b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
BCASTGEN_SIMD_NEON float32x4_t min_or_b_f32(float32x4_t a, float32x4_t b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
BCASTGEN_SIMD_NEON int32x4_t bits_f32(float32x4_t x) { return vreinterpretq_s32_f32(x); }
BCASTGEN_SIMD_NEON float32x4_t from_bits_f32(int32x4_t x) { return vreinterpretq_f32_s32(x); }
template <int N>
BCASTGEN_SIMD_NEON int32x4_t shift_left_i32(int32x4_t x) {
  return vshlq_n_s32(x, N);
}
template <int N>
BCASTGEN_SIMD_NEON int32x4_t shift_right_i32(int32x4_t x) {
  return vshrq_n_s32(x, N);
}
// table[j & 3] per lane (callers pass j with higher bits set): the 16-byte
// table in one register, and tbl picks bytes 4j .. 4j + 3 of it.
BCASTGEN_SIMD_NEON float32x4_t lookup4_f32(const float* table, int32x4_t j) {
  const uint8x16_t bytes = vld1q_u8(reinterpret_cast<const std::uint8_t*>(table));
  const uint32x4_t low = vandq_u32(vreinterpretq_u32_s32(j), vdupq_n_u32(3));
  const uint32x4_t at = vmlaq_n_u32(vdupq_n_u32(0x03020100u), low, 0x04040404u);
  return vreinterpretq_f32_u8(vqtbl1q_u8(bytes, vreinterpretq_u8_u32(at)));
}
// table[j & 7] per lane (vpermps reads the low 3 bits of j too; callers
// pass j with higher bits set): the 32-byte table in two registers, and tbl
// picks bytes 4j .. 4j + 3 of it.
BCASTGEN_SIMD_NEON float32x4_t lookup8_f32(const float* table, int32x4_t j) {
  const uint8x16x2_t bytes = {{vld1q_u8(reinterpret_cast<const std::uint8_t*>(table)),
                               vld1q_u8(reinterpret_cast<const std::uint8_t*>(table + 4))}};
  const uint32x4_t low = vandq_u32(vreinterpretq_u32_s32(j), vdupq_n_u32(7));
  const uint32x4_t at = vmlaq_n_u32(vdupq_n_u32(0x03020100u), low, 0x04040404u);
  return vreinterpretq_f32_u8(vqtbl2q_u8(bytes, vreinterpretq_u8_u32(at)));
}
// table[j & 15], as lookup8 with the 64-byte table in four registers.
BCASTGEN_SIMD_NEON float32x4_t lookup16_f32(const float* table, int32x4_t j) {
  const std::uint8_t* b = reinterpret_cast<const std::uint8_t*>(table);
  const uint8x16x4_t bytes = {{vld1q_u8(b), vld1q_u8(b + 16), vld1q_u8(b + 32), vld1q_u8(b + 48)}};
  const uint32x4_t low = vandq_u32(vreinterpretq_u32_s32(j), vdupq_n_u32(15));
  const uint32x4_t at = vmlaq_n_u32(vdupq_n_u32(0x03020100u), low, 0x04040404u);
  return vreinterpretq_f32_u8(vqtbl4q_u8(bytes, vreinterpretq_u8_u32(at)));
}
}  // namespace detail
using f32v = float32x4_t;
using i32v = int32x4_t;
#define BCASTGEN_SIMD_FN BCASTGEN_SIMD_NEON
#include "bcastgen/simd/math_f32.inl"
#undef BCASTGEN_SIMD_FN

// --- Casts between element widths ---
// A kernel that mixes element widths has the lanes of its narrowest type,
// and a node of a type r times wider takes r registers. A widening cast
// makes part S of its result from segment S of one register: sxtl/uxtl (by
// the source's signedness, as C++ converts the value) once per doubling,
// then scvtf/ucvtf to a float (exact). A narrowing one keeps the low bits of
// each lane (xtn), as ops::cast does; from a float it first truncates to
// the 32-bit integer by cast_f32_i32's rule (cast_f64_i32's for f64).
namespace detail {
// Half S of x, widened to twice the width.
template <int S>
BCASTGEN_SIMD_NEON int16x8_t widen(int8x16_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vmovl_s8(vget_low_s8(x));
  } else {
    return vmovl_high_s8(x);
  }
}
template <int S>
BCASTGEN_SIMD_NEON uint16x8_t widen(uint8x16_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vmovl_u8(vget_low_u8(x));
  } else {
    return vmovl_high_u8(x);
  }
}
template <int S>
BCASTGEN_SIMD_NEON int32x4_t widen(int16x8_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vmovl_s16(vget_low_s16(x));
  } else {
    return vmovl_high_s16(x);
  }
}
template <int S>
BCASTGEN_SIMD_NEON uint32x4_t widen(uint16x8_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vmovl_u16(vget_low_u16(x));
  } else {
    return vmovl_high_u16(x);
  }
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t widen(int32x4_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vmovl_s32(vget_low_s32(x));
  } else {
    return vmovl_high_s32(x);
  }
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t widen(uint32x4_t x) {
  static_assert(S == 0 || S == 1, "a half of the register");
  if constexpr (S == 0) {
    return vmovl_u32(vget_low_u32(x));
  } else {
    return vmovl_high_u32(x);
  }
}
// Part S (of R = 2, 4 or 8) of x widened R times: segment S / (R/2) widened
// once, then its part S % (R/2).
template <int R, int S, class V>
BCASTGEN_SIMD_NEON auto widen_by(V x) {
  static_assert(S >= 0 && S < R, "a part of the widened register");
  if constexpr (R == 1) {
    return x;
  } else {
    return widen_by<R / 2, S % (R / 2)>(widen<S / (R / 2)>(x));
  }
}
// The low half of every lane of a, then of b.
BCASTGEN_SIMD_NEON int8x16_t narrow(int16x8_t a, int16x8_t b) { return vcombine_s8(vmovn_s16(a), vmovn_s16(b)); }
BCASTGEN_SIMD_NEON uint8x16_t narrow(uint16x8_t a, uint16x8_t b) { return vcombine_u8(vmovn_u16(a), vmovn_u16(b)); }
BCASTGEN_SIMD_NEON int16x8_t narrow(int32x4_t a, int32x4_t b) { return vcombine_s16(vmovn_s32(a), vmovn_s32(b)); }
BCASTGEN_SIMD_NEON uint16x8_t narrow(uint32x4_t a, uint32x4_t b) { return vcombine_u16(vmovn_u32(a), vmovn_u32(b)); }
BCASTGEN_SIMD_NEON int32x4_t narrow(int64x2_t a, int64x2_t b) { return vcombine_s32(vmovn_s64(a), vmovn_s64(b)); }
BCASTGEN_SIMD_NEON uint32x4_t narrow(uint64x2_t a, uint64x2_t b) { return vcombine_u32(vmovn_u64(a), vmovn_u64(b)); }
template <class V>
BCASTGEN_SIMD_NEON auto narrow(V a, V b, V c, V d) {
  return narrow(narrow(a, b), narrow(c, d));
}
// The same bits with the other signedness.
BCASTGEN_SIMD_NEON uint8x16_t flip_sign(int8x16_t x) { return vreinterpretq_u8_s8(x); }
BCASTGEN_SIMD_NEON int8x16_t flip_sign(uint8x16_t x) { return vreinterpretq_s8_u8(x); }
BCASTGEN_SIMD_NEON uint16x8_t flip_sign(int16x8_t x) { return vreinterpretq_u16_s16(x); }
BCASTGEN_SIMD_NEON int16x8_t flip_sign(uint16x8_t x) { return vreinterpretq_s16_u16(x); }
BCASTGEN_SIMD_NEON uint32x4_t flip_sign(int32x4_t x) { return vreinterpretq_u32_s32(x); }
BCASTGEN_SIMD_NEON int32x4_t flip_sign(uint32x4_t x) { return vreinterpretq_s32_u32(x); }
BCASTGEN_SIMD_NEON uint64x2_t flip_sign(int64x2_t x) { return vreinterpretq_u64_s64(x); }
BCASTGEN_SIMD_NEON int64x2_t flip_sign(uint64x2_t x) { return vreinterpretq_s64_u64(x); }
}  // namespace detail

// f32 <-> 8- and 16-bit integers.
template <int S>
BCASTGEN_SIMD_NEON float32x4_t cast_i8_f32(int8x16_t x) {
  return vcvtq_f32_s32(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float32x4_t cast_u8_f32(uint8x16_t x) {
  return vcvtq_f32_u32(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float32x4_t cast_i16_f32(int16x8_t x) {
  return vcvtq_f32_s32(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float32x4_t cast_u16_f32(uint16x8_t x) {
  return vcvtq_f32_u32(detail::widen_by<2, S>(x));
}
BCASTGEN_SIMD_NEON int16x8_t cast_f32_i16(float32x4_t a, float32x4_t b) {
  return detail::narrow(cast_f32_i32(a), cast_f32_i32(b));
}
BCASTGEN_SIMD_NEON uint16x8_t cast_f32_u16(float32x4_t a, float32x4_t b) {
  return detail::flip_sign(cast_f32_i16(a, b));
}
BCASTGEN_SIMD_NEON int8x16_t cast_f32_i8(float32x4_t a, float32x4_t b, float32x4_t c, float32x4_t d) {
  return detail::narrow(cast_f32_i32(a), cast_f32_i32(b), cast_f32_i32(c), cast_f32_i32(d));
}
BCASTGEN_SIMD_NEON uint8x16_t cast_f32_u8(float32x4_t a, float32x4_t b, float32x4_t c, float32x4_t d) {
  return detail::flip_sign(cast_f32_i8(a, b, c, d));
}

// f64 <-> the 32-bit integers and narrower ones, through the 64-bit integers.
// fcvtzs to 64 bits, then the low half; the minimum where the 32-bit result
// would be out of range (|x| >= 2^31) or NaN, as x86's cvttpd2dq gives.
BCASTGEN_SIMD_NEON int32x4_t cast_f64_i32(float64x2_t a, float64x2_t b) {
  const float64x2_t limit = vdupq_n_f64(0x1p31);
  const uint32x4_t in_range =
      detail::narrow(vcltq_f64(vabsq_f64(a), limit), vcltq_f64(vabsq_f64(b), limit));
  return vbslq_s32(in_range, detail::narrow(vcvtq_s64_f64(a), vcvtq_s64_f64(b)), vdupq_n_s32(INT32_MIN));
}
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_i8_f64(int8x16_t x) {
  return vcvtq_f64_s64(detail::widen_by<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_u8_f64(uint8x16_t x) {
  return vcvtq_f64_u64(detail::widen_by<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_i16_f64(int16x8_t x) {
  return vcvtq_f64_s64(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_u16_f64(uint16x8_t x) {
  return vcvtq_f64_u64(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_i32_f64(int32x4_t x) {
  return vcvtq_f64_s64(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON float64x2_t cast_u32_f64(uint32x4_t x) {
  return vcvtq_f64_u64(detail::widen_by<2, S>(x));
}

// Widening integer casts, 2, 4 or 8 times: sign- or zero-extended by the
// source, then read with the target's signedness.
template <int S>
BCASTGEN_SIMD_NEON int16x8_t cast_i8_i16(int8x16_t x) {
  return detail::widen_by<2, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON uint16x8_t cast_i8_u16(int8x16_t x) {
  return detail::flip_sign(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON int32x4_t cast_i8_i32(int8x16_t x) {
  return detail::widen_by<4, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON uint32x4_t cast_i8_u32(int8x16_t x) {
  return detail::flip_sign(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t cast_i8_i64(int8x16_t x) {
  return detail::widen_by<8, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t cast_i8_u64(int8x16_t x) {
  return detail::flip_sign(detail::widen_by<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON int16x8_t cast_u8_i16(uint8x16_t x) {
  return detail::flip_sign(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON uint16x8_t cast_u8_u16(uint8x16_t x) {
  return detail::widen_by<2, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON int32x4_t cast_u8_i32(uint8x16_t x) {
  return detail::flip_sign(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON uint32x4_t cast_u8_u32(uint8x16_t x) {
  return detail::widen_by<4, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t cast_u8_i64(uint8x16_t x) {
  return detail::flip_sign(detail::widen_by<8, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t cast_u8_u64(uint8x16_t x) {
  return detail::widen_by<8, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON int32x4_t cast_i16_i32(int16x8_t x) {
  return detail::widen_by<2, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON uint32x4_t cast_i16_u32(int16x8_t x) {
  return detail::flip_sign(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t cast_i16_i64(int16x8_t x) {
  return detail::widen_by<4, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t cast_i16_u64(int16x8_t x) {
  return detail::flip_sign(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON int32x4_t cast_u16_i32(uint16x8_t x) {
  return detail::flip_sign(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON uint32x4_t cast_u16_u32(uint16x8_t x) {
  return detail::widen_by<2, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t cast_u16_i64(uint16x8_t x) {
  return detail::flip_sign(detail::widen_by<4, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t cast_u16_u64(uint16x8_t x) {
  return detail::widen_by<4, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t cast_i32_i64(int32x4_t x) {
  return detail::widen_by<2, S>(x);
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t cast_i32_u64(int32x4_t x) {
  return detail::flip_sign(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON int64x2_t cast_u32_i64(uint32x4_t x) {
  return detail::flip_sign(detail::widen_by<2, S>(x));
}
template <int S>
BCASTGEN_SIMD_NEON uint64x2_t cast_u32_u64(uint32x4_t x) {
  return detail::widen_by<2, S>(x);
}

// Narrowing integer casts, 2 or 4 times: the low bits, read with the
// target's signedness.
BCASTGEN_SIMD_NEON int8x16_t cast_i16_i8(int16x8_t a, int16x8_t b) { return detail::narrow(a, b); }
BCASTGEN_SIMD_NEON uint8x16_t cast_i16_u8(int16x8_t a, int16x8_t b) { return detail::flip_sign(detail::narrow(a, b)); }
BCASTGEN_SIMD_NEON int8x16_t cast_u16_i8(uint16x8_t a, uint16x8_t b) { return detail::flip_sign(detail::narrow(a, b)); }
BCASTGEN_SIMD_NEON uint8x16_t cast_u16_u8(uint16x8_t a, uint16x8_t b) { return detail::narrow(a, b); }
BCASTGEN_SIMD_NEON int16x8_t cast_i32_i16(int32x4_t a, int32x4_t b) { return detail::narrow(a, b); }
BCASTGEN_SIMD_NEON uint16x8_t cast_i32_u16(int32x4_t a, int32x4_t b) { return detail::flip_sign(detail::narrow(a, b)); }
BCASTGEN_SIMD_NEON int16x8_t cast_u32_i16(uint32x4_t a, uint32x4_t b) { return detail::flip_sign(detail::narrow(a, b)); }
BCASTGEN_SIMD_NEON uint16x8_t cast_u32_u16(uint32x4_t a, uint32x4_t b) { return detail::narrow(a, b); }
BCASTGEN_SIMD_NEON int8x16_t cast_i32_i8(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d) {
  return detail::narrow(a, b, c, d);
}
BCASTGEN_SIMD_NEON uint8x16_t cast_i32_u8(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d) {
  return detail::flip_sign(detail::narrow(a, b, c, d));
}
BCASTGEN_SIMD_NEON int8x16_t cast_u32_i8(uint32x4_t a, uint32x4_t b, uint32x4_t c, uint32x4_t d) {
  return detail::flip_sign(detail::narrow(a, b, c, d));
}
BCASTGEN_SIMD_NEON uint8x16_t cast_u32_u8(uint32x4_t a, uint32x4_t b, uint32x4_t c, uint32x4_t d) {
  return detail::narrow(a, b, c, d);
}
BCASTGEN_SIMD_NEON int32x4_t cast_i64_i32(int64x2_t a, int64x2_t b) { return detail::narrow(a, b); }
BCASTGEN_SIMD_NEON uint32x4_t cast_i64_u32(int64x2_t a, int64x2_t b) { return detail::flip_sign(detail::narrow(a, b)); }
BCASTGEN_SIMD_NEON int32x4_t cast_u64_i32(uint64x2_t a, uint64x2_t b) { return detail::flip_sign(detail::narrow(a, b)); }
BCASTGEN_SIMD_NEON uint32x4_t cast_u64_u32(uint64x2_t a, uint64x2_t b) { return detail::narrow(a, b); }
BCASTGEN_SIMD_NEON int16x8_t cast_i64_i16(int64x2_t a, int64x2_t b, int64x2_t c, int64x2_t d) {
  return detail::narrow(a, b, c, d);
}
BCASTGEN_SIMD_NEON uint16x8_t cast_i64_u16(int64x2_t a, int64x2_t b, int64x2_t c, int64x2_t d) {
  return detail::flip_sign(detail::narrow(a, b, c, d));
}
BCASTGEN_SIMD_NEON int16x8_t cast_u64_i16(uint64x2_t a, uint64x2_t b, uint64x2_t c, uint64x2_t d) {
  return detail::flip_sign(detail::narrow(a, b, c, d));
}
BCASTGEN_SIMD_NEON uint16x8_t cast_u64_u16(uint64x2_t a, uint64x2_t b, uint64x2_t c, uint64x2_t d) {
  return detail::narrow(a, b, c, d);
}

// --- f16, bf16: float32x4_t of their f32 values, 4 lanes from 8 bytes ---
// f16 converts with fcvtl (exact) and fcvtn (to nearest even, NaN to a
// quiet NaN with the top payload bits, subnormals kept: FPCR's defaults),
// as F16C does on x86. bf16 is the high half of an f32: a load shifts it up
// (shll), a store rounds on the bits and keeps the high halves (shrn).
// AArch64's + - * / sqrt return a quiet copy of an operand's NaN or the
// default NaN, as x86's do, so half_f32.inl's bf16 arithmetic keeps its
// nan_exact rounding here too.
namespace detail {
BCASTGEN_SIMD_NEON uint16x4_t load_halves(const void* p) { return vld1_u16(static_cast<const std::uint16_t*>(p)); }
// The bits of f32 lanes rounded to bf16 in their high halves, to nearest
// even: add 0x7FFF plus the lowest kept bit. Right for every lane but a NaN
// with a nonzero low half, which the carry could turn into inf or a zero.
BCASTGEN_SIMD_NEON uint32x4_t bf16_round_add(uint32x4_t b) {
  const uint32x4_t low_kept = vandq_u32(vshrq_n_u32(b, 16), vdupq_n_u32(1));
  return vaddq_u32(b, vaddq_u32(low_kept, vdupq_n_u32(0x7FFF)));
}
// The same for every lane: a NaN is not rounded but quieted, its payload cut.
BCASTGEN_SIMD_NEON uint32x4_t bf16_rounded_bits(float32x4_t x) {
  const uint32x4_t b = vreinterpretq_u32_f32(x);
  return vbslq_u32(vceqq_f32(x, x), bf16_round_add(b), vorrq_u32(b, vdupq_n_u32(0x00400000)));
}
BCASTGEN_SIMD_NEON float32x4_t nearest_f16(float32x4_t x) { return vcvt_f32_f16(vcvt_f16_f32(x)); }
BCASTGEN_SIMD_NEON float32x4_t nearest_bf16(float32x4_t x) {
  return vreinterpretq_f32_u32(vandq_u32(bf16_rounded_bits(x), vdupq_n_u32(0xFFFF0000u)));
}
BCASTGEN_SIMD_NEON float32x4_t nearest_bf16_nan_exact(float32x4_t x) {
  return vreinterpretq_f32_u32(vandq_u32(bf16_round_add(vreinterpretq_u32_f32(x)), vdupq_n_u32(0xFFFF0000u)));
}
}  // namespace detail
// (The stores write through their typed pointers: bcastgen inspect counts
// the elements a store writes by the pointer's element type.)
BCASTGEN_SIMD_NEON float32x4_t load_f16(const f16* p) {
  return vcvt_f32_f16(vreinterpret_f16_u16(detail::load_halves(p)));
}
BCASTGEN_SIMD_NEON void store_f16(f16* p, float32x4_t v) {
  vst1_u16(reinterpret_cast<std::uint16_t*>(p), vreinterpret_u16_f16(vcvt_f16_f32(v)));
}
BCASTGEN_SIMD_NEON float32x4_t splat_f16(f16 x) { return vdupq_n_f32(to_float(x)); }
BCASTGEN_SIMD_NEON float32x4_t load_bf16(const bf16* p) {
  return vreinterpretq_f32_u32(vshll_n_u16(detail::load_halves(p), 16));
}
BCASTGEN_SIMD_NEON void store_bf16(bf16* p, float32x4_t v) {
  vst1_u16(reinterpret_cast<std::uint16_t*>(p), vshrn_n_u32(detail::bf16_rounded_bits(v), 16));
}
BCASTGEN_SIMD_NEON float32x4_t splat_bf16(bf16 x) { return vdupq_n_f32(to_float(x)); }
// Lanes whose NaNs are already bf16 NaNs (the plan's root_nans_exact) round
// by the add alone; lanes that hold bf16 values (root_in_type) are stored by
// their high halves, unrounded.
BCASTGEN_SIMD_NEON void store_nan_exact_bf16(bf16* p, float32x4_t v) {
  vst1_u16(reinterpret_cast<std::uint16_t*>(p), vshrn_n_u32(detail::bf16_round_add(vreinterpretq_u32_f32(v)), 16));
}
BCASTGEN_SIMD_NEON void store_exact_bf16(bf16* p, float32x4_t v) {
  vst1_u16(reinterpret_cast<std::uint16_t*>(p), vshrn_n_u32(vreinterpretq_u32_f32(v), 16));
}
// A compare result of 16-bit float lanes is f32's.
BCASTGEN_SIMD_NEON void store_bool_f16(bool* p, uint32x4_t m) { detail::store_bool_32(p, m); }
BCASTGEN_SIMD_NEON void store_bool_bf16(bool* p, uint32x4_t m) { detail::store_bool_32(p, m); }
using f64v = float64x2_t;
using i8v = int8x16_t;
using u8v = uint8x16_t;
using i16v = int16x8_t;
using u16v = uint16x8_t;
using cmp32v = uint32x4_t;
#define BCASTGEN_SIMD_FN BCASTGEN_SIMD_NEON
#include "bcastgen/simd/half_f32.inl"
#undef BCASTGEN_SIMD_FN

}  // namespace bcastgen::simd::neon

#undef BCASTGEN_SIMD_NEON
