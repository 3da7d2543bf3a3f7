// The scalar instantiation of the math algorithms that have vector forms
// (bcastgen/simd/math_f32.inl): one lane, with the wrappers that the
// algorithms use spelled as plain C++ operations that round as the vector
// instructions do (std::fma rounds once, as vfmadd does; max_or_b is vmaxps'
// "a > b ? a : b"). bcastgen::ops (math.h) calls these, so the reference,
// the scalar variant and the scalar tails of vector variants give the same
// bits as the vector lanes.
//
// Compiled without a target attribute: inlined into a variant whose target
// has FMA, std::fma becomes the instruction; elsewhere it is the C library's
// fmaf, which is exact too (only slower).
//
// Without multiply-add contraction under GCC (bcastgen/no_contract.h): the
// wrappers are always_inline, so each inlined copy takes its caller's flags,
// and their callers in the runtime (bcastgen::ops, math.h) are in such a
// region too; an out-of-line copy (a call through a pointer) is compiled
// here, in this one. Clang contracts only within one expression, and each
// wrapper is one operation.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "bcastgen/no_contract.h"

BCASTGEN_NO_CONTRACT_BEGIN

#define BCASTGEN_SIMD_FN __attribute__((always_inline)) inline

namespace bcastgen::simd::scalar {

using f32v = float;
using i32v = std::int32_t;

BCASTGEN_SIMD_FN float splat_f32(float x) { return x; }
BCASTGEN_SIMD_FN float add_f32(float a, float b) { return a + b; }
BCASTGEN_SIMD_FN float subtract_f32(float a, float b) { return a - b; }
BCASTGEN_SIMD_FN float multiply_f32(float a, float b) { return a * b; }
BCASTGEN_SIMD_FN float divide_f32(float a, float b) { return a / b; }
BCASTGEN_SIMD_FN float neg_f32(float x) { return -x; }
BCASTGEN_SIMD_FN float abs_f32(float x) { return std::fabs(x); }
BCASTGEN_SIMD_FN bool less_f32(float a, float b) { return a < b; }
BCASTGEN_SIMD_FN float select_f32(bool c, float x, float y) { return c ? x : y; }
BCASTGEN_SIMD_FN std::int32_t splat_i32(std::int32_t x) { return x; }
// Integer lanes wrap, as the vector instructions do (no signed overflow).
BCASTGEN_SIMD_FN std::int32_t add_i32(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
BCASTGEN_SIMD_FN std::int32_t subtract_i32(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
BCASTGEN_SIMD_FN float cast_i32_f32(std::int32_t x) { return static_cast<float>(x); }
BCASTGEN_SIMD_FN std::int32_t bitwise_and_i32(std::int32_t a, std::int32_t b) { return a & b; }
BCASTGEN_SIMD_FN std::int32_t bitwise_or_i32(std::int32_t a, std::int32_t b) { return a | b; }
BCASTGEN_SIMD_FN std::int32_t bitwise_xor_i32(std::int32_t a, std::int32_t b) { return a ^ b; }

namespace detail {
BCASTGEN_SIMD_FN float fmadd_f32(float a, float b, float c) { return std::fma(a, b, c); }
BCASTGEN_SIMD_FN float max_or_b_f32(float a, float b) { return a > b ? a : b; }
BCASTGEN_SIMD_FN float min_or_b_f32(float a, float b) { return a < b ? a : b; }
BCASTGEN_SIMD_FN std::int32_t bits_f32(float x) {
  std::int32_t i;
  std::memcpy(&i, &x, sizeof i);
  return i;
}
BCASTGEN_SIMD_FN float from_bits_f32(std::int32_t i) {
  float x;
  std::memcpy(&x, &i, sizeof x);
  return x;
}
template <int N>
BCASTGEN_SIMD_FN std::int32_t shift_left_i32(std::int32_t x) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << N);
}
// Arithmetic, as vpsrad (C++20 defines >> on negative values so; GCC and
// Clang already do in C++17).
template <int N>
BCASTGEN_SIMD_FN std::int32_t shift_right_i32(std::int32_t x) {
  return x >> N;
}
BCASTGEN_SIMD_FN float lookup4_f32(const float* table, std::int32_t j) { return table[j & 3]; }
BCASTGEN_SIMD_FN float lookup8_f32(const float* table, std::int32_t j) { return table[j & 7]; }
BCASTGEN_SIMD_FN float lookup16_f32(const float* table, std::int32_t j) { return table[j & 15]; }
}  // namespace detail

#include "bcastgen/simd/math_f32.inl"

}  // namespace bcastgen::simd::scalar

#undef BCASTGEN_SIMD_FN

BCASTGEN_NO_CONTRACT_END
