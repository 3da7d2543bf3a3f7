// The math algorithms written once (bcastgen/simd/math_f32.inl) give the
// same bits in every instantiation: each vector ISA's lanes against the
// scalar one, which bcastgen::ops calls (and math_accuracy_test holds to
// the ulp bound), the x86 ISAs' forms over two and four vectors (x2, x4,
// simd/math_pack.inl) too. CI compares every 127th f32 bit pattern, about
// 34 million inputs, plus the specials, and every 2031st (2.1 million) for
// the x2 and x4 forms: the same algorithm over more registers, whose faults
// (a vector crossed with another) show on any input, and which were two
// thirds of the suite's largest test (about 120 of its 184 s on a Zen 5).
// BCASTGEN_SIMD_MATH_ALL=1 compares all 2^32 for every form, and
// BCASTGEN_SIMD_MATH_STRIDE=<n> every n-th (the aarch64 stage under qemu).
// An ISA this CPU lacks is skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/simd/scalar.h"
#include "bcastgen/unary_functions.h"
#if defined(__x86_64__)
#include "bcastgen/simd/avx2.h"
#include "bcastgen/simd/avx512.h"
#elif defined(__aarch64__)
#include "bcastgen/simd/neon.h"
#endif

// As in the generated files: no multiply-add contraction, which GCC does by
// default (even in ISO mode) and which would fuse the algorithms' separate
// multiplies and adds in the vector lanes only.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace bg = bcastgen;

namespace {

using Batch = void (*)(const float* in, float* out, std::size_t n);  // n: a multiple of kStep
// The longest step of a batch below: four AVX-512 vectors.
constexpr std::size_t kStep = 64;

struct VectorFunction {
  const char* name;
  bg::Isa isa;
  Batch batch;
  float (*scalar)(float);
};

// The functions with a vector form (simd/math_f32.inl): the Vector rows of
// the table (unary_functions.h). BCASTGEN_VECTOR_MATH_ calls
// BCASTGEN_EACH_(name) for each, which every use below defines.
#define BCASTGEN_IF_VECTOR_Own(F, name)
#define BCASTGEN_IF_VECTOR_Libm(F, name)
#define BCASTGEN_IF_VECTOR_Vector(F, name) F(name)
#define BCASTGEN_VECTOR_ROW_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  BCASTGEN_IF_VECTOR_##form(BCASTGEN_EACH_, name)
#define BCASTGEN_VECTOR_MATH_ BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_VECTOR_ROW_)

#if defined(__x86_64__)

#define BCASTGEN_BATCH_(ISA, TARGET, LANES, LOAD, STORE, FN)                                   \
  __attribute__((target(TARGET))) void FN##_##ISA(const float* in, float* out, std::size_t n) { \
    for (std::size_t i = 0; i < n; i += LANES) STORE(out + i, bg::simd::ISA::FN(LOAD(in + i)));  \
  }
