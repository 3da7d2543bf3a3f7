// The 16-bit float forms (f16, bf16) that are the same on every vector
// ISA, written once. A lane of an f16 or bf16 node holds its value as an
// f32 (exactly: every 16-bit value is a float), so each op is its f32 form
// and, where that result may not be a value of the type, one rounding to it:
// nearest_f16 or nearest_bf16, to nearest even. This is bcastgen::ops' rule
// (ops.h, "16-bit floats"): the f32 result rounded once. The ops whose
// result is always a value of the type (max, min, copysign, neg, abs, the
// rounding functions, sign, select) skip the rounding; comparisons and the
// classifications compare the f32 values.
//
// Each SIMD header includes this file inside its own namespace after its
// f32 forms and math_f32.inl, having defined
//
//   BCASTGEN_SIMD_FN   its wrapper attribute,
//   f32v, f64v         its f32 and f64 register types,
//   i8v, u8v, i16v,    its register types of the integers (one type on x86,
//   u16v, i32v         one per element type on NEON),
//   cmp32v             the type of an f32 comparison's result,
//
// and, in namespace detail, nearest_f16 and nearest_bf16 (f32 lanes to the
// nearest value of the type, NaN to a quiet NaN with the top payload bits,
// as half.h does), and nearest_bf16_nan_exact: the same for lanes whose
// NaNs are already bf16 NaNs (low half zero), without the NaN fixup. The
// arithmetic bf16 forms below use it: their operands are bf16 values, and
// x86's + - * / sqrt return a quiet copy of an operand's NaN or the default
// NaN, so their NaNs are bf16 NaNs. (The math functions keep the fixup:
// their results are not only such operations.) Loads, stores and splats convert between the 16-bit
// storage and the f32 lanes, and differ per ISA: they are in the headers,
// with the bool stores (bcastgen inspect counts a store in the function
// that makes it, or one call deep).
//
// No include guard: it is meant to be included once per namespace.

#include "bcastgen/unary_functions.h"  // macros only

// The shared math algorithms (the Vector rows of the table,
// bcastgen/unary_functions.h): the f32 function, rounded once to the type.
#define BCASTGEN_HALF_MATH_Own(name, half)
#define BCASTGEN_HALF_MATH_Libm(name, half)
#define BCASTGEN_HALF_MATH_Vector(name, half) \
  BCASTGEN_SIMD_FN f32v name##_##half(f32v x) { return detail::nearest_##half(name##_f32(x)); }
#define BCASTGEN_HALF_MATH_F16_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  BCASTGEN_HALF_MATH_##form(name, f16)
#define BCASTGEN_HALF_MATH_BF16_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  BCASTGEN_HALF_MATH_##form(name, bf16)

