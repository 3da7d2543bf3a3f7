// avx512bf16's rounding stores (vcvtneps2bf16, and vcvtne2ps2bf16 for a
// pair of vectors, with AVX-512's software rounding for vectors that hold
// an f32 subnormal, which the instructions read as zero) must give
// bcastgen's bf16 rounding of every f32: the scalar rule of half.h
// (bcastgen::half_from<bf16>, the reference's), on all 2^32 inputs through
// both the single and the pair store (about 4 s on 2 cores), and, on every 251st input, the
// general rounding of half_from_double, which finds the leading bit and
// rounds the significand (a second algorithm). Skipped, with a message, on
// a CPU without AVX512-BF16.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/half.h"

#if defined(__x86_64__)
#include "bcastgen/simd/avx512bf16.h"

namespace {

using bcastgen::bf16;

float from_bits(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

// 16 consecutive patterns from `first`, through store_pbh, into `out`.
__attribute__((target(BCASTGEN_TARGET_AVX512BF16))) void store16(std::uint32_t first, bf16* out) {
  const __m512i bits = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(first)),
                                        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  bcastgen::simd::avx512bf16::store_pbh(out, _mm512_castsi512_ps(bits));
}

// 32 consecutive patterns from `first`, through store_pair_pbh.
__attribute__((target(BCASTGEN_TARGET_AVX512BF16))) void store32(std::uint32_t first, bf16* out) {
  const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i a = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(first)), lanes);
  const __m512i b = _mm512_add_epi32(a, _mm512_set1_epi32(16));
  bcastgen::simd::avx512bf16::store_pair_pbh(out, _mm512_castsi512_ps(a), _mm512_castsi512_ps(b));
}

// The patterns [begin, end) (multiples of 32) that store_pbh or
// store_pair_pbh rounds unlike half_from<bf16>; the first few in `bad`.
std::uint64_t mismatches(std::uint64_t begin, std::uint64_t end, std::vector<std::uint32_t>* bad) {
  std::uint64_t n = 0;
  bf16 single[32], pair[32];
  for (std::uint64_t first = begin; first < end; first += 32) {
    store16(static_cast<std::uint32_t>(first), single);
    store16(static_cast<std::uint32_t>(first + 16), single + 16);
    store32(static_cast<std::uint32_t>(first), pair);
    for (std::uint32_t k = 0; k < 32; ++k) {
      const auto b = static_cast<std::uint32_t>(first + k);
      const std::uint16_t want = bcastgen::half_from<bf16>(from_bits(b)).bits;
      if (single[k].bits == want && pair[k].bits == want) continue;
      if (++n <= 4) bad->push_back(b);
    }
  }
  return n;
}

class Bf16Store : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!bcastgen::cpu_supports(bcastgen::Isa::Avx512Bf16)) {
      GTEST_SKIP() << "this CPU has no AVX512-BF16: the avx512bf16 stores are not run";
    }
  }
};

TEST_F(Bf16Store, EqualsTheScalarRoundingOnEveryF32) {
  constexpr std::uint64_t kAll = std::uint64_t{1} << 32, kHalf = kAll / 2;
  std::vector<std::uint32_t> bad_low, bad_high;
  std::uint64_t high = 0;
  std::thread other([&] { high = mismatches(kHalf, kAll, &bad_high); });
  const std::uint64_t low = mismatches(0, kHalf, &bad_low);
  other.join();
  EXPECT_EQ(low + high, 0u);
  for (std::uint32_t b : bad_low) ADD_FAILURE() << "f32 bits 0x" << std::hex << b;
  for (std::uint32_t b : bad_high) ADD_FAILURE() << "f32 bits 0x" << std::hex << b;
}

