// The math functions of an ISA with native f16 lanes (avx512fp16,
// neonfp16), written once: each shared algorithm (the Vector rows of the
// table, bcastgen/unary_functions.h) on each half of the register widened
// to f32 lanes (exact), the two results rounded once to f16. The header
// includes this file inside its own namespace after its f32 forms, having
// defined
//
//   BCASTGEN_SIMD_PH_FN    its wrapper attribute,
//   BCASTGEN_SIMD_PH_TYPE  its f16 register type,
//
// and, in namespace detail, low_f32 and high_f32 (the two halves as f32
// registers) and rounded (two f32 registers to one f16 register).
//
// No include guard: it is meant to be included once per namespace.

#include "bcastgen/unary_functions.h"  // macros only

#define BCASTGEN_HALF_NATIVE_MATH_Own(name)
#define BCASTGEN_HALF_NATIVE_MATH_Libm(name)
#define BCASTGEN_HALF_NATIVE_MATH_Vector(name)                                               \
  BCASTGEN_SIMD_PH_FN BCASTGEN_SIMD_PH_TYPE name##_ph(BCASTGEN_SIMD_PH_TYPE x) {             \
    return detail::rounded(name##_f32(detail::low_f32(x)), name##_f32(detail::high_f32(x))); \
  }
#define BCASTGEN_HALF_NATIVE_MATH_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  BCASTGEN_HALF_NATIVE_MATH_##form(name)
BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_HALF_NATIVE_MATH_)
#undef BCASTGEN_HALF_NATIVE_MATH_
#undef BCASTGEN_HALF_NATIVE_MATH_Vector
#undef BCASTGEN_HALF_NATIVE_MATH_Libm
#undef BCASTGEN_HALF_NATIVE_MATH_Own
