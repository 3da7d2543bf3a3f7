// The math functions of math_f32.inl over two or four vectors at once,
// their operations interleaved in source order: namespaces x2 and x4, whose
// f32v is two or four of the ISA's registers and whose wrappers apply each
// operation to them in turn. math_f32.inl is included again inside, unchanged,
// so every function exists for two and four vectors with the same
// operations on each lane, and so the same bits as one call per vector.
//
// Why: GCC at -O2 does not schedule before register allocation on x86, so
// four calls of a 60-instruction function run one vector after the other,
// and on AMD Zen 3 the out-of-order window does not reach far enough into
// the next vector to keep both fma pipes busy. A generated kernel's step of
// four vectors calls x4:: once, or x2:: twice, instead (the ISA's vocabulary
// row says which, per function: `math_pack`; docs/benchmarks.md, "Math functions"): 1.1x
// to 1.3x on most functions there. Over four vectors the values of a few
// functions spill (the log family, fast_gelu_tanh): two at a time gains
// without spilling.
//
// Included by a SIMD header inside its own namespace, once with
// BCASTGEN_SIMD_PACK_WIDTH 2 and once with 4, right after math_f32.inl and
// while BCASTGEN_SIMD_FN is still defined, with the same wrappers in scope.
// An ISA that defines BCASTGEN_SIMD_SCALEF or BCASTGEN_SIMD_LOG_SPECIALS
// (AVX-512) has its own forms of those functions, lifted below like the
// wrappers.
//
// No include guard: it is meant to be included once per namespace and width.

// f(each vector's operands), as the braced list of a pack: EACH1_ for one
// pack operand, EACH2_ and EACH3_ for two and three, EACH_T_ for a shared
// table first, SAME_ for one value in every vector.
#if BCASTGEN_SIMD_PACK_WIDTH == 4
#define BCASTGEN_PACK_EACH1_(f, a) {{f(a.v[0]), f(a.v[1]), f(a.v[2]), f(a.v[3])}}
#define BCASTGEN_PACK_EACH2_(f, a, b) {{f(a.v[0], b.v[0]), f(a.v[1], b.v[1]), f(a.v[2], b.v[2]), f(a.v[3], b.v[3])}}
#define BCASTGEN_PACK_EACH3_(f, a, b, c) \
  {{f(a.v[0], b.v[0], c.v[0]), f(a.v[1], b.v[1], c.v[1]), f(a.v[2], b.v[2], c.v[2]), f(a.v[3], b.v[3], c.v[3])}}