TEST_F(Bf16Store, EqualsTheGeneralRoundingOnASample) {
  bf16 got[16];
  int bad = 0;
  for (std::uint64_t first = 0; first < (std::uint64_t{1} << 32); first += 251 * 16) {
    store16(static_cast<std::uint32_t>(first), got);
    for (std::uint32_t k = 0; k < 16; ++k) {
      const auto b = static_cast<std::uint32_t>(first + k);
      const double x = from_bits(b);  // exact
      const std::uint16_t want = bcastgen::half_from<bf16>(x).bits;
      if (got[k].bits != want && ++bad <= 4) ADD_FAILURE() << "f32 bits 0x" << std::hex << b;
    }
  }
  EXPECT_EQ(bad, 0);
}

// The tail and streaming forms: a vector of normal values with one
// subnormal lane (which takes the software rounding), and one without.
__attribute__((target(BCASTGEN_TARGET_AVX512BF16))) void tail_and_stream(const float* in, __mmask16 t, bf16* tail,
                                                                          bf16* streamed) {
  const __m512 v = _mm512_loadu_ps(in);
  bcastgen::simd::avx512bf16::store_tail_pbh(tail, t, v);
  bcastgen::simd::avx512bf16::stream_pbh(streamed, v);
  _mm_sfence();
}

TEST_F(Bf16Store, TailAndStreamFormsRoundAsTheStore) {
  for (int subnormal_lane = -1; subnormal_lane < 16; ++subnormal_lane) {
    float in[16];
    for (int k = 0; k < 16; ++k) in[k] = from_bits(0x3f808000u + 0x10000u * static_cast<std::uint32_t>(k));  // ties
    if (subnormal_lane >= 0) in[subnormal_lane] = from_bits(0x0001ffffu);  // rounds up to a bf16 subnormal
    for (int n = 0; n <= 16; ++n) {
      alignas(64) bf16 streamed[16];
      bf16 tail[16];
      for (bf16& h : tail) h.bits = 0xdead;
      tail_and_stream(in, static_cast<__mmask16>((1u << n) - 1), tail, streamed);
      for (int k = 0; k < 16; ++k) {
        const std::uint16_t want = bcastgen::half_from<bf16>(in[k]).bits;
        EXPECT_EQ(streamed[k].bits, want) << "lane " << k;
        EXPECT_EQ(tail[k].bits, k < n ? want : 0xdead) << "lane " << k << " of a tail of " << n;
      }
    }
  }
  EXPECT_EQ(bcastgen::half_from<bf16>(from_bits(0x0001ffffu)).bits, 0x0002);
}

// The pair forms with a subnormal in one lane of either vector (the
// exhaustive test's pairs are all-subnormal or all-normal): the pair takes
// the software rounding, and each half is where it belongs.
__attribute__((target(BCASTGEN_TARGET_AVX512BF16))) void pairs(const float* in, bf16* stored, bf16* streamed) {
  const __m512 a = _mm512_loadu_ps(in), b = _mm512_loadu_ps(in + 16);
  bcastgen::simd::avx512bf16::store_pair_pbh(stored, a, b);
  bcastgen::simd::avx512bf16::stream_pair_pbh(streamed, a, b);
  _mm_sfence();
}

TEST_F(Bf16Store, PairFormsRoundEachVectorInPlace) {
  for (int subnormal_lane = -1; subnormal_lane < 32; ++subnormal_lane) {
    float in[32];
    for (int k = 0; k < 32; ++k) in[k] = from_bits(0x3f808000u + 0x10000u * static_cast<std::uint32_t>(k));  // ties
    if (subnormal_lane >= 0) in[subnormal_lane] = from_bits(0x8001ffffu);  // rounds to the bf16 subnormal 0x8002
    alignas(64) bf16 streamed[32];
    bf16 stored[32];
    pairs(in, stored, streamed);
    for (int k = 0; k < 32; ++k) {
      const std::uint16_t want = bcastgen::half_from<bf16>(in[k]).bits;
      EXPECT_EQ(stored[k].bits, want) << "lane " << k << ", subnormal in lane " << subnormal_lane;
      EXPECT_EQ(streamed[k].bits, want) << "lane " << k << ", subnormal in lane " << subnormal_lane;
    }
  }
  EXPECT_EQ(bcastgen::half_from<bf16>(from_bits(0x8001ffffu)).bits, 0x8002);
}

}  // namespace
#endif