// --- f16 ---
BCASTGEN_SIMD_FN f32v select_f16(cmp32v c, f32v x, f32v y) { return select_f32(c, x, y); }
BCASTGEN_SIMD_FN cmp32v load_cmp_f16(const bool* p) { return load_cmp_f32(p); }
BCASTGEN_SIMD_FN cmp32v splat_cmp_f16(bool x) { return splat_cmp_f32(x); }
BCASTGEN_SIMD_FN f32v add_f16(f32v a, f32v b) { return detail::nearest_f16(add_f32(a, b)); }
BCASTGEN_SIMD_FN f32v subtract_f16(f32v a, f32v b) { return detail::nearest_f16(subtract_f32(a, b)); }
BCASTGEN_SIMD_FN f32v multiply_f16(f32v a, f32v b) { return detail::nearest_f16(multiply_f32(a, b)); }
BCASTGEN_SIMD_FN f32v divide_f16(f32v a, f32v b) { return detail::nearest_f16(divide_f32(a, b)); }
BCASTGEN_SIMD_FN f32v squared_difference_f16(f32v a, f32v b) {
  return detail::nearest_f16(squared_difference_f32(a, b));
}
BCASTGEN_SIMD_FN f32v maximum_f16(f32v a, f32v b) { return maximum_f32(a, b); }
BCASTGEN_SIMD_FN f32v minimum_f16(f32v a, f32v b) { return minimum_f32(a, b); }
BCASTGEN_SIMD_FN f32v maximum_number_f16(f32v n, f32v x) { return maximum_number_f32(n, x); }
BCASTGEN_SIMD_FN f32v minimum_number_f16(f32v n, f32v x) { return minimum_number_f32(n, x); }
BCASTGEN_SIMD_FN f32v maximum_zero_f16(f32v x) { return maximum_zero_f32(x); }
BCASTGEN_SIMD_FN f32v minimum_zero_f16(f32v x) { return minimum_zero_f32(x); }
BCASTGEN_SIMD_FN f32v copysign_f16(f32v a, f32v b) { return copysign_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v equal_f16(f32v a, f32v b) { return equal_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v not_equal_f16(f32v a, f32v b) { return not_equal_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v less_f16(f32v a, f32v b) { return less_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v less_equal_f16(f32v a, f32v b) { return less_equal_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v greater_f16(f32v a, f32v b) { return greater_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v greater_equal_f16(f32v a, f32v b) { return greater_equal_f32(a, b); }
BCASTGEN_SIMD_FN f32v neg_f16(f32v x) { return neg_f32(x); }
BCASTGEN_SIMD_FN f32v abs_f16(f32v x) { return abs_f32(x); }
BCASTGEN_SIMD_FN f32v sqrt_f16(f32v x) { return detail::nearest_f16(sqrt_f32(x)); }
BCASTGEN_SIMD_FN f32v square_f16(f32v x) { return detail::nearest_f16(square_f32(x)); }
BCASTGEN_SIMD_FN f32v reciprocal_f16(f32v x) { return detail::nearest_f16(reciprocal_f32(x)); }
BCASTGEN_SIMD_FN f32v floor_f16(f32v x) { return floor_f32(x); }
BCASTGEN_SIMD_FN f32v ceil_f16(f32v x) { return ceil_f32(x); }
BCASTGEN_SIMD_FN f32v trunc_f16(f32v x) { return trunc_f32(x); }
BCASTGEN_SIMD_FN f32v round_f16(f32v x) { return round_f32(x); }
BCASTGEN_SIMD_FN f32v sign_f16(f32v x) { return sign_f32(x); }
BCASTGEN_SIMD_FN cmp32v isnan_f16(f32v x) { return isnan_f32(x); }
BCASTGEN_SIMD_FN cmp32v isinf_f16(f32v x) { return isinf_f32(x); }
BCASTGEN_SIMD_FN cmp32v isfinite_f16(f32v x) { return isfinite_f32(x); }
BCASTGEN_SIMD_FN cmp32v signbit_f16(f32v x) { return signbit_f32(x); }
BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_HALF_MATH_F16_)
// Casts from f16: the f32 value's (it is exact), so the f32 rules.
BCASTGEN_SIMD_FN f32v cast_f16_f32(f32v x) { return x; }
template <int S>
BCASTGEN_SIMD_FN f64v cast_f16_f64(f32v x) { return cast_f32_f64<S>(x); }
BCASTGEN_SIMD_FN i32v cast_f16_i32(f32v x) { return cast_f32_i32(x); }
BCASTGEN_SIMD_FN cmp32v cast_f16_bool(f32v x) { return cast_f32_bool(x); }
BCASTGEN_SIMD_FN i16v cast_f16_i16(f32v a, f32v b) { return cast_f32_i16(a, b); }
BCASTGEN_SIMD_FN u16v cast_f16_u16(f32v a, f32v b) { return cast_f32_u16(a, b); }
BCASTGEN_SIMD_FN i8v cast_f16_i8(f32v a, f32v b, f32v c, f32v d) { return cast_f32_i8(a, b, c, d); }
BCASTGEN_SIMD_FN u8v cast_f16_u8(f32v a, f32v b, f32v c, f32v d) { return cast_f32_u8(a, b, c, d); }
BCASTGEN_SIMD_FN f32v cast_f16_bf16(f32v x) { return detail::nearest_bf16(x); }
// Casts to f16, rounded once: from f32 directly; from an integer through
// its f32 value, which is exact for 8- and 16-bit integers, and for an i32
// rounds only beyond 2^24, where f16 overflows either way.
BCASTGEN_SIMD_FN f32v cast_f32_f16(f32v x) { return detail::nearest_f16(x); }
BCASTGEN_SIMD_FN f32v cast_bool_f16(cmp32v x) { return cast_bool_f32(x); }
template <int S>
BCASTGEN_SIMD_FN f32v cast_i8_f16(i8v x) { return cast_i8_f32<S>(x); }  // exact: |x| < 2^11
template <int S>
BCASTGEN_SIMD_FN f32v cast_u8_f16(u8v x) { return cast_u8_f32<S>(x); }
template <int S>
BCASTGEN_SIMD_FN f32v cast_i16_f16(i16v x) { return detail::nearest_f16(cast_i16_f32<S>(x)); }
template <int S>
BCASTGEN_SIMD_FN f32v cast_u16_f16(u16v x) { return detail::nearest_f16(cast_u16_f32<S>(x)); }
BCASTGEN_SIMD_FN f32v cast_i32_f16(i32v x) { return detail::nearest_f16(cast_i32_f32(x)); }

// --- bf16 ---
BCASTGEN_SIMD_FN f32v select_bf16(cmp32v c, f32v x, f32v y) { return select_f32(c, x, y); }
BCASTGEN_SIMD_FN cmp32v load_cmp_bf16(const bool* p) { return load_cmp_f32(p); }
BCASTGEN_SIMD_FN cmp32v splat_cmp_bf16(bool x) { return splat_cmp_f32(x); }
BCASTGEN_SIMD_FN f32v add_bf16(f32v a, f32v b) { return detail::nearest_bf16_nan_exact(add_f32(a, b)); }
BCASTGEN_SIMD_FN f32v subtract_bf16(f32v a, f32v b) { return detail::nearest_bf16_nan_exact(subtract_f32(a, b)); }
BCASTGEN_SIMD_FN f32v multiply_bf16(f32v a, f32v b) { return detail::nearest_bf16_nan_exact(multiply_f32(a, b)); }
BCASTGEN_SIMD_FN f32v divide_bf16(f32v a, f32v b) { return detail::nearest_bf16_nan_exact(divide_f32(a, b)); }
BCASTGEN_SIMD_FN f32v squared_difference_bf16(f32v a, f32v b) {
  return detail::nearest_bf16_nan_exact(squared_difference_f32(a, b));
}
BCASTGEN_SIMD_FN f32v maximum_bf16(f32v a, f32v b) { return maximum_f32(a, b); }
BCASTGEN_SIMD_FN f32v minimum_bf16(f32v a, f32v b) { return minimum_f32(a, b); }
BCASTGEN_SIMD_FN f32v maximum_number_bf16(f32v n, f32v x) { return maximum_number_f32(n, x); }
BCASTGEN_SIMD_FN f32v minimum_number_bf16(f32v n, f32v x) { return minimum_number_f32(n, x); }
BCASTGEN_SIMD_FN f32v maximum_zero_bf16(f32v x) { return maximum_zero_f32(x); }
BCASTGEN_SIMD_FN f32v minimum_zero_bf16(f32v x) { return minimum_zero_f32(x); }
BCASTGEN_SIMD_FN f32v copysign_bf16(f32v a, f32v b) { return copysign_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v equal_bf16(f32v a, f32v b) { return equal_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v not_equal_bf16(f32v a, f32v b) { return not_equal_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v less_bf16(f32v a, f32v b) { return less_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v less_equal_bf16(f32v a, f32v b) { return less_equal_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v greater_bf16(f32v a, f32v b) { return greater_f32(a, b); }
BCASTGEN_SIMD_FN cmp32v greater_equal_bf16(f32v a, f32v b) { return greater_equal_f32(a, b); }
BCASTGEN_SIMD_FN f32v neg_bf16(f32v x) { return neg_f32(x); }
BCASTGEN_SIMD_FN f32v abs_bf16(f32v x) { return abs_f32(x); }
BCASTGEN_SIMD_FN f32v sqrt_bf16(f32v x) { return detail::nearest_bf16_nan_exact(sqrt_f32(x)); }
BCASTGEN_SIMD_FN f32v square_bf16(f32v x) { return detail::nearest_bf16_nan_exact(square_f32(x)); }
BCASTGEN_SIMD_FN f32v reciprocal_bf16(f32v x) { return detail::nearest_bf16_nan_exact(reciprocal_f32(x)); }
BCASTGEN_SIMD_FN f32v floor_bf16(f32v x) { return floor_f32(x); }
BCASTGEN_SIMD_FN f32v ceil_bf16(f32v x) { return ceil_f32(x); }
BCASTGEN_SIMD_FN f32v trunc_bf16(f32v x) { return trunc_f32(x); }
BCASTGEN_SIMD_FN f32v round_bf16(f32v x) { return round_f32(x); }
BCASTGEN_SIMD_FN f32v sign_bf16(f32v x) { return sign_f32(x); }
BCASTGEN_SIMD_FN cmp32v isnan_bf16(f32v x) { return isnan_f32(x); }
BCASTGEN_SIMD_FN cmp32v isinf_bf16(f32v x) { return isinf_f32(x); }
BCASTGEN_SIMD_FN cmp32v isfinite_bf16(f32v x) { return isfinite_f32(x); }
BCASTGEN_SIMD_FN cmp32v signbit_bf16(f32v x) { return signbit_f32(x); }
BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_HALF_MATH_BF16_)
// Casts from bf16: the f32 rules on its exact f32 value.
BCASTGEN_SIMD_FN f32v cast_bf16_f32(f32v x) { return x; }
template <int S>
BCASTGEN_SIMD_FN f64v cast_bf16_f64(f32v x) { return cast_f32_f64<S>(x); }
BCASTGEN_SIMD_FN i32v cast_bf16_i32(f32v x) { return cast_f32_i32(x); }
BCASTGEN_SIMD_FN cmp32v cast_bf16_bool(f32v x) { return cast_f32_bool(x); }
BCASTGEN_SIMD_FN i16v cast_bf16_i16(f32v a, f32v b) { return cast_f32_i16(a, b); }
BCASTGEN_SIMD_FN u16v cast_bf16_u16(f32v a, f32v b) { return cast_f32_u16(a, b); }
BCASTGEN_SIMD_FN i8v cast_bf16_i8(f32v a, f32v b, f32v c, f32v d) { return cast_f32_i8(a, b, c, d); }
BCASTGEN_SIMD_FN u8v cast_bf16_u8(f32v a, f32v b, f32v c, f32v d) { return cast_f32_u8(a, b, c, d); }
BCASTGEN_SIMD_FN f32v cast_bf16_f16(f32v x) { return detail::nearest_f16(x); }
// Casts to bf16, rounded once: from f32, and from the integers whose f32
// value is exact (8 and 16 bits). An i32's f32 value may be rounded, and
// rounding it again would be double rounding: i32, and every 64-bit
// source, have no vector form (lane by lane, ops::cast).
BCASTGEN_SIMD_FN f32v cast_f32_bf16(f32v x) { return detail::nearest_bf16(x); }
BCASTGEN_SIMD_FN f32v cast_bool_bf16(cmp32v x) { return cast_bool_f32(x); }
template <int S>
BCASTGEN_SIMD_FN f32v cast_i8_bf16(i8v x) { return cast_i8_f32<S>(x); }  // exact: |x| < 2^8
template <int S>
BCASTGEN_SIMD_FN f32v cast_u8_bf16(u8v x) { return cast_u8_f32<S>(x); }
template <int S>
BCASTGEN_SIMD_FN f32v cast_i16_bf16(i16v x) { return detail::nearest_bf16(cast_i16_f32<S>(x)); }
template <int S>
BCASTGEN_SIMD_FN f32v cast_u16_bf16(u16v x) { return detail::nearest_bf16(cast_u16_f32<S>(x)); }

#undef BCASTGEN_HALF_MATH_BF16_
#undef BCASTGEN_HALF_MATH_F16_
#undef BCASTGEN_HALF_MATH_Vector
#undef BCASTGEN_HALF_MATH_Libm
#undef BCASTGEN_HALF_MATH_Own