#define BCASTGEN_BATCHES_(NAME)                                                                     \
  BCASTGEN_BATCH_(avx2, BCASTGEN_TARGET_AVX2, 8, _mm256_loadu_ps, _mm256_storeu_ps, NAME##_f32)     \
  BCASTGEN_BATCH_(avx512, BCASTGEN_TARGET_AVX512, 16, _mm512_loadu_ps, _mm512_storeu_ps, NAME##_f32)
#define BCASTGEN_EACH_ BCASTGEN_BATCHES_
BCASTGEN_VECTOR_MATH_
#undef BCASTGEN_EACH_
#undef BCASTGEN_BATCHES_
#undef BCASTGEN_BATCH_

// The same functions over two and four vectors at once (simd/math_pack.inl,
// what a generated step of four calls): "NAME_x2" and "NAME_x4" below.
#define BCASTGEN_BATCH_PACK_(ISA, TARGET, LANES, LOAD, STORE, NAME, W)                                          \
  __attribute__((target(TARGET))) void NAME##_f32_##ISA##_x##W(const float* in, float* out, std::size_t n) { \
    namespace v = bg::simd::ISA;                                                                              \
    for (std::size_t i = 0; i < n; i += W * LANES) {                                                          \
      v::x##W::f32v x;                                                                                        \
      for (int k = 0; k < W; ++k) x.v[k] = LOAD(in + i + LANES * k);                                          \
      const v::x##W::f32v y = v::x##W::NAME##_f32(x);                                                         \
      for (int k = 0; k < W; ++k) STORE(out + i + LANES * k, y.v[k]);                                         \
    }                                                                                                         \
  }
#define BCASTGEN_BATCHES_PACK_(NAME)                                                                     \
  BCASTGEN_BATCH_PACK_(avx2, BCASTGEN_TARGET_AVX2, 8, _mm256_loadu_ps, _mm256_storeu_ps, NAME, 2)        \
  BCASTGEN_BATCH_PACK_(avx2, BCASTGEN_TARGET_AVX2, 8, _mm256_loadu_ps, _mm256_storeu_ps, NAME, 4)        \
  BCASTGEN_BATCH_PACK_(avx512, BCASTGEN_TARGET_AVX512, 16, _mm512_loadu_ps, _mm512_storeu_ps, NAME, 2)   \
  BCASTGEN_BATCH_PACK_(avx512, BCASTGEN_TARGET_AVX512, 16, _mm512_loadu_ps, _mm512_storeu_ps, NAME, 4)
#define BCASTGEN_EACH_ BCASTGEN_BATCHES_PACK_
BCASTGEN_VECTOR_MATH_
#undef BCASTGEN_EACH_
#undef BCASTGEN_BATCHES_PACK_
#undef BCASTGEN_BATCH_PACK_

#define BCASTGEN_ENTRIES_(NAME)                                                           \
  {#NAME, bg::Isa::Avx2, NAME##_f32_avx2, bg::simd::scalar::NAME##_f32},                  \
      {#NAME "_x2", bg::Isa::Avx2, NAME##_f32_avx2_x2, bg::simd::scalar::NAME##_f32},     \
      {#NAME "_x4", bg::Isa::Avx2, NAME##_f32_avx2_x4, bg::simd::scalar::NAME##_f32},     \
      {#NAME, bg::Isa::Avx512, NAME##_f32_avx512, bg::simd::scalar::NAME##_f32},          \
      {#NAME "_x2", bg::Isa::Avx512, NAME##_f32_avx512_x2, bg::simd::scalar::NAME##_f32}, \
      {#NAME "_x4", bg::Isa::Avx512, NAME##_f32_avx512_x4, bg::simd::scalar::NAME##_f32},
const std::vector<VectorFunction> kFunctions = {
#define BCASTGEN_EACH_ BCASTGEN_ENTRIES_
    BCASTGEN_VECTOR_MATH_
#undef BCASTGEN_EACH_
};
#undef BCASTGEN_ENTRIES_
#elif defined(__aarch64__)
#define BCASTGEN_BATCH_(NAME)                                                                           \
  void NAME##_f32_neon(const float* in, float* out, std::size_t n) {                                    \
    for (std::size_t i = 0; i < n; i += 4) vst1q_f32(out + i, bg::simd::neon::NAME##_f32(vld1q_f32(in + i))); \
  }
#define BCASTGEN_EACH_ BCASTGEN_BATCH_
BCASTGEN_VECTOR_MATH_
#undef BCASTGEN_EACH_
#undef BCASTGEN_BATCH_
#define BCASTGEN_ENTRIES_(NAME) {#NAME, bg::Isa::Neon, NAME##_f32_neon, bg::simd::scalar::NAME##_f32},
const std::vector<VectorFunction> kFunctions = {
#define BCASTGEN_EACH_ BCASTGEN_ENTRIES_
    BCASTGEN_VECTOR_MATH_
#undef BCASTGEN_EACH_
};
#undef BCASTGEN_ENTRIES_
#else
const std::vector<VectorFunction> kFunctions;
#endif
#undef BCASTGEN_VECTOR_MATH_
#undef BCASTGEN_VECTOR_ROW_
#undef BCASTGEN_IF_VECTOR_Vector
#undef BCASTGEN_IF_VECTOR_Libm
#undef BCASTGEN_IF_VECTOR_Own

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

float from_bits(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

// Whether f is a form over two or four vectors (NAME_x2, NAME_x4).
bool is_pack(const VectorFunction& f) {
  const std::string name = f.name;
  return name.size() > 3 && (name.compare(name.size() - 3, 3, "_x2") == 0 || name.compare(name.size() - 3, 3, "_x4") == 0);
}

class SimdMath : public ::testing::TestWithParam<VectorFunction> {};

TEST_P(SimdMath, EveryLaneGivesTheScalarBits) {
  const VectorFunction& f = GetParam();
  if (!bg::cpu_supports(f.isa)) GTEST_SKIP() << "this CPU cannot run " << bg::isa_name(f.isa);
  const bool all = std::getenv("BCASTGEN_SIMD_MATH_ALL") != nullptr;
  const char* stride_text = std::getenv("BCASTGEN_SIMD_MATH_STRIDE");
  const std::uint64_t stride = all           ? 1
                               : stride_text ? std::max(1ull, std::strtoull(stride_text, nullptr, 10))
                               : is_pack(f)  ? 2031
                                             : 127;
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<float> in(kBlock), out(kBlock);
  std::size_t compared = 0, differ = 0;
  std::string first;
  auto check = [&](std::size_t n) {
    n = (n + kStep - 1) / kStep * kStep;  // whole steps of every batch (the callers pad with 1.0)
    f.batch(in.data(), out.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const float want = f.scalar(in[i]);
      if (bits(out[i]) == bits(want) || (std::isnan(out[i]) && std::isnan(want))) continue;
      if (differ++ == 0) {
        char text[160];
        std::snprintf(text, sizeof text, "%s(%.9g = 0x%08x): vector %.9g, scalar %.9g", f.name, in[i],
                      static_cast<unsigned>(bits(in[i])), out[i], want);
        first = text;
      }
    }
    compared += n;
  };
  // The specials, then the strided sweep (a stride prime to every power of
  // two reaches every exponent and low mantissa bit pattern).
  const float inf = INFINITY;
  const std::vector<float> specials = {0.0f, -0.0f, inf, -inf, NAN, 1e-45f, -1e-45f, 1.17549435e-38f, 3.4028235e38f,
                                       -3.4028235e38f, 88.72283f, 88.7228394f, -103.97f, -103.98f, -87.33655f, 1.0f,
                                       -1.0f, 0.5f, 2.0f, 128.0f, -150.0f, 88.5f, -18.0f, 12.0f, -12.0f,
                                       3.0f, -3.0f, 9.0f, -91.8f, -108.7f};
  std::copy(specials.begin(), specials.end(), in.begin());
  std::fill(in.begin() + specials.size(), in.begin() + kStep * ((specials.size() + kStep - 1) / kStep), 1.0f);
  check(specials.size());
  std::size_t n = 0;
  for (std::uint64_t b = 0; b < (std::uint64_t{1} << 32); b += stride) {
    in[n++] = from_bits(static_cast<std::uint32_t>(b));
    if (n == kBlock) {
      check(n);
      n = 0;
    }
  }
  std::fill(in.begin() + n, in.end(), 1.0f);
  check(n);
  EXPECT_EQ(differ, 0u) << "of " << compared << " inputs; first: " << first;
  EXPECT_GT(compared, (std::uint64_t{1} << 32) / stride);
}

// The comparison above takes any NaN for any NaN; the log family's NaNs are
// the same bits too (README: "The same bits on every ISA"): x < 0 gives
// 0xffc00000, x86's default NaN, in every variant (AVX-512's vfixupimmps,
// the compares and selects elsewhere), and a NaN comes back as it came, a
// signaling one too (log1p's comes back quieted by its 1 + x).
TEST(SimdMathNaNs, LogFamilyGivesTheSameNaNBitsInEveryVariant) {
  const std::vector<std::uint32_t> negatives = {0xc0000000u /* -2 */, 0xff800000u /* -inf */, 0xff7fffffu};
  const std::vector<std::uint32_t> nans = {0x7fc00001u, 0x7f800001u /* signaling */, 0xffc12345u};
  std::size_t checked = 0;
  for (const VectorFunction& f : kFunctions) {
    std::string name = f.name;
    if (is_pack(f)) name.resize(name.size() - 3);
    if (name.rfind("log", 0) != 0 || !bg::cpu_supports(f.isa)) continue;
    std::vector<float> in(kStep, 1.0f), out(kStep);  // one batch step (Batch)
    std::vector<std::uint32_t> want(kStep, bits(0.0f));
    std::size_t n = 0;
    for (std::uint32_t b : negatives) {
      in[n] = from_bits(b);
      want[n++] = 0xffc00000u;
    }
    for (std::uint32_t b : nans) {
      in[n] = from_bits(b);
      want[n++] = name == "log1p" ? (b | 0x00400000u) : b;
    }
    f.batch(in.data(), out.data(), in.size());
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(bits(out[i]), want[i]) << f.name << "_" << bg::isa_name(f.isa) << std::hex << " of 0x" << bits(in[i]);
      EXPECT_EQ(bits(f.scalar(in[i])), want[i]) << f.name << " (scalar)" << std::hex << " of 0x" << bits(in[i]);
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "this CPU has no vector ISA with the log family";
}

// The table lookups the algorithms' reductions use (lookup4_f32,
// lookup8_f32, lookup16_f32, in each header's detail namespace): every lane
// reads table[j & 3], table[j & 7] or table[j & 15], whatever j's higher
// bits hold (the callers pass integers with them set), as the scalar form
// does. Each index 0..15 four times, under high bits that vary, and the
// extremes of int32.
using Lookup = void (*)(const float* table, const std::int32_t* j, float* out, std::size_t n);  // n: a multiple of 16

struct VectorLookup {
  const char* name;
  bg::Isa isa;
  int entries;  // 4, 8 or 16
  Lookup lookup;
};

#if defined(__x86_64__)
#define BCASTGEN_LOOKUP_(ISA, TARGET, LANES, VI, LOADI, STORE, ENTRIES)                                     \
  __attribute__((target(TARGET))) void lookup##ENTRIES##_##ISA(const float* table, const std::int32_t* j, \
                                                               float* out, std::size_t n) {               \
    for (std::size_t i = 0; i < n; i += LANES) {                                                          \
      const VI at = LOADI(reinterpret_cast<const VI*>(j + i));                                            \
      STORE(out + i, bg::simd::ISA::detail::lookup##ENTRIES##_f32(table, at));                            \
    }                                                                                                     \
  }
BCASTGEN_LOOKUP_(avx2, BCASTGEN_TARGET_AVX2, 8, __m256i, _mm256_loadu_si256, _mm256_storeu_ps, 4)
BCASTGEN_LOOKUP_(avx2, BCASTGEN_TARGET_AVX2, 8, __m256i, _mm256_loadu_si256, _mm256_storeu_ps, 8)
BCASTGEN_LOOKUP_(avx2, BCASTGEN_TARGET_AVX2, 8, __m256i, _mm256_loadu_si256, _mm256_storeu_ps, 16)
BCASTGEN_LOOKUP_(avx512, BCASTGEN_TARGET_AVX512, 16, __m512i, _mm512_loadu_si512, _mm512_storeu_ps, 4)
BCASTGEN_LOOKUP_(avx512, BCASTGEN_TARGET_AVX512, 16, __m512i, _mm512_loadu_si512, _mm512_storeu_ps, 8)
BCASTGEN_LOOKUP_(avx512, BCASTGEN_TARGET_AVX512, 16, __m512i, _mm512_loadu_si512, _mm512_storeu_ps, 16)
#undef BCASTGEN_LOOKUP_
const std::vector<VectorLookup> kLookups = {
    {"lookup4", bg::Isa::Avx2, 4, lookup4_avx2},     {"lookup8", bg::Isa::Avx2, 8, lookup8_avx2},
    {"lookup16", bg::Isa::Avx2, 16, lookup16_avx2},  {"lookup4", bg::Isa::Avx512, 4, lookup4_avx512},
    {"lookup8", bg::Isa::Avx512, 8, lookup8_avx512}, {"lookup16", bg::Isa::Avx512, 16, lookup16_avx512}};
#elif defined(__aarch64__)
#define BCASTGEN_LOOKUP_(ENTRIES)                                                                     \
  void lookup##ENTRIES##_neon(const float* table, const std::int32_t* j, float* out, std::size_t n) { \
    for (std::size_t i = 0; i < n; i += 4) {                                                          \
      vst1q_f32(out + i, bg::simd::neon::detail::lookup##ENTRIES##_f32(table, vld1q_s32(j + i)));      \
    }                                                                                                 \
  }
BCASTGEN_LOOKUP_(4)
BCASTGEN_LOOKUP_(8)
BCASTGEN_LOOKUP_(16)
#undef BCASTGEN_LOOKUP_
const std::vector<VectorLookup> kLookups = {{"lookup4", bg::Isa::Neon, 4, lookup4_neon},
                                            {"lookup8", bg::Isa::Neon, 8, lookup8_neon},
                                            {"lookup16", bg::Isa::Neon, 16, lookup16_neon}};
#else
const std::vector<VectorLookup> kLookups;
#endif

TEST(SimdLookup, EveryLaneReadsTheTableAtTheLowBits) {
  std::vector<float> table(16);
  for (int k = 0; k < 16; ++k) table[static_cast<std::size_t>(k)] = 1.5f + static_cast<float>(k * k) * 0.25f;
  std::vector<std::int32_t> j;
  for (std::uint32_t k = 0; k < 64; ++k) {
    j.push_back(static_cast<std::int32_t>(((k * 0x9E3779B1u) & ~15u) | (k & 15)));  // high bits that vary
  }
  for (std::int32_t e : {0, 7, 8, 15, -1, -8, -16, 0x7fffffff, static_cast<std::int32_t>(0x80000000u), 0x40000009}) {
    j.push_back(e);
  }
  while (j.size() % 16 != 0) j.push_back(3);
  std::size_t checked = 0;
  for (const VectorLookup& f : kLookups) {
    if (!bg::cpu_supports(f.isa)) continue;
    std::vector<float> out(j.size());
    f.lookup(table.data(), j.data(), out.data(), j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
      const float want = table[static_cast<std::size_t>(j[i] & (f.entries - 1))];
      const float scalar = f.entries == 16  ? bg::simd::scalar::detail::lookup16_f32(table.data(), j[i])
                           : f.entries == 8 ? bg::simd::scalar::detail::lookup8_f32(table.data(), j[i])
                                            : bg::simd::scalar::detail::lookup4_f32(table.data(), j[i]);
      EXPECT_EQ(out[i], want) << f.name << "_" << bg::isa_name(f.isa) << " j=" << j[i];
      EXPECT_EQ(scalar, want) << f.name << " (scalar) j=" << j[i];
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "this CPU has no vector ISA with the lookups";
}

INSTANTIATE_TEST_SUITE_P(Functions, SimdMath, ::testing::ValuesIn(kFunctions), [](const auto& p) {
  return std::string(p.param.name) + "_" + bg::isa_name(p.param.isa);
});

}  // namespace