#define BCASTGEN_PACK_EACH_T_(f, t, a) {{f(t, a.v[0]), f(t, a.v[1]), f(t, a.v[2]), f(t, a.v[3])}}
#define BCASTGEN_PACK_SAME_(s) {{s, s, s, s}}
namespace x4 {
#elif BCASTGEN_SIMD_PACK_WIDTH == 2
#define BCASTGEN_PACK_EACH1_(f, a) {{f(a.v[0]), f(a.v[1])}}
#define BCASTGEN_PACK_EACH2_(f, a, b) {{f(a.v[0], b.v[0]), f(a.v[1], b.v[1])}}
#define BCASTGEN_PACK_EACH3_(f, a, b, c) {{f(a.v[0], b.v[0], c.v[0]), f(a.v[1], b.v[1], c.v[1])}}
#define BCASTGEN_PACK_EACH_T_(f, t, a) {{f(t, a.v[0]), f(t, a.v[1])}}
#define BCASTGEN_PACK_SAME_(s) {{s, s}}
namespace x2 {
#else
#error "math_pack.inl: define BCASTGEN_SIMD_PACK_WIDTH as 2 or 4"
#endif


namespace one = ::bcastgen::simd::BCASTGEN_SIMD_PACK_ISA;
namespace one_detail = ::bcastgen::simd::BCASTGEN_SIMD_PACK_ISA::detail;

struct f32v {
  one::f32v v[BCASTGEN_SIMD_PACK_WIDTH];
};
struct i32v {
  one::i32v v[BCASTGEN_SIMD_PACK_WIDTH];
};
// A compare result per vector (the ISA's own mask type).
struct m32v {
  decltype(one::less_f32(one::f32v{}, one::f32v{})) v[BCASTGEN_SIMD_PACK_WIDTH];
};

// The wrapper `name` of namespace `ns` applied to each vector.
#define BCASTGEN_PACK_1_(R, ns, name, A) \
  BCASTGEN_SIMD_FN R name(A a) { return BCASTGEN_PACK_EACH1_(ns::name, a); }
#define BCASTGEN_PACK_2_(R, ns, name, A, B) \
  BCASTGEN_SIMD_FN R name(A a, B b) { return BCASTGEN_PACK_EACH2_(ns::name, a, b); }
#define BCASTGEN_PACK_3_(R, ns, name, A, B, C) \
  BCASTGEN_SIMD_FN R name(A a, B b, C c) { return BCASTGEN_PACK_EACH3_(ns::name, a, b, c); }

BCASTGEN_SIMD_FN f32v splat_f32(float c) {
  const one::f32v s = one::splat_f32(c);
  return BCASTGEN_PACK_SAME_(s);
}
BCASTGEN_SIMD_FN i32v splat_i32(std::int32_t c) {
  const one::i32v s = one::splat_i32(c);
  return BCASTGEN_PACK_SAME_(s);
}
BCASTGEN_PACK_2_(f32v, one, add_f32, f32v, f32v)
BCASTGEN_PACK_2_(f32v, one, subtract_f32, f32v, f32v)
BCASTGEN_PACK_2_(f32v, one, multiply_f32, f32v, f32v)
BCASTGEN_PACK_2_(f32v, one, divide_f32, f32v, f32v)
BCASTGEN_PACK_1_(f32v, one, neg_f32, f32v)
BCASTGEN_PACK_1_(f32v, one, abs_f32, f32v)
BCASTGEN_PACK_2_(m32v, one, less_f32, f32v, f32v)
BCASTGEN_PACK_3_(f32v, one, select_f32, m32v, f32v, f32v)
BCASTGEN_PACK_2_(i32v, one, add_i32, i32v, i32v)
BCASTGEN_PACK_2_(i32v, one, subtract_i32, i32v, i32v)
BCASTGEN_PACK_2_(i32v, one, bitwise_and_i32, i32v, i32v)
BCASTGEN_PACK_2_(i32v, one, bitwise_or_i32, i32v, i32v)
BCASTGEN_PACK_2_(i32v, one, bitwise_xor_i32, i32v, i32v)
BCASTGEN_PACK_1_(f32v, one, cast_i32_f32, i32v)

namespace detail {
BCASTGEN_PACK_3_(f32v, one_detail, fmadd_f32, f32v, f32v, f32v)
BCASTGEN_PACK_2_(f32v, one_detail, max_or_b_f32, f32v, f32v)
BCASTGEN_PACK_2_(f32v, one_detail, min_or_b_f32, f32v, f32v)
BCASTGEN_PACK_1_(i32v, one_detail, bits_f32, f32v)
BCASTGEN_PACK_1_(f32v, one_detail, from_bits_f32, i32v)
template <int N>
BCASTGEN_SIMD_FN i32v shift_left_i32(i32v a) {
  return BCASTGEN_PACK_EACH1_(one_detail::shift_left_i32<N>, a);
}
template <int N>
BCASTGEN_SIMD_FN i32v shift_right_i32(i32v a) {
  return BCASTGEN_PACK_EACH1_(one_detail::shift_right_i32<N>, a);
}
#define BCASTGEN_PACK_LOOKUP_(name) \
  BCASTGEN_SIMD_FN f32v name(const float* table, i32v j) { return BCASTGEN_PACK_EACH_T_(one_detail::name, table, j); }
BCASTGEN_PACK_LOOKUP_(lookup4_f32)
BCASTGEN_PACK_LOOKUP_(lookup8_f32)
BCASTGEN_PACK_LOOKUP_(lookup16_f32)
#undef BCASTGEN_PACK_LOOKUP_
#ifdef BCASTGEN_SIMD_SCALEF
template <int S>
BCASTGEN_SIMD_FN f32v times_power_of_two(f32v y, f32v z) {
  return BCASTGEN_PACK_EACH2_(one_detail::times_power_of_two<S>, y, z);
}
#endif
#ifdef BCASTGEN_SIMD_LOG_SPECIALS
BCASTGEN_PACK_2_(f32v, one_detail, log_specials, f32v, f32v)
#endif
}  // namespace detail

#undef BCASTGEN_PACK_1_
#undef BCASTGEN_PACK_2_
#undef BCASTGEN_PACK_3_
#undef BCASTGEN_PACK_EACH1_
#undef BCASTGEN_PACK_EACH2_
#undef BCASTGEN_PACK_EACH3_
#undef BCASTGEN_PACK_EACH_T_
#undef BCASTGEN_PACK_SAME_

#include "bcastgen/simd/math_f32.inl"

}  // namespace x2 or x4
