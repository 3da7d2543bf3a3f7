// The math functions of math_f32.inl over four vectors at once, their
// operations interleaved in source order: namespace x4, whose f32v is four
// of the ISA's registers and whose wrappers apply each operation to the four
// in turn. math_f32.inl is included again inside it, unchanged, so every
// function exists for four vectors with the same operations on each lane,
// and so the same bits as four calls of the one-vector form.
//
// Why: GCC at -O2 does not schedule before register allocation on x86, so
// four calls of a 60-instruction function run one vector after the other,
// and on AMD Zen 3 the out-of-order window does not reach far enough into
// the next vector to keep both fma pipes busy. A generated kernel's step of
// four vectors calls x4:: instead (the ISA's vocabulary row opts in with
// `math_pack`; README "Math functions"): 1.1x to 1.3x on most functions
// there.
//
// Included by a SIMD header inside its own namespace, right after
// math_f32.inl and while BCASTGEN_SIMD_FN is still defined, with the same
// wrappers in scope. An ISA that defines BCASTGEN_SIMD_SCALEF or
// BCASTGEN_SIMD_LOG_SPECIALS (AVX-512) has its own forms of those functions,
// lifted below like the wrappers.
//
// No include guard: it is meant to be included once per namespace.

namespace x4 {

namespace one = ::bcastgen::simd::BCASTGEN_SIMD_PACK_ISA;
namespace one_detail = ::bcastgen::simd::BCASTGEN_SIMD_PACK_ISA::detail;

struct f32v {
  one::f32v v[4];
};
struct i32v {
  one::i32v v[4];
};
// A compare result per vector (the ISA's own mask type).
struct m32v {
  decltype(one::less_f32(one::f32v{}, one::f32v{})) v[4];
};

// The wrapper `name` of namespace `ns` applied to each of the four vectors.
#define BCASTGEN_PACK_1_(R, ns, name, A)                                                                       \
  BCASTGEN_SIMD_FN R name(A a) {                                                                               \
    return {{ns::name(a.v[0]), ns::name(a.v[1]), ns::name(a.v[2]), ns::name(a.v[3])}};                       \
  }
#define BCASTGEN_PACK_2_(R, ns, name, A, B)                                                                    \
  BCASTGEN_SIMD_FN R name(A a, B b) {                                                                          \
    return {{ns::name(a.v[0], b.v[0]), ns::name(a.v[1], b.v[1]), ns::name(a.v[2], b.v[2]),                     \
             ns::name(a.v[3], b.v[3])}};                                                                       \
  }
#define BCASTGEN_PACK_3_(R, ns, name, A, B, C)                                                                 \
  BCASTGEN_SIMD_FN R name(A a, B b, C c) {                                                                     \
    return {{ns::name(a.v[0], b.v[0], c.v[0]), ns::name(a.v[1], b.v[1], c.v[1]),                               \
             ns::name(a.v[2], b.v[2], c.v[2]), ns::name(a.v[3], b.v[3], c.v[3])}};                             \
  }

BCASTGEN_SIMD_FN f32v splat_f32(float c) {
  const one::f32v s = one::splat_f32(c);
  return {{s, s, s, s}};
}
BCASTGEN_SIMD_FN i32v splat_i32(std::int32_t c) {
  const one::i32v s = one::splat_i32(c);
  return {{s, s, s, s}};
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
  return {{one_detail::shift_left_i32<N>(a.v[0]), one_detail::shift_left_i32<N>(a.v[1]),
           one_detail::shift_left_i32<N>(a.v[2]), one_detail::shift_left_i32<N>(a.v[3])}};
}
template <int N>
BCASTGEN_SIMD_FN i32v shift_right_i32(i32v a) {
  return {{one_detail::shift_right_i32<N>(a.v[0]), one_detail::shift_right_i32<N>(a.v[1]),
           one_detail::shift_right_i32<N>(a.v[2]), one_detail::shift_right_i32<N>(a.v[3])}};
}
#define BCASTGEN_PACK_LOOKUP_(name)                                                                            \
  BCASTGEN_SIMD_FN f32v name(const float* table, i32v j) {                                                     \
    return {{one_detail::name(table, j.v[0]), one_detail::name(table, j.v[1]), one_detail::name(table, j.v[2]), \
             one_detail::name(table, j.v[3])}};                                                                \
  }
BCASTGEN_PACK_LOOKUP_(lookup4_f32)
BCASTGEN_PACK_LOOKUP_(lookup8_f32)
BCASTGEN_PACK_LOOKUP_(lookup16_f32)
#undef BCASTGEN_PACK_LOOKUP_
#ifdef BCASTGEN_SIMD_SCALEF
template <int S>
BCASTGEN_SIMD_FN f32v times_power_of_two(f32v y, f32v z) {
  return {{one_detail::times_power_of_two<S>(y.v[0], z.v[0]), one_detail::times_power_of_two<S>(y.v[1], z.v[1]),
           one_detail::times_power_of_two<S>(y.v[2], z.v[2]), one_detail::times_power_of_two<S>(y.v[3], z.v[3])}};
}
BCASTGEN_PACK_2_(f32v, one_detail, times_fast_power_of_two, f32v, f32v)
#endif
#ifdef BCASTGEN_SIMD_LOG_SPECIALS
BCASTGEN_PACK_2_(f32v, one_detail, log_specials, f32v, f32v)
#endif
}  // namespace detail

#undef BCASTGEN_PACK_1_
#undef BCASTGEN_PACK_2_
#undef BCASTGEN_PACK_3_

#include "bcastgen/simd/math_f32.inl"

}  // namespace x4
