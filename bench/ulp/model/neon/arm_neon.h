// <arm_neon.h> on x86, for bench/ulp/isa_model.sh neon only: SIMDe's model of
// the NEON intrinsics (Debian's libsimde-dev), so that simd/neon.h's math
// lanes run natively over all 2^32 inputs (under qemu they take about 37
// minutes a function). Where SIMDe 0.7.4 lacks an AArch64 intrinsic, or its
// x86 path differs from the Arm ARM, the form below follows the Arm ARM:
// fmax/fmin order -0 below +0 and give NaN for a NaN; fdiv and fsqrt are
// IEEE operations, correctly rounded. vfmaq_f32 must be fused (fmla):
// SIMDe maps it to _mm_fmadd_ps only where FMA is enabled, so this header
// requires it.
#pragma once

#ifndef __FMA__
#error "the NEON model needs -mfma: SIMDe's vfmaq_f32 is unfused without it"
#endif

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>

#include <cmath>

// SIMDe defines these as macros of one argument, which a template argument
// list with a comma inside breaks: functions instead.
#undef vcvtq_f32_s32
#undef vcvtq_f32_u32
#undef vcvtq_f64_s64
#undef vcvtq_f64_u64
#undef vmaxq_f32
#undef vminq_f32
#undef vmaxq_f64
#undef vminq_f64
inline float32x4_t vcvtq_f32_s32(int32x4_t x) { return simde_vcvtq_f32_s32(x); }
inline float32x4_t vcvtq_f32_u32(uint32x4_t x) { return simde_vcvtq_f32_u32(x); }
inline float64x2_t vcvtq_f64_s64(int64x2_t x) { return simde_vcvtq_f64_s64(x); }
inline float64x2_t vcvtq_f64_u64(uint64x2_t x) { return simde_vcvtq_f64_u64(x); }

namespace neon_model {

// Lane by lane through memory: the model's speed is not what it is for.
template <typename V, typename T, int N, typename Op>
V lanewise(V a, V b, Op op) {
  T x[N], y[N];
  static_assert(sizeof x == sizeof(V), "lanes");
  __builtin_memcpy(x, &a, sizeof x);
  __builtin_memcpy(y, &b, sizeof y);
  for (int i = 0; i < N; ++i) x[i] = op(x[i], y[i]);
  __builtin_memcpy(&a, x, sizeof x);
  return a;
}

// FPMax / FPMin of the Arm ARM: NaN if either is NaN; +0 is above -0.
template <typename T>
T fp_max(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a + a : b + b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename T>
T fp_min(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a + a : b + b;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

}  // namespace neon_model

inline float32x4_t vmaxq_f32(float32x4_t a, float32x4_t b) {
  return neon_model::lanewise<float32x4_t, float, 4>(a, b, neon_model::fp_max<float>);
}
inline float32x4_t vminq_f32(float32x4_t a, float32x4_t b) {
  return neon_model::lanewise<float32x4_t, float, 4>(a, b, neon_model::fp_min<float>);
}
inline float64x2_t vmaxq_f64(float64x2_t a, float64x2_t b) {
  return neon_model::lanewise<float64x2_t, double, 2>(a, b, neon_model::fp_max<double>);
}
inline float64x2_t vminq_f64(float64x2_t a, float64x2_t b) {
  return neon_model::lanewise<float64x2_t, double, 2>(a, b, neon_model::fp_min<double>);
}
inline float32x4_t vdivq_f32(float32x4_t a, float32x4_t b) {
  return neon_model::lanewise<float32x4_t, float, 4>(a, b, [](float x, float y) { return x / y; });
}
inline float64x2_t vdivq_f64(float64x2_t a, float64x2_t b) {
  return neon_model::lanewise<float64x2_t, double, 2>(a, b, [](double x, double y) { return x / y; });
}
inline float32x4_t vsqrtq_f32(float32x4_t a) {
  return neon_model::lanewise<float32x4_t, float, 4>(a, a, [](float x, float) { return std::sqrt(x); });
}
inline float64x2_t vsqrtq_f64(float64x2_t a) {
  return neon_model::lanewise<float64x2_t, double, 2>(a, a, [](double x, double) { return std::sqrt(x); });
}
inline float64x2_t vcvt_high_f64_f32(float32x4_t a) { return simde_vcvt_f64_f32(simde_vget_high_f32(a)); }
inline float32x4_t vcvt_high_f32_f64(float32x2_t low, float64x2_t a) {
  return simde_vcombine_f32(low, simde_vcvt_f32_f64(a));
}
